package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

/**
 * The canonical key of one invocation: the run and the framework's exact {@code tool_call_id}.
 * There is at most one canonical record per key.
 *
 * @param runId the run, from the harness's {@code RunContext}
 * @param toolCallId the framework's tool call id, exactly as supplied
 */
public record InvocationKey(RunId runId, ToolCallId toolCallId) {

    /**
     * Builds the key.
     *
     * @param runId the run
     * @param toolCallId the framework's tool call id, exactly as supplied
     */
    public InvocationKey {
        requireNonNull(runId, "runId is null");
        requireNonNull(toolCallId, "toolCallId is null");
    }

    /**
     * {@return the key of a tool call in a run}
     *
     * @param runId the run
     * @param toolCallId the framework's tool call id, exactly as supplied
     */
    public static InvocationKey of(RunId runId, ToolCallId toolCallId) {
        return new InvocationKey(runId, toolCallId);
    }

    @Override
    public String toString() {
        return runId.value() + "/" + toolCallId.value();
    }
}
