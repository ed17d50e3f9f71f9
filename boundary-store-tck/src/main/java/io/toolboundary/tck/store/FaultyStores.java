package io.toolboundary.tck.store;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.application.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.Completion;
import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;

/**
 * A real store with one failure switched in, standing for the failures a remote store maps to safe codes (or, for a
 * crash, fails to map). Every operation the failure does not concern goes to the real store unchanged, so what the
 * boundary does next (ending a record, reading it) is real.
 */
public final class FaultyStores {

    private FaultyStores() {
    }

    /** {@code begin} answers {@code failure} and touches nothing; the rest is {@code store}. */
    public static CanonicalInvocationStore refusingBegin(CanonicalInvocationStore store, StoreFailure failure) {
        requireNonNull(failure, "failure is null");
        return new Faulty(store, Option.of(failure), Option.none(), Option.none());
    }

    /** {@code complete} answers {@code failure} and touches nothing; the rest is {@code store}. */
    public static CanonicalInvocationStore refusingComplete(CanonicalInvocationStore store, StoreFailure failure) {
        requireNonNull(failure, "failure is null");
        return new Faulty(store, Option.none(), Option.of(failure), Option.none());
    }

    /**
     * {@code begin} throws an {@link IllegalStateException} with {@code message}, as a store with a bug would; the rest
     * is {@code store}.
     */
    public static CanonicalInvocationStore crashingOnBegin(CanonicalInvocationStore store, String message) {
        requireNonNull(message, "message is null");
        return new Faulty(store, Option.none(), Option.none(), Option.of(message));
    }

    private static final class Faulty extends ForwardingStore {

        private final Option<StoreFailure> beginRefusal;
        private final Option<StoreFailure> completeRefusal;
        private final Option<String> beginCrash;

        private Faulty(CanonicalInvocationStore store, Option<StoreFailure> beginRefusal,
                Option<StoreFailure> completeRefusal, Option<String> beginCrash) {
            super(store);
            this.beginRefusal = beginRefusal;
            this.completeRefusal = completeRefusal;
            this.beginCrash = beginCrash;
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
            if (beginCrash.isDefined()) {
                throw new IllegalStateException(beginCrash.get());
            }
            return beginRefusal.isDefined()
                    ? Either.left(beginRefusal.get())
                    : delegate().begin(start, timeout);
        }

        @Override
        public Either<StoreFailure, Completion> complete(InvocationKey key, AttemptToken token, Completion outcome,
                Duration timeout) {
            return completeRefusal.isDefined()
                    ? Either.left(completeRefusal.get())
                    : delegate().complete(key, token, outcome, timeout);
        }
    }
}
