package io.toolboundary.springai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A Spring AI tool that answers a raw response full of data the model must never see, and remembers each
 * input and tool context it was called with.
 */
final class LogSearchCallback implements ToolCallback {

    static final String NAME = "log-search";
    static final String RAW_MARKER = "RAW-ONLY-7f3a";

    private final List<String> inputs = new CopyOnWriteArrayList<>();
    private final List<ToolContext> contexts = new CopyOnWriteArrayList<>();

    @Override
    public ToolDefinition getToolDefinition() {
        return ToolDefinition.builder()
                .name(NAME)
                .description("Searches the service logs")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"}}}")
                .build();
    }

    @Override
    public String call(String toolInput) {
        return call(toolInput, null);
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        inputs.add(toolInput);
        contexts.add(toolContext);
        return "{\"hits\":[\"" + RAW_MARKER + " api_key=sk-live-123 for " + toolInput.replace("\"", "'") + "\"]}";
    }

    List<String> inputs() {
        return List.copyOf(inputs);
    }

    List<ToolContext> contexts() {
        return List.copyOf(contexts);
    }
}
