package io.toolboundary.springai.app;

import io.toolboundary.application.ToolBinding;
import io.toolboundary.springai.ErrorLinesProjector;
import io.toolboundary.springai.LineApi;
import io.toolboundary.springai.LogTools;
import io.toolboundary.springai.ToolCallbackBindings;
import java.util.List;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application as a user writes it: {@code @Tool} methods, their bindings, a chat model (here
 * scripted) and a ChatClient on the context's tool calling manager, the same on both Spring lines (through
 * {@link LineApi}). {@link TriageApplicationWithPolicy} adds the access policy.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class TriageApplication {

    @Bean
    LogTools logTools() {
        return new LogTools();
    }

    @Bean
    ToolCallbackProvider logToolCallbacks(LogTools logTools) {
        return MethodToolCallbackProvider.builder().toolObjects(logTools).build();
    }

    @Bean
    ToolBinding logSearch(ToolCallbackProvider logToolCallbacks) {
        return ToolCallbackBindings.readOnly(callback(logToolCallbacks, "log-search"), new ErrorLinesProjector());
    }

    @Bean
    ChatModel chatModel() {
        return new SpringScriptedChatModel();
    }

    @Bean
    ChatClient chatClient(ChatModel chatModel, ToolCallingManager toolCallingManager,
            ToolCallbackProvider logToolCallbacks) {
        return LineApi.defaultTools(ChatClient.builder(chatModel), logToolCallbacks)
                .defaultAdvisors(LineApi.toolCallingAdvisor(toolCallingManager))
                .build();
    }

    private static ToolCallback callback(ToolCallbackProvider provider, String name) {
        return List.of(provider.getToolCallbacks()).stream()
                .filter(callback -> callback.getToolDefinition().name().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
