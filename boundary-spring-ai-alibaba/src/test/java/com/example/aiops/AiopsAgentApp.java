package com.example.aiops;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.agent.ReactAgent;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.springaialibaba.BoundaryRunnableConfig;
import io.toolboundary.springaialibaba.BoundaryToolInterceptor;
import io.toolboundary.springaialibaba.ReactAgentTools;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;

@SpringBootApplication
public class AiopsAgentApp {

    public static void main(String[] args) {
        // the agent framework keeps threads of its own: exit once the runner is done
        System.exit(SpringApplication.exit(new SpringApplicationBuilder(AiopsAgentApp.class)
                .web(WebApplicationType.NONE).run(args)));
    }

    /** The agent's tools, as the teams wrote them: plain @Tool methods returning their own output. */
    public static class OpsTools {
        @Tool(name = "log_query", description = "Searches a service's logs")
        public String logQuery(String service) {
            return "10:00:01 INFO  " + service + " login ok user=alice password=hunter2\n"
                    + "10:00:02 ERROR " + service + " timed out after 3000 ms calling payments\n";
        }

        @Tool(name = "mysql_rows", description = "Reads rows of the orders table (mysql --batch)")
        public String mysqlRows(String status) {
            return "id\tcustomer\tstatus\n42\talice\t" + status + "\n43\tbob\t" + status + "\n";
        }

        @Tool(name = "rag_search", description = "Searches the runbooks")
        public String ragSearch(String query) {
            return "[runbook/payments.md#timeouts] Raise the payments client timeout; restart only as a last resort.\n";
        }
    }

    @Bean                                                 // the store's Redis: the application's own client
    RedissonClient redisson(@Value("${redis.url:redis://127.0.0.1:6379}") String url) {
        Config config = new Config();
        config.useSingleServer().setAddress(url);
        return Redisson.create(config);
    }

    @Bean
    AccessPolicy accessPolicy() {                        // required: the application does not start without it
        return AccessPolicy.allowOnly("log_query", "mysql_rows", "rag_search");
    }

    @Bean
    ToolBinding logQuery() {                              // what the model may see: the ERROR lines, masked
        return ReactAgentTools.readOnly("log_query", (request, raw) -> {
            String errors = raw.lines().filter(line -> line.contains(" ERROR ")).collect(Collectors.joining("\n"));
            return errors.isEmpty() ? Projection.noEvidence("no ERROR line", "service logs")
                    : Projection.evidenceFound(Projector.mask(errors), "service logs");
        }).withCallBudgetPerRun(10);
    }

    @Bean
    ToolBinding mysqlRows() {                             // a count and the first rows
        return ReactAgentTools.readOnly("mysql_rows", (request, raw) -> {
            long rows = raw.lines().skip(1).filter(line -> !line.isBlank()).count();
            return rows == 0 ? Projection.noEvidence("0 rows", "orders table")
                    : Projection.evidenceFound(rows + " rows:\n" + Projector.firstLines(raw, 1_024), "orders table");
        });
    }

    @Bean
    ToolBinding ragSearch() {                             // the passages, cut to 2 KiB
        return ReactAgentTools.readOnly("rag_search", (request, raw) ->
                Projection.evidenceFound(Projector.cut(raw.strip(), 2_048), "runbooks"));
    }

    /** Stands in for a real model (DashScope, OpenAI...): asks for the three tools at once, then answers. */
    @Bean
    ChatModel chatModel() {
        return new ChatModel() {
            @Override
            public ChatResponse call(Prompt prompt) {
                if (prompt.getInstructions().get(prompt.getInstructions().size() - 1) instanceof ToolResponseMessage tools) {
                    tools.getResponses().forEach(r -> System.out.println("The model saw (" + r.id() + "):\n" + r.responseData()));
                    return new ChatResponse(List.of(new Generation(new AssistantMessage("Payments timed out."))));
                }
                return new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("").toolCalls(List.of(
                        new AssistantMessage.ToolCall("call_1", "function", "log_query", "{\"service\":\"checkout\"}"),
                        new AssistantMessage.ToolCall("call_2", "function", "mysql_rows", "{\"status\":\"FAILED\"}"),
                        new AssistantMessage.ToolCall("call_3", "function", "rag_search", "{\"query\":\"timeout\"}")))
                        .build())));
            }
        };
    }

    @Bean
    ReactAgent aiopsAgent(ChatModel chatModel, BoundaryToolInterceptor boundaryInterceptor) {
        return ReactAgent.builder().name("aiops").model(chatModel)
                .tools(ReactAgentTools.from(new OpsTools()))  // not .methodTools(...): keeps each String as returned
                .interceptors(boundaryInterceptor)           // the one line: every tool call through the boundary
                .parallelToolExecution(true)
                .build();
    }

    @Bean
    CommandLineRunner triage(ReactAgent aiopsAgent, ToolBoundary boundary) {
        return args -> {
            RunContext run = boundary.openRun(RunContext.active(new RunId("aiops-" + System.currentTimeMillis()),
                    Instant.now().plusSeconds(300), 20))         // once per run: the store now holds it
                    .getOrElseThrow(error -> new IllegalStateException(error.message()));
            RunnableConfig config = BoundaryRunnableConfig.with(RunnableConfig.builder().threadId("incident-7"), run).build();
            System.out.println("Answer: " + aiopsAgent.call("Why did checkout fail?", config).getText());
            System.out.println("Raw response of call_1, for the harness only:\n"
                    + boundary.find(run.runId(), new ToolCallId("call_1")).get().get().rawResponse().get());
        };
    }
}
