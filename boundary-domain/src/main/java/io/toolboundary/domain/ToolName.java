package io.toolboundary.domain;

import io.vavr.control.Either;

/**
 * The registered name of a tool.
 *
 * <p>Safe by construction: 1 to 128 characters of {@code [A-Za-z0-9_.:-]}. The value is kept
 * exactly as given; nothing ever generates, trims or substitutes one.
 *
 * @param value the identifier, exactly as supplied
 */
public record ToolName(String value) {

    /** The longest accepted value, in characters. */
    public static final int MAX_LENGTH = SafeId.MAX_LENGTH;

    /**
     * Builds a trusted value.
     *
     * @param value the identifier, exactly as supplied
     * @throws IllegalArgumentException when the value is not a safe identifier
     */
    public ToolName {
        SafeId.requireSafe(value, "value");
    }

    /**
     * Checks an untrusted value.
     *
     * @param value the text to check; {@code null} is read as missing
     * @return the identifier, or {@link ErrorCode#TOOL_NAME_INVALID} when missing or blank, {@link ErrorCode#TOOL_NAME_INVALID} when unsafe
     */
    public static Either<BoundaryError, ToolName> of(String value) {
        if (SafeId.isBlank(value)) {
            return Either.left(BoundaryError.of(ErrorCode.TOOL_NAME_INVALID));
        }
        return SafeId.isSafe(value)
                ? Either.right(new ToolName(value))
                : Either.left(BoundaryError.of(ErrorCode.TOOL_NAME_INVALID));
    }

    @Override
    public String toString() {
        return value;
    }
}
