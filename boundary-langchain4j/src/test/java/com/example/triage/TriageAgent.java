package com.example.triage;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.langchain4j.AnnotatedTools;
import io.toolboundary.langchain4j.LangChain4jToolBoundary;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

public class TriageAgent {

    interface Agent {
        String chat(String userMessage);
    }

    /** The tool: its output holds a credential that must never reach the model. */
    public static class LogTools {
        @Tool(name = "log-search", value = "Searches the checkout service logs")
        public String searchLogs(@P("what to look for") String query) {
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

    /** Stands in for a real model (replace it with any LangChain4j ChatModel): asks for one tool call, then answers. */
    static final ChatModel MODEL = new ChatModel() {
        @Override
        public ChatResponse doChat(ChatRequest request) {
            List<ChatMessage> messages = request.messages();
            if (messages.get(messages.size() - 1) instanceof ToolExecutionResultMessage tool) {
                System.out.println("The model saw:\n" + tool.text());
                return ChatResponse.builder().aiMessage(AiMessage.from("Checkout timed out.")).build();
            }
            return ChatResponse.builder().aiMessage(AiMessage.from(ToolExecutionRequest.builder()
                    .id("call_1").name("log-search").arguments("{\"query\":\"checkout\"}").build())).build();
        }
    };

    public static void main(String[] args) {
        String redisUrl = args.length > 0 ? args[0] : "redis://127.0.0.1:6379";
        AnnotatedTools annotated = AnnotatedTools.from(new LogTools());     // each tool declared once
        try (RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(
                redisUrl, RedisStoreOptions.ofDefaults())) {
            ToolBoundary boundary = ToolBoundary.builder()
                    .store(store)
                    .accessPolicy(AccessPolicy.allowOnly("log-search"))
                    .tool(annotated.readOnly("log-search", ERROR_LINES))
                    .build();
            RunContext run = boundary.openRun(RunContext.active(new RunId("triage-" + System.currentTimeMillis()),
                    Instant.now().plusSeconds(300), 20))               // once per run: the store now holds it
                    .getOrElseThrow(error -> new IllegalStateException(error.message()));
            Agent agent = LangChain4jToolBoundary.of(boundary, () -> run, annotated.specifications())
                    .applyTo(AiServices.builder(Agent.class).chatModel(MODEL))
                    .build();

            System.out.println("Answer: " + agent.chat("What failed in checkout?"));
            CanonicalRecord record = boundary.find(run.runId(), new ToolCallId("call_1")).get().get();
            System.out.println("Record " + record.status() + "; raw response, for the harness only:\n"
                    + record.rawResponse().get());
        }
    }
}
