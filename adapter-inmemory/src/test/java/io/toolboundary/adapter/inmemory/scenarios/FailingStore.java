package io.toolboundary.adapter.inmemory.scenarios;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;

/**
 * A real store with one failure switched in: {@code begin} or {@code complete} answers a store error,
 * or {@code begin} throws. Stands for the failures a remote store maps to safe codes.
 */
final class FailingStore implements CanonicalInvocationStore {

    private final CanonicalInvocationStore delegate;
    private final Option<ErrorCode> beginRefusal;
    private final Option<ErrorCode> completeRefusal;
    private final Option<String> beginCrash;

    private FailingStore(CanonicalInvocationStore delegate, Option<ErrorCode> beginRefusal,
            Option<ErrorCode> completeRefusal, Option<String> beginCrash) {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.beginRefusal = beginRefusal;
        this.completeRefusal = completeRefusal;
        this.beginCrash = beginCrash;
    }

    static FailingStore refusingBegin(CanonicalInvocationStore delegate, ErrorCode code) {
        return new FailingStore(delegate, Option.of(code), Option.none(), Option.none());
    }

    static FailingStore refusingComplete(CanonicalInvocationStore delegate, ErrorCode code) {
        return new FailingStore(delegate, Option.none(), Option.of(code), Option.none());
    }

    static FailingStore crashingOnBegin(CanonicalInvocationStore delegate, String message) {
        return new FailingStore(delegate, Option.none(), Option.none(), Option.of(message));
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start) {
        if (beginCrash.isDefined()) {
            throw new IllegalStateException(beginCrash.get());
        }
        return beginRefusal.isDefined() ? Either.left(BoundaryError.of(beginRefusal.get())) : delegate.begin(start);
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final outcome) {
        return completeRefusal.isDefined()
                ? Either.left(BoundaryError.of(completeRefusal.get()))
                : delegate.complete(token, outcome);
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now) {
        return delegate.abandon(key, now);
    }

    @Override
    public Either<BoundaryError, Option<CanonicalRecord>> find(InvocationKey key) {
        return delegate.find(key);
    }
}
