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

    public BoundaryError {
        requireNonNull(code, "code is null");
    }

    /** The error for a code. */
    public static BoundaryError of(ErrorCode code) {
        return new BoundaryError(code);
    }

    /** The fixed, safe message of the code. */
    public String message() {
        return code.safeMessage();
    }

    @Override
    public String toString() {
        return code + ": " + code.safeMessage();
    }
}
