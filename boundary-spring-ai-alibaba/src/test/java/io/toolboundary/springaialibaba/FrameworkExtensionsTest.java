package io.toolboundary.springaialibaba;

import static io.toolboundary.springaialibaba.RedisAgentFixture.agent;
import static io.toolboundary.springaialibaba.ScriptedAgentModel.call;
import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.cloud.ai.graph.agent.extension.file.LocalFilesystemBackend;
import com.alibaba.cloud.ai.graph.agent.extension.interceptor.LargeResultEvictionInterceptor;
import com.alibaba.cloud.ai.graph.agent.hook.toolcalllimit.ToolCallLimitHook;
import com.alibaba.cloud.ai.graph.agent.interceptor.toolretry.ToolRetryInterceptor;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationStatus;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.execution.DefaultToolExecutionExceptionProcessor;

/**
 * How the boundary combines with the agent framework's own extensions, each in the order the interceptor's
 * documentation gives (the first interceptor listed is the outermost), and in the other order where it
 * matters.
 */
class FrameworkExtensionsTest {

    private final InMemoryAgents agents = new InMemoryAgents();
    private final OpsTools tools = new OpsTools();
    private final ScriptedAgentModel model = ScriptedAgentModel.turns(
            List.of(call("call_x1", "log_query", "{\"service\":\"checkout\"}")));

    /** Where the eviction interceptor writes the results it evicts: this test's own directory. */
    @TempDir
    Path evicted;

    /** Evicts results over 80 characters (20 tokens by the framework's estimate) into {@link #evicted}. */
    private LargeResultEvictionInterceptor eviction() {
        return LargeResultEvictionInterceptor.builder().toolTokenLimitBeforeEvict(20)
                .backend(new LocalFilesystemBackend(evicted.toString(), true, 1)).build();
    }

    private static ToolRetryInterceptor retryOnce() {
        return ToolRetryInterceptor.builder().maxRetries(1).initialDelay(1).jitter(false).build();
    }

    @Test
    void givenToolRetryAfterTheBoundary_whenTheToolFailsOnce_thenTheRetryIsPartOfOneAttemptAndOneRecord() throws Exception {
        tools.failingFirst(1);
        agent(model, tools, BoundaryToolInterceptor.of(agents.boundary), retryOnce())
                .toolExecutionExceptionProcessor(DefaultToolExecutionExceptionProcessor.builder().alwaysThrow(true).build())
                .build()
                .call("Why did checkout fail?", agents.config());

        assertThat(tools.logQueries).as("executions: the failed one and its retry").hasValue(2);
        CanonicalRecord record = agents.record("call_x1");
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.rawResponse()).containsExactly(OpsTools.LOG_OUTPUT);
        assertThat(model.responsesTo("call_x1")).singleElement()
                .satisfies(text -> assertThat(text).startsWith("EVIDENCE_FOUND"));
    }

    @Test
    void givenToolRetryBeforeTheBoundary_whenTheToolFails_thenNothingIsRetriedAndTheFailureIsRecordedOnce() throws Exception {
        tools.failingFirst(1);
        agent(model, tools, retryOnce(), BoundaryToolInterceptor.of(agents.boundary)).build()
                .call("Why did checkout fail?", agents.config());

        assertThat(tools.logQueries).hasValue(1);
        assertThat(agents.record("call_x1").errorCode()).containsExactly(ErrorCode.EXECUTION_FAILED);
        assertThat(model.responsesTo("call_x1")).singleElement()
                .satisfies(text -> assertThat(text).startsWith("ERROR EXECUTION_FAILED: "));
        assertThat(model.everythingSeen()).doesNotContain("hunter2");
    }

    @Test
    void givenLargeResultEvictionBeforeTheBoundary_whenTheToolReturnsMuchText_thenTheModelSeesOnlyTheBoundedResult()
            throws Exception {
        agent(model, tools, eviction(),
                BoundaryToolInterceptor.of(agents.boundary)).build()
                .call("Why did checkout fail?", agents.config());

        assertThat(agents.record("call_x1").rawResponse()).containsExactly(OpsTools.LOG_OUTPUT);
        assertThat(model.everythingSeen()).doesNotContain("hunter2").doesNotContain("request accepted");
    }

    @Test
    void givenLargeResultEvictionAfterTheBoundary_whenItEvictsAResult_thenTheBoundaryRefusesItsNotice() throws Exception {
        agent(model, tools, BoundaryToolInterceptor.of(agents.boundary),
                eviction()).build()
                .call("Why did checkout fail?", agents.config());

        CanonicalRecord record = agents.record("call_x1");
        assertThat(record.errorCode()).containsExactly(ErrorCode.EXECUTION_FAILED);
        assertThat(model.responsesTo("call_x1")).singleElement()
                .satisfies(text -> assertThat(text).startsWith("ERROR EXECUTION_FAILED: "));
        assertThat(model.everythingSeen()).doesNotContain("hunter2").doesNotContain("request accepted");
    }

    @Test
    void givenLargeResultEvictionAlone_whenItEvicts_thenTheModelSeesTheFirstRawLines() throws Exception {
        agent(model, tools, eviction()).build()
                .call("Why did checkout fail?", agents.config());

        assertThat(model.everythingSeen()).contains("hunter2");
    }

    @Test
    void givenToolCallLimitHook_whenItsLimitIsReached_thenItEndsTheLoopCountingTheRequestedCallsTheBoundaryRefusedToo()
            throws Exception {
        ScriptedAgentModel repeating = ScriptedAgentModel.turns(
                List.of(call("call_x1", "log_query", "{\"service\":\"checkout\"}")),
                List.of(call("call_x1", "log_query", "{\"service\":\"checkout\"}")),
                List.of(call("call_x2", "log_query", "{\"service\":\"payments\"}")));
        agent(repeating, tools, BoundaryToolInterceptor.of(agents.boundary))
                .hooks(ToolCallLimitHook.builder().runLimit(2).build()).build()
                .call("Why did checkout fail?", agents.config());

        assertThat(repeating.responsesTo("call_x1")).as("the duplicate's answer never reached a model call").hasSize(1);
        assertThat(repeating.responsesTo("call_x2")).as("the hook ended the loop before the third turn").isEmpty();
        assertThat(repeating.toolResponsesSeen()).hasSize(1);
        assertThat(tools.logQueries).hasValue(1);
    }
}
