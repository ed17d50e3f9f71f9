package io.toolboundary.domain;

import io.vavr.control.Either;

/**
 * The registered name of a tool.
 * Safe by construction: 1 to 128 characters of {@code [A-Za-z0-9_.:-]}, kept exactly as given.
 *
 * @param value the identifier, exactly as supplied
 */
public record ToolName(String value) {

    /** The longest accepted value, in characters. */
    public static final int MAX_LENGTH = SafeIdentifier.MAX_LENGTH;

    /**
     * Builds a trusted value.
     *
     * @param value the identifier, exactly as supplied
     * @throws IllegalArgumentException when the value is not a safe identifier
     */
    public ToolName {
        SafeIdentifier.require(value, "tool name");
    }

    /**
     * {@return the checked identifier, or {@link ErrorCode#TOOL_NAME_INVALID} when missing, blank or unsafe}
     *
     * @param value the text to check; {@code null} is read as missing
     */
    public static Either<BoundaryError, ToolName> of(String value) {
        return SafeIdentifier.check(value, ErrorCode.TOOL_NAME_INVALID, ErrorCode.TOOL_NAME_INVALID, ToolName::new);
    }

    @Override
    public String toString() {
        return value;
    }
}
