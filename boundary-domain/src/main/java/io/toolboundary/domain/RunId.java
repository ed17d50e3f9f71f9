package io.toolboundary.domain;

import io.vavr.control.Either;

/**
 * The harness's identifier of one agent run.
 * Safe by construction: 1 to 128 characters of {@code [A-Za-z0-9_.:-]}, kept exactly as given.
 *
 * @param value the identifier, exactly as supplied
 */
public record RunId(String value) {

    /** The longest accepted value, in characters. */
    public static final int MAX_LENGTH = SafeIdentifier.MAX_LENGTH;

    /**
     * Builds a trusted value.
     *
     * @param value the identifier, exactly as supplied
     * @throws IllegalArgumentException when the value is not a safe identifier
     */
    public RunId {
        SafeIdentifier.require(value, "run id");
    }

    /**
     * {@return the checked identifier, or {@link ErrorCode#RUN_ID_INVALID} when missing, blank or unsafe}
     *
     * @param value the text to check; {@code null} is read as missing
     */
    public static Either<BoundaryError, RunId> of(String value) {
        return SafeIdentifier.check(value, ErrorCode.RUN_ID_INVALID, ErrorCode.RUN_ID_INVALID, RunId::new);
    }

    @Override
    public String toString() {
        return value;
    }
}
