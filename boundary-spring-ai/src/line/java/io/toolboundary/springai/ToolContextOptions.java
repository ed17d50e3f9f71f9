package io.toolboundary.springai;

import java.util.Map;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/** A request's options with another tool context, the rest unchanged: Spring AI 1.1 copies and sets. */
final class ToolContextOptions {

    private ToolContextOptions() {
    }

    /** {@return a copy of {@code options} whose tool context is {@code toolContext}} */
    static ChatOptions with(ToolCallingChatOptions options, Map<String, Object> toolContext) {
        ToolCallingChatOptions copy = options.copy();
        copy.setToolContext(toolContext);
        return copy;
    }
}
