package io.toolboundary.application;

/**
 * A tool call as the agent framework produced it. Untrusted: every field is checked by the
 * boundary before anything runs.
 *
 * <p>A {@code null} field is read as missing (and so rejected), never replaced.
 *
 * @param runId the run the call claims to belong to
 * @param toolCallId the framework's {@code tool_call_id}
 * @param toolName the tool the agent asked for
 * @param arguments the arguments, expected to be exactly one JSON object
 */
public record ToolCallEnvelope(String runId, String toolCallId, String toolName, String arguments) {

    /**
     * Builds an envelope; {@code null} fields become empty, which the boundary rejects as missing.
     *
     * @param runId the run the call claims to belong to
     * @param toolCallId the framework's {@code tool_call_id}
     * @param toolName the tool the agent asked for
     * @param arguments the arguments, expected to be exactly one JSON object
     */
    public ToolCallEnvelope {
        runId = runId == null ? "" : runId;
        toolCallId = toolCallId == null ? "" : toolCallId;
        toolName = toolName == null ? "" : toolName;
        arguments = arguments == null ? "" : arguments;
    }

    /**
     * {@return an envelope, unchecked; {@code null} fields are read as missing}
     *
     * @param runId the run the call claims to belong to
     * @param toolCallId the framework's {@code tool_call_id}
     * @param toolName the tool the agent asked for
     * @param arguments the arguments, expected to be exactly one JSON object
     */
    public static ToolCallEnvelope of(String runId, String toolCallId, String toolName, String arguments) {
        return new ToolCallEnvelope(runId, toolCallId, toolName, arguments);
    }
}
