package io.toolboundary.tck.reliability;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.application.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.Completion;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.store.ForwardingStore;
import io.vavr.control.Either;
import java.time.Duration;

/** The real store, with the caller's flag set as begin or complete starts. */
final class InterruptingStore extends ForwardingStore {
    private final InterruptPoint point;

    InterruptingStore(CanonicalInvocationStore store, InterruptPoint point) {
        super(store);
        this.point = point;
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        if (point == InterruptPoint.DURING_BEGIN) {
            Thread.currentThread().interrupt();
        }
        return delegate().begin(start, timeout);
    }

    @Override
    public Either<StoreFailure, Completion> complete(InvocationKey key, AttemptToken token, Completion outcome,
            Duration timeout) {
        if (point == InterruptPoint.DURING_COMPLETE) {
            Thread.currentThread().interrupt();
        }
        return delegate().complete(key, token, outcome, timeout);
    }
}
