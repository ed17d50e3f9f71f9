package io.toolboundary.springaialibaba;

import static io.toolboundary.springaialibaba.RedisAgentFixture.agent;
import static io.toolboundary.springaialibaba.RedisAgentFixture.config;
import static io.toolboundary.springaialibaba.RedisAgentFixture.openedRun;
import static io.toolboundary.springaialibaba.ScriptedAgentModel.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.agent.ReactAgent;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallHandler;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallRequest;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallResponse;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolInterceptor;
import com.alibaba.cloud.ai.graph.checkpoint.savers.MemorySaver;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.ToolCallId;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;

/**
 * The ways an agent runs its turns, on a real Redis: parallel tool calls of one turn, {@code stream(...)},
 * and a graph resumed from a checkpoint after a crash; each beside the same agent without the interceptor.
 */
class ReactAgentTurnsOnRedisTest {

    private static RedisAgentFixture redis;

    private final OpsTools tools = new OpsTools();
    private final List<CanonicalRecord.Ready> replayed = new CopyOnWriteArrayList<>();
    private final ToolBoundary replaying = redis.boundary(
            ToolBoundaryConfig.custom().replayReadyDuplicates(true).build(),
            new BoundaryListener() {
                @Override
                public void onReplayed(CanonicalRecord.Ready record) {
                    replayed.add(record);
                }
            });
    private final RunContext run = openedRun(replaying, 50);

