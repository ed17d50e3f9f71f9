package io.toolboundary.springaialibaba;

import static io.toolboundary.springaialibaba.RedisAgentFixture.agent;
import static io.toolboundary.springaialibaba.RedisAgentFixture.config;
import static io.toolboundary.springaialibaba.RedisAgentFixture.openedRun;
import static io.toolboundary.springaialibaba.ScriptedAgentModel.call;
import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.cloud.ai.graph.agent.ReactAgent;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.ToolCallId;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real {@code ReactAgent} with a scripted model and real {@code @Tool} methods, its tool calls through the
 * boundary on a real Redis; each case beside the same agent without the interceptor, to show what it adds.
 */
class ReactAgentOnRedisTest {

    private static RedisAgentFixture redis;

    private final OpsTools tools = new OpsTools();
    private final ToolBoundary boundary = redis.boundary();
    private final RunContext run = openedRun(boundary, 50);

    @BeforeAll
    static void startRedis() {
        redis = new RedisAgentFixture();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    /** The model asks for the logs, then asks again with the same tool_call_id (a replayed turn). */
    private static ScriptedAgentModel repeatingModel() {
        return ScriptedAgentModel.turns(
                List.of(call("call_logs_1", "log_query", "{\"service\":\"checkout\"}")),
                List.of(call("call_logs_1", "log_query", "{\"service\":\"checkout\"}")));
    }

    @Test
    void givenARepeatedToolCallId_whenTheAgentRuns_thenTheToolRunsOnceAndTheModelGetsTheDuplicateLine() throws Exception {
        ScriptedAgentModel model = repeatingModel();
        ReactAgent agent = agent(model, tools, BoundaryToolInterceptor.of(boundary)).build();

        agent.call("Why did checkout fail?", config(run));

        assertThat(tools.logQueries).hasValue(1);
        assertThat(model.responsesTo("call_logs_1")).hasSize(2);
        assertThat(model.responsesTo("call_logs_1").get(0))
                .isEqualTo("EVIDENCE_FOUND (scope: logs of log_query)\n"
                        + "2030-01-01T10:00:02Z ERROR checkout: connect db-1 failed password=[masked]\n"
                        + "2030-01-01T10:00:03Z ERROR checkout: timeout after 30000 ms");
        assertThat(model.responsesTo("call_logs_1").get(1)).startsWith("ERROR DUPLICATE_TOOL_CALL: ");
    }

    @Test
    void givenNoInterceptor_whenTheSameIdIsRepeated_thenTheToolRunsTwiceAndTheModelSeesTheCredential() throws Exception {
        ScriptedAgentModel model = repeatingModel();
        ReactAgent bare = agent(model, tools).build();

        bare.call("Why did checkout fail?", config(run));

        assertThat(tools.logQueries).hasValue(2);
        assertThat(model.everythingSeen()).contains("hunter2");
        assertThat(redis.redis.callLong("EXISTS", redis.recordKey(run, "call_logs_1"))).isZero();
    }

    @Test
    void givenAToolOutputWithACredential_whenTheAgentRuns_thenNoCredentialReachesTheModel() throws Exception {
        ScriptedAgentModel model = repeatingModel();
        ReactAgent agent = agent(model, tools, BoundaryToolInterceptor.of(boundary)).build();

        agent.call("Why did checkout fail?", config(run));

        assertThat(model.everythingSeen()).contains("connect db-1 failed").doesNotContain("hunter2");
    }

    @Test
    void givenAToolCall_whenTheAgentRuns_thenRedisHoldsTheRecordUnderTheExactIdWithTheToolsOwnOutput() throws Exception {
        ReactAgent agent = agent(repeatingModel(), tools, BoundaryToolInterceptor.of(boundary)).build();

        agent.call("Why did checkout fail?", config(run));

        assertThat(redis.redis.callLong("EXISTS", redis.recordKey(run, "call_logs_1"))).isEqualTo(1);
        CanonicalRecord record = boundary.find(run.runId(), new ToolCallId("call_logs_1")).get().get();
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.key().toolCallId().value()).isEqualTo("call_logs_1");
        assertThat(record.rawResponse()).containsExactly(OpsTools.LOG_OUTPUT);
        assertThat(record.arguments()).isEqualTo("{\"service\":\"checkout\"}");
    }
}
