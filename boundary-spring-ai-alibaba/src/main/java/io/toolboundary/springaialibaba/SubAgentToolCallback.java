package io.toolboundary.springaialibaba;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.agent.AgentTool;
import com.alibaba.cloud.ai.graph.agent.ReactAgent;
import com.alibaba.cloud.ai.graph.exception.GraphRunnerException;
import io.toolboundary.application.RunContext;
import java.util.Map;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.metadata.ToolMetadata;
import org.springframework.ai.util.json.JsonParser;

/**
 * A sub-agent offered to a supervisor as a tool, as {@link AgentTool} offers it, that passes the
 * {@link RunContext} of the supervisor's call into the sub-agent's config, so the sub-agent's tool calls go
 * through the boundary under the same run.
 */
final class SubAgentToolCallback implements ToolCallback {

    private final ReactAgent agent;
    private final ToolDefinition definition;

    SubAgentToolCallback(ReactAgent agent) {
        this.agent = agent;
        this.definition = AgentTool.create(agent).getToolDefinition();
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    @Override
    public ToolMetadata getToolMetadata() {
        return ToolMetadata.builder().build();
    }

    @Override
    public String call(String toolInput) {
        return call(toolInput, null);
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        Map<String, Object> context = toolContext == null ? Map.of() : toolContext.getContext();
        RunnableConfig.Builder config = RunnableConfig.builder();
        Object run = context.get(BoundaryRunnableConfig.RUN_CONTEXT_KEY);
        if (run instanceof RunContext opened && opened.runToken().isDefined()) {
            BoundaryRunnableConfig.with(config, opened);
        }
        try {
            AssistantMessage answer = agent.call(input(toolInput), config.build());
            return answer.getText() == null ? "" : answer.getText();
        } catch (GraphRunnerException | RuntimeException failure) {
            throw new ToolExecutionException(definition, failure);
        }
    }

    /** The {@code input} member of the arguments, as {@link AgentTool} wraps the sub-agent's input. */
    private static String input(String toolInput) {
        try {
            Object input = JsonParser.fromJson(toolInput, Map.class).get("input");
            return input instanceof String text ? text : JsonParser.toJson(input);
        } catch (RuntimeException notWrapped) {
            return toolInput;
        }
    }
}
