package io.toolboundary.springai;

import static io.toolboundary.springai.ScriptedChatModel.call;
import static io.toolboundary.springai.ScriptedChatModel.requesting;
import static io.toolboundary.springai.ScriptedChatModel.saying;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.ToolResponseMessage.ToolResponse;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;

/**
 * {@code @Tool} methods offered through Spring AI's {@link MethodToolCallbackProvider}, as an application
 * writes them, with Spring AI's ChatClient, a scripted model and the Redis store on a real server: the
 * record holds the method's own output and a line-filtering projector keeps the credential from the model.
 */
class ToolMethodRawResponseTest {

    private static RedisDeployment redis;
    private static RedissonClient client;

    private final LogTools logTools = new LogTools();
    private final Map<String, ToolCallback> callbacks = Arrays.stream(
                    MethodToolCallbackProvider.builder().toolObjects(logTools).build().getToolCallbacks())
            .collect(Collectors.toMap(callback -> callback.getToolDefinition().name(), Function.identity()));
    private final RunContext run = Fixtures.anyRunContext();

    @BeforeAll
    static void connect() {
        redis = RedisServerFixture.standalone();
        Config config = new Config();
        config.useSingleServer().setAddress(redis.nodes().get(0).uri());
        client = Redisson.create(config);
    }

    @AfterAll
    static void disconnect() {
        client.shutdown();
    }

    private ToolBoundary boundary() {
        return ToolBoundary.builder()
                .store(RedisCanonicalInvocationStoreFactory.create(client,
                        RedisStoreOptions.custom().keyPrefix("raw-test").build()))
                .accessPolicy(AccessPolicy.allowOnly("log-search", "log-stats"))
                .tool(ToolCallbackBindings.readOnly(callbacks.get("log-search"), new ErrorLinesProjector()))
                .tool(ToolCallbackBindings.readOnly(callbacks.get("log-stats"), new ErrorLinesProjector()))
                .build();
    }

    @Test
    void aStringResultIsTheRawResponseByteForByteAndTheCredentialNeverReachesTheModel() {
        ToolBoundary boundary = boundary();
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_raw1", "log-search", "{\"query\":\"checkout\"}")), saying("Checkout timed out."));

        String answer = chat(model, boundary);

        assertThat(answer).isEqualTo("Checkout timed out.");
        CanonicalRecord record = boundary.find(run.runId(), new ToolCallId("call_raw1")).get().get();
        assertThat(record.rawResponse().get().getBytes(StandardCharsets.UTF_8))
                .isEqualTo(LogTools.LOG_OUTPUT.getBytes(StandardCharsets.UTF_8));
        assertThat(model.toolResponsesIn(1)).extracting(ToolResponse::responseData).containsExactly(
                "EVIDENCE_FOUND (scope: " + ErrorLinesProjector.SCOPE + ")\n"
                        + "2026-01-01T10:00:02Z ERROR checkout timed out after 3000 ms (\"payment\" \\ gateway)");
        assertThat(model.everythingSent()).doesNotContain("hunter2", "password", "alice");
        assertThat(redis.callLong("EXISTS", "raw-test:{" + run.runId().value() + "}:call:call_raw1")).isEqualTo(1);
        assertThat(logTools.calls()).isEqualTo(1);
    }

    @Test
    void anyOtherResultIsSerialisedOnceAsJson() {
        ToolBoundary boundary = boundary();
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_raw2", "log-stats", "{\"service\":\"checkout\"}")), saying("done"));

        chat(model, boundary);

        CanonicalRecord record = boundary.find(run.runId(), new ToolCallId("call_raw2")).get().get();
        assertThat(record.rawResponse().get()).isEqualTo("{\"ERROR\":1,\"INFO\":1}");
    }

    private String chat(ScriptedChatModel model, ToolBoundary boundary) {
        ChatClient client = ChatClient.builder(model)
                .defaultAdvisors(LineApi.toolCallingAdvisor(BoundaryToolCallingManager.of(boundary)))
                .build();
        return LineApi.tools(client.prompt().user("What failed in checkout?"), callbacks.values().toArray(ToolCallback[]::new))
                .toolContext(BoundaryToolContext.of(Fixtures.opened(boundary, run)))
                .call()
                .content();
    }
}
