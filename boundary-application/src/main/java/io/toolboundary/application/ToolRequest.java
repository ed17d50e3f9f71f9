package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolName;

/**
 * A call that passed preflight and has its PROJECTING record: what executors and projectors see.
 *
 * @param key the canonical key (run id and exact tool_call_id)
 * @param tool the tool
 * @param arguments the arguments, one valid JSON object, exactly as supplied
 */
public record ToolRequest(InvocationKey key, ToolName tool, String arguments) {

    /**
     * Builds a request.
     *
     * @param key the canonical key (run id and exact tool_call_id)
     * @param tool the tool
     * @param arguments the arguments, one valid JSON object, exactly as supplied
     */
    public ToolRequest {
        requireNonNull(key, "key is null");
        requireNonNull(tool, "tool is null");
        requireNonNull(arguments, "arguments is null");
    }
}
