package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A store that answers {@code begin} and {@code complete} as a test scripts it and remembers every
 * call, so that a test can see exactly what the boundary asked of its store.
 */
final class ScriptedStore implements CanonicalInvocationStore {

    /** One completion the boundary asked for. */
    record Completion(AttemptToken token, CanonicalRecord.Final outcome) {
    }

    private final Function<InvocationStart, Either<BoundaryError, CanonicalRecord.Projecting>> beginAnswer;
    private final Function<CanonicalRecord.Final, Either<BoundaryError, CanonicalRecord.Final>> completeAnswer;
    final List<InvocationStart> begins = new ArrayList<>();
    final List<Completion> completions = new ArrayList<>();
    final List<Instant> abandons = new ArrayList<>();

    private ScriptedStore(Function<InvocationStart, Either<BoundaryError, CanonicalRecord.Projecting>> beginAnswer,
            Function<CanonicalRecord.Final, Either<BoundaryError, CanonicalRecord.Final>> completeAnswer) {
        this.beginAnswer = requireNonNull(beginAnswer, "beginAnswer is null");
        this.completeAnswer = requireNonNull(completeAnswer, "completeAnswer is null");
    }

    /** Confirms every begin and every complete. */
    static ScriptedStore confirming() {
        return new ScriptedStore(start -> Either.right(start.record()), Either::right);
    }

    /** Refuses every begin with {@code error}; confirms every complete. */
    static ScriptedStore refusingBegin(BoundaryError error) {
        return new ScriptedStore(start -> Either.left(error), Either::right);
    }

    /** Refuses every begin with {@code beginError} and every complete with {@code completeError}. */
    static ScriptedStore refusing(BoundaryError beginError, BoundaryError completeError) {
        return new ScriptedStore(start -> Either.left(beginError), outcome -> Either.left(completeError));
    }

    /** Confirms every begin; refuses every complete with {@code error}. */
    static ScriptedStore refusingComplete(BoundaryError error) {
        return new ScriptedStore(start -> Either.right(start.record()), outcome -> Either.left(error));
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start) {
        begins.add(start);
        return beginAnswer.apply(start);
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final outcome) {
        completions.add(new Completion(token, outcome));
        return completeAnswer.apply(outcome);
    }

    /** Remembers the instant it was given; holds no records, so there is nothing to abandon. */
    @Override
    public Either<BoundaryError, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now) {
        abandons.add(now);
        return Either.left(BoundaryError.of(ErrorCode.RECORD_EXPIRED));
    }

    @Override
    public Either<BoundaryError, Option<CanonicalRecord>> find(InvocationKey key) {
        return Either.right(Option.none());
    }
}
