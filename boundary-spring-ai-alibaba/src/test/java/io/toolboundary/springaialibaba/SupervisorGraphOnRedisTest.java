package io.toolboundary.springaialibaba;

import static io.toolboundary.springaialibaba.RedisAgentFixture.config;
import static io.toolboundary.springaialibaba.RedisAgentFixture.openedRun;
import static io.toolboundary.springaialibaba.ScriptedAgentModel.call;
import static org.assertj.core.api.Assertions.assertThat;

import com.alibaba.cloud.ai.graph.agent.AgentTool;
import com.alibaba.cloud.ai.graph.agent.Builder;
import com.alibaba.cloud.ai.graph.agent.ReactAgent;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolCallId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.ToolCallback;

/**
 * A supervisor agent whose tools are two {@code ReactAgent} sub-agents (the framework's supervisor pattern),
 * all sharing one run: each tool call of the supervisor and of each sub-agent goes through the boundary once,
 * under the one run the harness opened. Both sub-agents' models send the same tool_call_id, as a model
 * repeating an id across agents would.
 */
class SupervisorGraphOnRedisTest {

    private static RedisAgentFixture redis;

    private static final Projector SUB_AGENT_ANSWER = (request, raw) -> Projection.evidenceFound(
            Projector.firstLines(Projector.mask(raw), 2_048), "answer of " + request.tool().value());

    private final OpsTools tools = new OpsTools();
    private final ToolBoundary boundary = ToolBoundary.builder().store(redis.store)
            .accessPolicy(AccessPolicy.allowOnly("log_query", "log_agent", "rag_agent"))
            .tool(ReactAgentTools.readOnly("log_query", new ErrorLinesProjector()))
            .tool(ReactAgentTools.readOnly("log_agent", SUB_AGENT_ANSWER))
            .tool(ReactAgentTools.readOnly("rag_agent", SUB_AGENT_ANSWER))
            .build();
    private final RunContext run = openedRun(boundary, 50);
    private final ScriptedAgentModel supervisorModel = ScriptedAgentModel.turns(List.of(
            call("call_sup_1", "log_agent", "{\"input\":\"read the checkout logs\"}"),
            call("call_sup_2", "rag_agent", "{\"input\":\"find the runbook\"}")));
    private final ScriptedAgentModel logsModel = ScriptedAgentModel.turns(
            List.of(call("call_shared", "log_query", "{\"service\":\"checkout\"}"),
                    call("call_logs", "log_query", "{\"service\":\"payments\"}")));
    private final ScriptedAgentModel ragModel = ScriptedAgentModel.turns(
            List.of(call("call_shared", "log_query", "{\"service\":\"checkout\"}")));

    @BeforeAll
    static void startRedis() {
        redis = new RedisAgentFixture();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    private ReactAgent subAgent(String name, ScriptedAgentModel model, boolean withBoundary) {
        Builder builder = ReactAgent.builder().name(name).description("reads " + name).model(model)
                .tools(ReactAgentTools.from(tools));
        if (withBoundary) {
            builder.interceptors(BoundaryToolInterceptor.of(boundary));
        }
        return builder.build();
    }

    private ReactAgent supervisor(List<ToolCallback> subAgents, boolean withBoundary) {
        Builder builder = ReactAgent.builder().name("triage").model(supervisorModel).tools(subAgents);
        if (withBoundary) {
            builder.interceptors(BoundaryToolInterceptor.of(boundary));
        }
        return builder.build();
    }

    @Test
    void givenASupervisorWithTwoSubAgents_whenItRuns_thenEveryCallGoesThroughTheOneRunOnce() throws Exception {
        ReactAgent supervisor = supervisor(List.of(
                ReactAgentTools.subAgent(subAgent("log_agent", logsModel, true)),
                ReactAgentTools.subAgent(subAgent("rag_agent", ragModel, true))), true);

        supervisor.call("Why did checkout fail?", config(run));

        assertThat(tools.logQueries).as("call_shared once, call_logs once").hasValue(2);
        List<String> sharedAnswers = new ArrayList<>(logsModel.responsesTo("call_shared"));
        sharedAnswers.addAll(ragModel.responsesTo("call_shared"));
        assertThat(sharedAnswers).hasSize(2);
        assertThat(sharedAnswers.get(0)).startsWith("EVIDENCE_FOUND");
        assertThat(sharedAnswers.get(1)).startsWith("ERROR DUPLICATE_TOOL_CALL: ");
        for (String id : List.of("call_sup_1", "call_sup_2", "call_shared", "call_logs")) {
            assertThat(boundary.find(run.runId(), new ToolCallId(id)).get().get().status())
                    .as(id).isEqualTo(InvocationStatus.READY);
        }
        assertThat(supervisorModel.responsesTo("call_sup_1")).containsExactly(
                "EVIDENCE_FOUND (scope: answer of log_agent)\ndone");
        assertThat(logsModel.everythingSeen() + ragModel.everythingSeen() + supervisorModel.everythingSeen())
                .doesNotContain("hunter2");
    }

    @Test
    void givenNoInterceptor_whenTheSupervisorRuns_thenTheSharedIdRunsInBothSubAgents() throws Exception {
        ReactAgent supervisor = supervisor(List.of(
                ReactAgentTools.subAgent(subAgent("log_agent", logsModel, false)),
                ReactAgentTools.subAgent(subAgent("rag_agent", ragModel, false))), false);

        supervisor.call("Why did checkout fail?", config(run));

        assertThat(tools.logQueries).hasValue(3);
        assertThat(logsModel.everythingSeen()).contains("hunter2");
    }

    @Test
    void givenTheFrameworksAgentTool_whenTheSupervisorRuns_thenTheSubAgentsToolsFindNoRunAndRunNothing() throws Exception {
        ReactAgent supervisor = supervisor(List.of(
                AgentTool.getFunctionToolCallback(subAgent("log_agent", logsModel, true)),
                AgentTool.getFunctionToolCallback(subAgent("rag_agent", ragModel, true))), true);

        supervisor.call("Why did checkout fail?", config(run));

        assertThat(tools.logQueries).hasValue(0);
        assertThat(logsModel.responsesTo("call_shared")).singleElement()
                .satisfies(text -> assertThat(text).startsWith("ERROR RUN_NOT_OPENED: "));
    }
}
