package com.example.triage;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.springai.BoundaryToolContext;
import io.toolboundary.springai.ToolCallbackBindings;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class TriageApp {

    public static void main(String[] args) {
        new SpringApplicationBuilder(TriageApp.class).web(WebApplicationType.NONE).run(args).close();  // ends when triaged
    }

    /** The tool: its output holds a credential that must never reach the model. */
    static class LogTools {
        @Tool(name = "log-search", description = "Searches the checkout service logs")
        String searchLogs(String query) {
            return "10:00:01 INFO  login ok user=alice password=hunter2\n"
                    + "10:00:02 ERROR checkout timed out after 3000 ms\n";
        }
    }

    /** What the model may see: the ERROR lines, nothing else. */
    static final Projector ERROR_LINES = (request, raw) -> {
        String errors = raw.lines().filter(line -> line.contains("ERROR")).collect(Collectors.joining("\n"));
        return errors.isEmpty() ? Projection.noEvidence("no ERROR line", "checkout logs")
                : Projection.evidenceFound(errors, "checkout logs");
    };

    @Bean                                                 // the store's Redis: the application's own client
    RedissonClient redisson(@Value("${redis.url:redis://127.0.0.1:6379}") String url) {
        Config config = new Config();
        config.useSingleServer().setAddress(url);
        return Redisson.create(config);
    }

    @Bean
    AccessPolicy accessPolicy() {                         // required: the application does not start without it
        return AccessPolicy.allowOnly("log-search");
    }

    @Bean
    MethodToolCallbackProvider logTools() {
        return MethodToolCallbackProvider.builder().toolObjects(new LogTools()).build();
    }

    @Bean
    ToolBinding logSearch(MethodToolCallbackProvider logTools) {
        return ToolCallbackBindings.readOnly(logTools.getToolCallbacks()[0], ERROR_LINES);
    }

    /** Stands in for a real model (replace it with a Spring AI model starter): asks for one tool call, then answers. */
    @Bean
    ChatModel chatModel() {
        return new ChatModel() {
            @Override
            public ChatResponse call(Prompt prompt) {
                if (prompt.getInstructions().get(prompt.getInstructions().size() - 1) instanceof ToolResponseMessage tool) {
                    System.out.println("The model saw:\n" + tool.getResponses().get(0).responseData());
                    return new ChatResponse(List.of(new Generation(new AssistantMessage("Checkout timed out."))));
                }
                return new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("").toolCalls(List.of(
                        new AssistantMessage.ToolCall("call_1", "function", "log-search", "{\"query\":\"checkout\"}")))
                        .build())));
            }

            public ChatOptions getOptions() {                // Spring AI 2.0 takes the chat's options from here
                return ToolCallingChatOptions.builder().build();
            }
        };
    }

    @Bean
    CommandLineRunner triage(ChatModel chatModel, ToolCallingManager manager, MethodToolCallbackProvider logTools,
            ToolBoundary boundary) {
        return args -> {
            RunContext run = boundary.openRun(RunContext.active(new RunId("triage-" + System.currentTimeMillis()),
                    Instant.now().plusSeconds(300), 20))              // once per run: the store now holds it
                    .getOrElseThrow(error -> new IllegalStateException(error.message()));
            String answer = ChatClient.builder(chatModel)
                    .defaultAdvisors(ToolCallingAdvisor.builder().toolCallingManager(manager).build())
                    .build()
                    .prompt().user("What failed in checkout?")
                    .tools(logTools)
                    .toolContext(BoundaryToolContext.of(run))
                    .call().content();
            System.out.println("Answer: " + answer);
            CanonicalRecord record = boundary.find(run.runId(), new ToolCallId("call_1")).get().get();
            System.out.println("Record " + record.status() + "; raw response, for the harness only:\n"
                    + record.rawResponse().get());
        };
    }
}
