package io.toolboundary.domain;

import io.vavr.control.Either;

/**
 * The agent framework's identifier of one tool call (its {@code tool_call_id}).
 * Safe by construction: 1 to 128 characters of {@code [A-Za-z0-9_.:-]}, kept exactly as given.
 *
 * @param value the identifier, exactly as supplied
 */
public record ToolCallId(String value) {

    /** The longest accepted value, in characters. */
    public static final int MAX_LENGTH = SafeIdentifier.MAX_LENGTH;

    /**
     * Builds a trusted value.
     *
     * @param value the identifier, exactly as supplied
     * @throws IllegalArgumentException when the value is not a safe identifier
     */
    public ToolCallId {
        SafeIdentifier.require(value, "tool_call_id");
    }

    /**
     * {@return the checked identifier, or {@link ErrorCode#TOOL_CALL_ID_MISSING} when missing or blank,
     * {@link ErrorCode#TOOL_CALL_ID_UNSAFE} when unsafe}
     *
     * @param value the text to check; {@code null} is read as missing
     */
    public static Either<BoundaryError, ToolCallId> of(String value) {
        return SafeIdentifier.check(value, ErrorCode.TOOL_CALL_ID_MISSING, ErrorCode.TOOL_CALL_ID_UNSAFE, ToolCallId::new);
    }

    @Override
    public String toString() {
        return value;
    }
}
