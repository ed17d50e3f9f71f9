package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Either;

/**
 * The one place that decides whether a stored record may be replaced by a final one. Stores apply
 * it inside their compare-and-set.
 */
public final class Lifecycle {

    private Lifecycle() {
    }

    /**
     * Decides a completion.
     *
     * @param current the record as stored now
     * @param next the final record a caller wants to store
     * @return {@code next} when {@code current} is PROJECTING and {@code next} completes that same
     *     invocation; {@code current} when it is already exactly {@code next} (a retry of the same
     *     transition); else {@link ErrorCode#RECORD_CONFLICT}
     */
    public static Either<BoundaryError, CanonicalRecord.Final> complete(CanonicalRecord current,
            CanonicalRecord.Final next) {
        requireNonNull(current, "current is null");
        requireNonNull(next, "next is null");
        if (current instanceof CanonicalRecord.Final done) {
            return done.equals(next)
                    ? Either.right(done)
                    : Either.left(BoundaryError.of(ErrorCode.RECORD_CONFLICT));
        }
        boolean sameInvocation = current.key().equals(next.key())
                && current.tool().equals(next.tool())
                && current.request().equals(next.request())
                && current.requestFingerprint().equals(next.requestFingerprint())
                && current.createdAt().equals(next.createdAt())
                && current.status().canMoveTo(next.status());
        return sameInvocation ? Either.right(next) : Either.left(BoundaryError.of(ErrorCode.RECORD_CONFLICT));
    }
}
