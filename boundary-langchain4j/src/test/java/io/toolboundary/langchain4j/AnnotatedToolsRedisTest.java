package io.toolboundary.langchain4j;

import static io.toolboundary.langchain4j.ScriptedChatModel.answers;
import static io.toolboundary.langchain4j.ScriptedChatModel.callsTools;
import static io.toolboundary.langchain4j.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Option;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * {@code @Tool} methods declared once, a LangChain4j {@link AiServices} agent driven by a scripted model,
 * and the Redis store on a real redis-server that the test starts.
 */
class AnnotatedToolsRedisTest {

    interface Agent {
        String chat(String userMessage);
    }

    static final String LOG_OUTPUT = "2026-01-01T10:00:01Z INFO  login ok user=alice password=hunter2\n"
            + "2026-01-01T10:00:02Z ERROR checkout timed out after 3000 ms (\"payment\" \\ gateway)\n"
            + "2026-01-01T10:00:03Z DEBUG cache größe=12\n";
    static final String SCOPE = "service logs, lines with ERROR";

    /** Tools as an application writes them. */
    public static class LogTools {
        final AtomicInteger calls = new AtomicInteger();

        @Tool(name = "log-search", value = "Searches the service logs")
        public String searchLogs(@P("what to look for") String query) {
            calls.incrementAndGet();
            return LOG_OUTPUT;
        }

        @Tool(name = "log-stats", value = "Counts log lines by level")
        public Map<String, Integer> stats(@P("the service") String service) {
            calls.incrementAndGet();
            return Map.of("ERROR", 1);
        }

        @Tool(name = "log-export", value = "Exports the logs")
        public String export(@P("the service") String service) {
            calls.incrementAndGet();
            throw new IllegalStateException("export to s3://bucket failed, key=AKIA-SECRET");
        }
    }

    static final Projector ERROR_LINES = (request, raw) -> {
        String errors = raw.lines().filter(line -> line.contains("ERROR")).collect(Collectors.joining("\n"));
        return errors.isEmpty() ? Projection.noEvidence("no ERROR line", SCOPE) : Projection.evidenceFound(errors, SCOPE);
    };

    private static RedisDeployment redis;
    private static RedissonClient client;

    private final LogTools logTools = new LogTools();
    private final AnnotatedTools annotated = AnnotatedTools.from(logTools);
    private final ToolBoundary boundary = ToolBoundary.builder()
            .store(RedisCanonicalInvocationStoreFactory.create(client, RedisStoreOptions.custom().keyPrefix("lc4j-test").build()))
            .accessPolicy(AccessPolicy.allowOnly("log-search", "log-stats", "log-export"))
            .tool(annotated.readOnly("log-search", ERROR_LINES))
            .tool(annotated.readOnly("log-stats", (request, raw) -> Projection.evidenceFound(raw, "log stats")))
            .tool(annotated.readOnly("log-export", ERROR_LINES))
            .build();
    private final RunContext run = Fixtures.opened(boundary, Fixtures.anyRunContext());

    @BeforeAll
    static void connect() {
        redis = RedisServerFixture.standalone();
        Config config = new Config();
        config.useSingleServer().setAddress(redis.nodes().get(0).uri());
        redis.nodes().get(0).password().forEach(password -> config.useSingleServer().setPassword(password));
        client = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        client.shutdown();
    }

    private Agent agent(ScriptedChatModel model) {
        return LangChain4jToolBoundary.of(boundary, () -> run, annotated.specifications())
                .applyTo(AiServices.builder(Agent.class).chatModel(model)).build();
    }

    private CanonicalRecord recordOf(String toolCallId) {
        return boundary.find(run.runId(), new ToolCallId(toolCallId)).get().get();
    }

    @Test
    void describesEachToolFromItsAnnotation() {
        assertThat(annotated.specifications()).extracting(ToolSpecification::name)
                .containsExactlyInAnyOrder("log-search", "log-stats", "log-export");
    }

    @Test
    void aStringResultIsTheRawResponseByteForByteInRedisAndTheCredentialNeverReachesTheModel() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_lc1", "log-search", "{\"query\":\"checkout\"}")), answers("Checkout timed out."));

        String reply = agent(model).chat("What failed in checkout?");

        assertThat(reply).isEqualTo("Checkout timed out.");
        assertThat(recordOf("call_lc1").rawResponse().get().getBytes(StandardCharsets.UTF_8))
                .isEqualTo(LOG_OUTPUT.getBytes(StandardCharsets.UTF_8));
        assertThat(redis.callLong("EXISTS", "lc4j-test:{" + run.runId().value() + "}:call:call_lc1")).isEqualTo(1);
        assertThat(model.toolResultsSeen()).extracting(ToolExecutionResultMessage::text).containsExactly(
                "EVIDENCE_FOUND (scope: " + SCOPE + ")\n"
                        + "2026-01-01T10:00:02Z ERROR checkout timed out after 3000 ms (\"payment\" \\ gateway)");
        assertThat(model.messagesSeen()).allSatisfy(message -> assertThat(message.toString())
                .doesNotContain("hunter2").doesNotContain("alice"));
        assertThat(logTools.calls).hasValue(1);
    }

    @Test
    void anyOtherResultIsSerialisedOnce() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_lc2", "log-stats", "{\"service\":\"checkout\"}")), answers("done"));

        agent(model).chat("Stats?");

        assertThat(recordOf("call_lc2").rawResponse().get()).isEqualTo("{\"ERROR\":1}");
    }

    @Test
    void aThrowingToolIsAnExecutionFailureAndItsMessageNeverReachesTheModel() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_lc3", "log-export", "{\"service\":\"checkout\"}")), answers("Export failed."));

        agent(model).chat("Export");

        assertThat(recordOf("call_lc3").errorCode()).isEqualTo(Option.of(ErrorCode.EXECUTION_FAILED));
        assertThat(model.toolResultsSeen()).extracting(ToolExecutionResultMessage::text)
                .containsExactly("ERROR EXECUTION_FAILED: " + ErrorCode.EXECUTION_FAILED.safeMessage());
        assertThat(model.messagesSeen()).allSatisfy(message -> assertThat(message.toString())
                .doesNotContain("AKIA").doesNotContain("s3://"));
    }

    @Test
    void refusesToBindAToolNoMethodDeclares() {
        assertThatIllegalArgumentException().isThrownBy(() -> annotated.readOnly("log-delete", ERROR_LINES))
                .withMessageContaining("log-delete");
    }

    @Test
    void refusesAnObjectWithoutToolMethods() {
        assertThatIllegalArgumentException().isThrownBy(() -> AnnotatedTools.from(new Object()))
                .withMessageContaining("no @Tool method");
    }

    @Test
    void refusesSpecificationsThatDoNotMatchTheBoundarysTools() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LangChain4jToolBoundary.of(boundary, () -> run, List.of(annotated.specifications().get(0))))
                .withMessageContaining("registered with the boundary but without a specification");
    }
}
