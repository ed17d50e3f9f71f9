package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A store that answers {@code begin}, {@code complete} and {@code end} as a test scripts it and
 * remembers every call, so that a test can see exactly what the boundary asked of its store.
 */
final class ScriptedStore implements CanonicalInvocationStore {

    /** One completion the boundary asked for: the final record it asked the store to keep. */
    record Completion(InvocationKey key, AttemptToken token, CanonicalRecord.Final outcome) {
    }

    /** One end by token the boundary asked for. */
    record End(InvocationKey key, AttemptToken token, ErrorCode code, Duration timeout) {
    }

    private final Function<InvocationStart, Either<StoreFailure, CanonicalRecord.Projecting>> beginAnswer;
    private final Function<CanonicalRecord.Final, Either<StoreFailure, CanonicalRecord.Final>> completeAnswer;
    private final Either<StoreFailure, CanonicalRecord.Final> endAnswer;
    final List<InvocationStart> begins = new ArrayList<>();
    final List<Duration> beginTimeouts = new ArrayList<>();
    final List<Completion> completions = new ArrayList<>();
    final List<Duration> completeTimeouts = new ArrayList<>();
    final List<End> ends = new ArrayList<>();
    final List<Instant> abandons = new ArrayList<>();
    int finds;

    private ScriptedStore(Function<InvocationStart, Either<StoreFailure, CanonicalRecord.Projecting>> beginAnswer,
            Function<CanonicalRecord.Final, Either<StoreFailure, CanonicalRecord.Final>> completeAnswer,
            Either<StoreFailure, CanonicalRecord.Final> endAnswer) {
        this.beginAnswer = requireNonNull(beginAnswer, "beginAnswer is null");
        this.completeAnswer = requireNonNull(completeAnswer, "completeAnswer is null");
        this.endAnswer = requireNonNull(endAnswer, "endAnswer is null");
    }

    /** Confirms every begin and every complete; an end finds no record. */
    static ScriptedStore confirming() {
        return new ScriptedStore(start -> Either.right(start.record()), Either::right, expired());
    }

    /** Refuses every begin with {@code error}; confirms every complete; an end finds no record. */
    static ScriptedStore refusingBegin(BoundaryError error) {
        return new ScriptedStore(start -> Either.left(failure(error)), Either::right, expired());
    }

    /** Refuses every begin with {@code beginError}, and every complete and end with {@code completeError}. */
    static ScriptedStore refusing(BoundaryError beginError, BoundaryError completeError) {
        return new ScriptedStore(start -> Either.left(failure(beginError)), outcome -> Either.left(failure(completeError)),
                Either.left(failure(completeError)));
    }

    /** Confirms every begin; refuses every complete with {@code error}; an end finds no record. */
    static ScriptedStore refusingComplete(BoundaryError error) {
        return new ScriptedStore(start -> Either.right(start.record()), outcome -> Either.left(failure(error)), expired());
    }

    /** Confirms every begin; refuses every complete and every end with {@code error}. */
    static ScriptedStore refusingCompleteAndEnd(BoundaryError error) {
        return new ScriptedStore(start -> Either.right(start.record()), outcome -> Either.left(failure(error)),
                Either.left(failure(error)));
    }

    /** True when the boundary asked anything of this store. */
    boolean touched() {
        return !begins.isEmpty() || !completions.isEmpty() || !ends.isEmpty() || !abandons.isEmpty() || finds > 0;
    }

    /** Every run the boundary asked to open, with its TTL. */
    final List<Duration> runOpenings = new ArrayList<>();

    /** Whether {@link #openRun} throws, as a store with a bug would. */
    boolean openRunThrows;

    /** Opens every run with the offered token, remembering the TTL asked for; or throws when told to. */
    @Override
    public Either<StoreFailure, RunToken> openRun(RunOpening opening, Duration timeout) {
        if (openRunThrows) {
            throw new IllegalStateException("store bug");
        }
        runOpenings.add(opening.ttl());
        return Either.right(opening.offered());
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        begins.add(start);
        beginTimeouts.add(timeout);
        return beginAnswer.apply(start);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final outcome,
            Duration timeout) {
        completions.add(new Completion(outcome.key(), token, outcome));
        completeTimeouts.add(timeout);
        return completeAnswer.apply(outcome);
    }

    /** Whether an end by token ends the last begun record in ERROR, as a store holding it would. */
    boolean endsRecords;

    @Override
    public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout) {
        ends.add(new End(key, token, code, timeout));
        if (endsRecords && !begins.isEmpty()) {
            return Either.right(begins.get(begins.size() - 1).record().failed(code, Option.none(), now));
        }
        return endAnswer;
    }

    /** Remembers the instant it was given; holds no records, so there is nothing to abandon. */
    @Override
    public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
        abandons.add(now);
        return Either.left(StoreFailure.refused(Refusal.EXPIRED));
    }

    @Override
    public Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, java.time.Duration timeout) {
        return Either.right(new ToolCallIdPage(java.util.List.of(), false));
    }

    @Override
    public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
        finds++;
        return Either.right(Option.none());
    }

    private static Either<StoreFailure, CanonicalRecord.Final> expired() {
        return Either.left(StoreFailure.refused(Refusal.EXPIRED));
    }

    /** The store failure that {@link StoreFailure#code()} reports as {@code error}: the scripts speak in agent codes. */
    static StoreFailure failure(BoundaryError error) {
        switch (error.code()) {
            case STORE_UNAVAILABLE: return StoreFailure.unavailable();
            case STORE_FULL: return StoreFailure.full();
            case STORE_OUTCOME_UNKNOWN: return StoreFailure.outcomeUnknown();
            case STORE_DATA_INVALID: return StoreFailure.dataInvalid();
            case RUN_STATE_LOST: return StoreFailure.refused(Refusal.RUN_STATE_LOST);
            case DUPLICATE_TOOL_CALL: return StoreFailure.refused(Refusal.DUPLICATE);
            case TOOL_CALL_ID_REUSED: return StoreFailure.refused(Refusal.ID_REUSED);
            case RUN_BUDGET_EXHAUSTED: return StoreFailure.refused(Refusal.RUN_BUDGET_EXHAUSTED);
            case TOOL_BUDGET_EXHAUSTED: return StoreFailure.refused(Refusal.TOOL_BUDGET_EXHAUSTED);
            case RESULT_TOO_LARGE: return StoreFailure.refused(Refusal.TOO_LARGE);
            case TEXT_NOT_UNICODE: return StoreFailure.refused(Refusal.NOT_UNICODE);
            case RECORD_EXPIRED: return StoreFailure.refused(Refusal.EXPIRED);
            case RECORD_CONFLICT: return StoreFailure.refused(Refusal.CONFLICT);
            case LEASE_NOT_EXPIRED: return StoreFailure.refused(Refusal.LEASE_NOT_EXPIRED);
            default: throw new IllegalArgumentException("no store answers " + error.code());
        }
    }
}
