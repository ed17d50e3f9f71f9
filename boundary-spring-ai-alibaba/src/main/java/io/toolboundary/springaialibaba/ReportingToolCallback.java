package io.toolboundary.springaialibaba;

import com.alibaba.cloud.ai.graph.agent.tool.StateAwareToolCallback;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * A tool callback that tells the call the boundary is running whether its tool threw, and otherwise is the
 * callback it wraps. State-aware, so that the agent gives it the same tool context as Spring AI's own
 * method callbacks (the agent's state and config).
 */
final class ReportingToolCallback implements StateAwareToolCallback {

    private final ToolCallback tool;

    ReportingToolCallback(ToolCallback tool) {
        this.tool = tool;
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return tool.getToolDefinition();
    }

    @Override
    public ToolMetadata getToolMetadata() {
        return tool.getToolMetadata();
    }

    @Override
    public String call(String toolInput) {
        return tool.call(toolInput);
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        Object carried = toolContext == null ? null : toolContext.getContext().get(HandlerCall.TOOL_CONTEXT_KEY);
        HandlerCall call = carried instanceof HandlerCall found ? found : null;
        try {
            String result = tool.call(toolInput, toolContext);
            if (call != null) {
                call.toolEnded(false);
            }
            return result;
        } catch (RuntimeException failure) {
            if (call != null) {
                call.toolEnded(true);
            }
            throw failure;
        }
    }

    @Override
    public String toString() {
        return tool.toString();
    }
}
