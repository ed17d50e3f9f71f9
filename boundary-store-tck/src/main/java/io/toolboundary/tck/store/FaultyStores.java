package io.toolboundary.tck.store;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Outcome;
import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;

/**
 * A real store with one failure switched in, standing for the failures a remote store maps to safe
 * codes (or, for a crash, fails to map). Every operation the failure does not concern goes to the real
 * store unchanged, so what the boundary does next (ending a record, reading it) is real.
 */
public final class FaultyStores {

    private FaultyStores() {
    }

    /**
     * {@code begin} answers {@code code} and touches nothing; the rest is {@code store}.
     *
     * @param store the real store every other operation goes to
     * @param code the safe error code every {@code begin} answers with
     * @return a store whose {@code begin} always refuses with {@code code}
     * @throws NullPointerException if {@code code} is null
     */
    public static CanonicalInvocationStore refusingBegin(CanonicalInvocationStore store, ErrorCode code) {
        requireNonNull(code, "code is null");
        return new Faulty(store, Option.of(code), Option.none(), Option.none());
    }

    /**
     * {@code complete} answers {@code code} and touches nothing; the rest is {@code store}.
     *
     * @param store the real store every other operation goes to
     * @param code the safe error code every {@code complete} answers with
     * @return a store whose {@code complete} always refuses with {@code code}
     * @throws NullPointerException if {@code code} is null
     */
    public static CanonicalInvocationStore refusingComplete(CanonicalInvocationStore store, ErrorCode code) {
        requireNonNull(code, "code is null");
        return new Faulty(store, Option.none(), Option.of(code), Option.none());
    }

    /**
     * {@code begin} throws an {@link IllegalStateException} with {@code message}, as a store with a bug
     * would; the rest is {@code store}.
     *
     * @param store the real store every other operation goes to
     * @param message the message of the exception every {@code begin} throws
     * @return a store whose {@code begin} always throws instead of answering
     * @throws NullPointerException if {@code message} is null
     */
    public static CanonicalInvocationStore crashingOnBegin(CanonicalInvocationStore store, String message) {
        requireNonNull(message, "message is null");
        return new Faulty(store, Option.none(), Option.none(), Option.of(message));
    }

    private static final class Faulty extends ForwardingStore {

        private final Option<ErrorCode> beginRefusal;
        private final Option<ErrorCode> completeRefusal;
        private final Option<String> beginCrash;

        private Faulty(CanonicalInvocationStore store, Option<ErrorCode> beginRefusal,
                Option<ErrorCode> completeRefusal, Option<String> beginCrash) {
            super(store);
            this.beginRefusal = beginRefusal;
            this.completeRefusal = completeRefusal;
            this.beginCrash = beginCrash;
        }

        @Override
        public Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
            if (beginCrash.isDefined()) {
                throw new IllegalStateException(beginCrash.get());
            }
            return beginRefusal.isDefined()
                    ? Either.left(BoundaryError.of(beginRefusal.get()))
                    : delegate().begin(start, timeout);
        }

        @Override
        public Either<BoundaryError, Outcome> complete(InvocationKey key, AttemptToken token, Outcome outcome,
                Duration timeout) {
            return completeRefusal.isDefined()
                    ? Either.left(BoundaryError.of(completeRefusal.get()))
                    : delegate().complete(key, token, outcome, timeout);
        }
    }
}
