package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

/**
 * An expected failure, safe to hand to an agent: an {@link ErrorCode} and its fixed message.
 *
 * <p>It holds nothing else, by construction: no cause, no payload, no key.
 *
 * @param code the stable error code
 */
public record BoundaryError(ErrorCode code) {

    /**
     * Builds the error of a code.
     *
     * @param code the stable error code
     */
    public BoundaryError {
        requireNonNull(code, "code is null");
    }

    /**
     * The error for a code.
     *
     * @param code the stable error code
     * @return the error carrying only that code
     */
    public static BoundaryError of(ErrorCode code) {
        return new BoundaryError(code);
    }

    /** {@return the fixed, safe message of the code} */
    public String message() {
        return code.safeMessage();
    }

    @Override
    public String toString() {
        return code + ": " + code.safeMessage();
    }
}
