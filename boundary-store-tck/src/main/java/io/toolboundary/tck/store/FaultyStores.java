package io.toolboundary.tck.store;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.vavr.control.Either;
import java.time.Duration;

/**
 * A real store with one failure switched in, standing for the failures a remote store maps to safe codes (or, for a
 * crash, fails to map). Every other operation goes to the real store, so what the boundary does next is real.
 */
public final class FaultyStores {

    private FaultyStores() {
    }

    /** {@code begin} answers {@code failure} and touches nothing; the rest is {@code store}. */
    public static CanonicalInvocationStore refusingBegin(CanonicalInvocationStore store, StoreFailure failure) {
        requireNonNull(failure, "failure is null");
        return new ForwardingStore(store) {
            @Override
            public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
                return Either.left(failure);
            }
        };
    }

    /** {@code complete} answers {@code failure} and touches nothing; the rest is {@code store}. */
    public static CanonicalInvocationStore refusingComplete(CanonicalInvocationStore store, StoreFailure failure) {
        requireNonNull(failure, "failure is null");
        return new ForwardingStore(store) {
            @Override
            public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token,
                    CanonicalRecord.Final record, Duration timeout) {
                return Either.left(failure);
            }
        };
    }

    /** {@code begin} throws an {@link IllegalStateException} with {@code message}, as a store with a bug would. */
    public static CanonicalInvocationStore crashingOnBegin(CanonicalInvocationStore store, String message) {
        requireNonNull(message, "message is null");
        return new ForwardingStore(store) {
            @Override
            public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
                throw new IllegalStateException(message);
            }
        };
    }
}