    @BeforeAll
    static void startRedis() {
        redis = new RedisAgentFixture();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    private static List<AssistantMessage.ToolCall> fourCalls() {
        return IntStream.rangeClosed(1, 4)
                .mapToObj(i -> call("call_p" + i, "log_query", "{\"service\":\"svc-" + i + "\"}")).toList();
    }

    /** Four calls in one turn, run in parallel, then the same four ids again in the next turn. */
    private ReactAgent parallelAgent(ScriptedAgentModel model, boolean withBoundary) {
        tools.together(4);
        return (withBoundary ? agent(model, tools, BoundaryToolInterceptor.of(redis.boundary())) : agent(model, tools))
                .parallelToolExecution(true).maxParallelTools(4).build();
    }

    @Test
    void givenFourParallelCallsOfOneTurn_whenTheAgentRuns_thenEachRunsOnceAndIsRecorded() throws Exception {
        ScriptedAgentModel model = ScriptedAgentModel.turns(fourCalls(), fourCalls());
        ToolBoundary boundary = redis.boundary();
        RunContext parallelRun = openedRun(boundary, 50);
        tools.together(4);
        ReactAgent agent = agent(model, tools, BoundaryToolInterceptor.of(boundary))
                .parallelToolExecution(true).maxParallelTools(4).build();

        agent.call("Check four services", config(parallelRun));

        assertThat(tools.logQueries).as("executions: four calls ran together, once each").hasValue(4);
        for (int i = 1; i <= 4; i++) {
            String id = "call_p" + i;
            assertThat(boundary.find(parallelRun.runId(), new ToolCallId(id)).get().get().status())
                    .isEqualTo(InvocationStatus.READY);
            assertThat(model.responsesTo(id)).hasSize(2);
            assertThat(model.responsesTo(id).get(0)).startsWith("EVIDENCE_FOUND");
            assertThat(model.responsesTo(id).get(1)).startsWith("ERROR DUPLICATE_TOOL_CALL: ");
        }
    }

    @Test
    void givenNoInterceptor_whenFourParallelCallsAreRepeated_thenEachRunsTwice() throws Exception {
        ReactAgent bare = parallelAgent(ScriptedAgentModel.turns(fourCalls(), fourCalls()), false);

        bare.call("Check four services", config(run));

        assertThat(tools.logQueries).hasValue(8);
    }

    @Test
    void givenStream_whenTheSameIdIsRepeated_thenTheToolRunsOnceAndTheModelGetsTheDuplicateLineWithoutTheCredential()
            throws Exception {
        ScriptedAgentModel model = ScriptedAgentModel.turns(
                List.of(call("call_s1", "log_query", "{\"service\":\"checkout\"}")),
                List.of(call("call_s1", "log_query", "{\"service\":\"checkout\"}")));
        ToolBoundary boundary = redis.boundary();
        RunContext streamed = openedRun(boundary, 50);
        ReactAgent agent = agent(model, tools, BoundaryToolInterceptor.of(boundary)).build();

        agent.stream("Why did checkout fail?", config(streamed)).blockLast();

        assertThat(tools.logQueries).hasValue(1);
        assertThat(model.responsesTo("call_s1").get(0)).startsWith("EVIDENCE_FOUND");
        assertThat(model.responsesTo("call_s1").get(1)).startsWith("ERROR DUPLICATE_TOOL_CALL: ");
        assertThat(model.everythingSeen()).doesNotContain("hunter2");
        assertThat(boundary.find(streamed.runId(), new ToolCallId("call_s1")).get().get().rawResponse())
                .containsExactly(OpsTools.LOG_OUTPUT);
    }

    @Test
    void givenNoInterceptor_whenStreamed_thenTheToolRunsTwiceAndTheModelSeesTheCredential() throws Exception {
        ScriptedAgentModel model = ScriptedAgentModel.turns(
                List.of(call("call_s1", "log_query", "{\"service\":\"checkout\"}")),
                List.of(call("call_s1", "log_query", "{\"service\":\"checkout\"}")));

        agent(model, tools).build().stream("Why did checkout fail?", config(run)).blockLast();

        assertThat(tools.logQueries).hasValue(2);
        assertThat(model.everythingSeen()).contains("hunter2");
    }

    /** Lets the first tool call through, then fails the tool node as a crash would, after the tool ran. */
    private static final class CrashAfterFirstCall extends ToolInterceptor {
        private final AtomicBoolean crashed = new AtomicBoolean();

        @Override
        public ToolCallResponse interceptToolCall(ToolCallRequest request, ToolCallHandler handler) {
            ToolCallResponse response = handler.call(request);
            if (crashed.compareAndSet(false, true)) {
                throw new IllegalStateException("the process died after the tool ran");
            }
            return response;
        }

        @Override
        public String getName() {
            return "crash";
        }
    }

    private record Resumed(ScriptedAgentModel model, String threadId) {
    }

    /** Runs the agent until the crash, then resumes its graph from the checkpoint with the same thread id. */
    private Resumed crashAndResume(ToolBoundary boundary, RunContext resumedRun, boolean withBoundary, boolean streamed)
            throws Exception {
        ScriptedAgentModel model = ScriptedAgentModel.turns(
                List.of(call("call_r1", "log_query", "{\"service\":\"checkout\"}")));
        CrashAfterFirstCall crash = new CrashAfterFirstCall();
        ReactAgent agent = (withBoundary
                ? agent(model, tools, crash, BoundaryToolInterceptor.of(boundary))
                : agent(model, tools, crash))
                .saver(new MemorySaver()).build();
        String threadId = UUID.randomUUID().toString();
        RunnableConfig first = BoundaryRunnableConfig.with(RunnableConfig.builder().threadId(threadId), resumedRun).build();
        assertThatThrownBy(() -> agent.call("Why did checkout fail?", first)).as("the crash").isNotNull();
        assertThat(tools.logQueries).as("the tool ran before the crash").hasValue(1);

        RunnableConfig resume = BoundaryRunnableConfig.with(RunnableConfig.builder().threadId(threadId).resume(),
                resumedRun).build();
        if (streamed) {
            agent.stream(Map.of(), resume).blockLast();
        } else {
            agent.invoke(Map.of(), resume);
        }
        return new Resumed(model, threadId);
    }

    @Test
    void givenTheReplayPolicy_whenAGraphResumesFromACheckpoint_thenTheModelGetsTheRecordedAnswerAndNothingRuns()
            throws Exception {
        Resumed resumed = crashAndResume(replaying, run, true, false);

        assertThat(tools.logQueries).as("executions").hasValue(1);
        assertThat(resumed.model().responsesTo("call_r1")).hasSize(1);
        assertThat(resumed.model().responsesTo("call_r1").get(0)).startsWith("EVIDENCE_FOUND (scope: logs of log_query)\n");
        assertThat(replayed).hasSize(1);
        assertThat(replayed.get(0).key().toolCallId().value()).isEqualTo("call_r1");
    }

    @Test
    void givenTheReplayPolicy_whenAGraphResumesThroughStream_thenTheModelGetsTheRecordedAnswerAndNothingRuns()
            throws Exception {
        Resumed resumed = crashAndResume(replaying, run, true, true);

        assertThat(tools.logQueries).hasValue(1);
        assertThat(resumed.model().responsesTo("call_r1")).singleElement()
                .satisfies(text -> assertThat(text).startsWith("EVIDENCE_FOUND"));
        assertThat(replayed).hasSize(1);
    }

    @Test
    void givenTheDefaultPolicy_whenAGraphResumes_thenTheModelGetsTheDuplicateLineAndNothingRuns() throws Exception {
        ToolBoundary refusing = redis.boundary();
        Resumed resumed = crashAndResume(refusing, openedRun(refusing, 50), true, false);

        assertThat(tools.logQueries).hasValue(1);
        assertThat(resumed.model().responsesTo("call_r1")).singleElement()
                .satisfies(text -> assertThat(text).startsWith("ERROR DUPLICATE_TOOL_CALL: "));
    }

    @Test
    void givenNoInterceptor_whenAGraphResumes_thenTheToolRunsAgain() throws Exception {
        crashAndResume(replaying, run, false, false);

        assertThat(tools.logQueries).hasValue(2);
    }
}
