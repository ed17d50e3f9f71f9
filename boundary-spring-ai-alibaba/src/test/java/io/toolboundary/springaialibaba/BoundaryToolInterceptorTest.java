package io.toolboundary.springaialibaba;

import static io.toolboundary.springaialibaba.RedisAgentFixture.agent;
import static io.toolboundary.springaialibaba.ScriptedAgentModel.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import io.toolboundary.application.RunContext;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.RunId;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.annotation.Tool;

/** What the interceptor passes to the boundary and gives back, with a real agent on the in-memory store. */
class BoundaryToolInterceptorTest {

    private final InMemoryAgents agents = new InMemoryAgents();
    private final OpsTools tools = new OpsTools();

    private ScriptedAgentModel calling(String id, String arguments) {
        return ScriptedAgentModel.turns(List.of(call(id, "log_query", arguments)));
    }

    @Test
    void givenNoToolCallId_whenTheModelCallsATool_thenTheModelGetsToolCallIdMissingAndNothingRuns() throws Exception {
        ScriptedAgentModel model = calling(null, "{\"service\":\"checkout\"}");

        agent(model, tools, BoundaryToolInterceptor.of(agents.boundary)).build().call("logs?", agents.config());

        assertThat(tools.logQueries).hasValue(0);
        assertThat(model.toolResponsesSeen()).singleElement()
                .satisfies(response -> assertThat(response.responseData()).startsWith("ERROR TOOL_CALL_ID_MISSING: "));
    }

    @Test
    void givenAConfigWithoutARun_whenTheModelCallsATool_thenRunNotOpenedAndNothingRuns() throws Exception {
        ScriptedAgentModel model = calling("call_1", "{\"service\":\"checkout\"}");

        agent(model, tools, BoundaryToolInterceptor.of(agents.boundary)).build()
                .call("logs?", RunnableConfig.builder().threadId("t-1").build());

        assertThat(tools.logQueries).hasValue(0);
        assertThat(model.responsesTo("call_1")).singleElement()
                .satisfies(text -> assertThat(text).startsWith("ERROR RUN_NOT_OPENED: "));
    }

    @Test
    void givenARunNeverOpenedPutInTheConfigByHand_whenTheModelCallsATool_thenRunNotOpenedAndNothingRuns() throws Exception {
        ScriptedAgentModel model = calling("call_1", "{\"service\":\"checkout\"}");
        RunContext notOpened = RunContext.active(new RunId("run-never-opened"), Instant.now().plusSeconds(60), 5);

        agent(model, tools, BoundaryToolInterceptor.of(agents.boundary)).build().call("logs?",
                RunnableConfig.builder().addMetadata(BoundaryRunnableConfig.RUN_CONTEXT_KEY, notOpened).build());

        assertThat(tools.logQueries).hasValue(0);
        assertThat(model.responsesTo("call_1").get(0)).startsWith("ERROR RUN_NOT_OPENED: ");
    }

    @Test
    void refusesToPutARunNeverOpenedIntoAConfig() {
        RunContext notOpened = RunContext.active(new RunId("run-never-opened"), Instant.now().plusSeconds(60), 5);

        assertThatIllegalArgumentException().isThrownBy(() -> BoundaryRunnableConfig.of(notOpened))
                .withMessageContaining("ToolBoundary.openRun");
    }

    @Test
    void givenArgumentsAsTheModelSentThem_whenRecorded_thenTheyAreKeptExactly() throws Exception {
        String arguments = "{ \"service\" : \"checkout\",\n  \"note\":\"caf\\u00e9\" }";

        agent(calling("call_1", arguments), tools, BoundaryToolInterceptor.of(agents.boundary)).build()
                .call("logs?", agents.config());

        assertThat(agents.record("call_1").arguments()).isEqualTo(arguments);
    }

    @Test
    void givenAToolMethodThatThrows_whenTheAgentsProcessorTurnsItIntoText_thenExecutionFailedWithTheTextKept()
            throws Exception {
        ScriptedAgentModel model = calling("call_1", "{\"service\":\"checkout\"}");
        tools.failingFirst(1);

        agent(model, tools, BoundaryToolInterceptor.of(agents.boundary)).build().call("logs?", agents.config());

        CanonicalRecord record = agents.record("call_1");
        assertThat(record.errorCode()).containsExactly(ErrorCode.EXECUTION_FAILED);
        assertThat(record.rawResponse().get()).contains("password=hunter2");
        assertThat(model.responsesTo("call_1")).containsExactly(
                "ERROR EXECUTION_FAILED: " + ErrorCode.EXECUTION_FAILED.safeMessage());
    }

    @Test
    void givenAHandlerThatAnswersAnError_whenRecorded_thenExecutionFailedWithItsTextKeptForTheHarnessOnly()
            throws Exception {
        ScriptedAgentModel model = calling("call_1", "{}");
        org.springframework.ai.tool.ToolCallback failing = org.springframework.ai.tool.function.FunctionToolCallback
                .builder("log_query", (java.util.function.Function<Map<String, Object>, String>) input -> {
                    throw new IllegalStateException("db-1 down password=hunter2");
                })
                .description("fails").inputType(Map.class).build();

        com.alibaba.cloud.ai.graph.agent.ReactAgent.builder().name("failing").model(model)
                .tools(new org.springframework.ai.tool.ToolCallback[] {new ThrowingCallback(failing)})
                .interceptors(BoundaryToolInterceptor.of(agents.boundary))
                .build().call("logs?", agents.config());

        CanonicalRecord record = agents.record("call_1");
        assertThat(record.errorCode()).containsExactly(ErrorCode.EXECUTION_FAILED);
        assertThat(record.rawResponse().get()).startsWith("Error: ").contains("hunter2");
        assertThat(model.everythingSeen()).doesNotContain("hunter2");
    }

    /** A callback that throws its delegate's failure as it is, so that the framework answers an error response. */
    private record ThrowingCallback(org.springframework.ai.tool.ToolCallback delegate)
            implements org.springframework.ai.tool.ToolCallback {
        @Override
        public org.springframework.ai.tool.definition.ToolDefinition getToolDefinition() {
            return delegate.getToolDefinition();
        }

        @Override
        public String call(String toolInput) {
            try {
                return delegate.call(toolInput);
            } catch (org.springframework.ai.tool.execution.ToolExecutionException wrapped) {
                throw (RuntimeException) wrapped.getCause();
            }
        }
    }

    /** Tools whose results are not text. */
    public static class Shapes {
        @Tool(name = "log_query", description = "counts")
        public Map<String, Integer> counts() {
            return Map.of("errors", 2);
        }
    }

    @Test
    void givenAToolReturningAnObject_whenRecorded_thenItIsJsonOnce() throws Exception {
        com.alibaba.cloud.ai.graph.agent.ReactAgent.builder().name("shapes").model(calling("call_1", "{}"))
                .tools(ReactAgentTools.from(new Shapes())).interceptors(BoundaryToolInterceptor.of(agents.boundary))
                .build().call("logs?", agents.config());

        assertThat(agents.record("call_1").rawResponse()).containsExactly("{\"errors\":2}");
    }

    @Test
    void refusesToolObjectsWithoutToolMethodsOrWithTwoToolsOfOneName() {
        assertThatIllegalArgumentException().isThrownBy(() -> ReactAgentTools.from(new Object()))
                .withMessageContaining("no public @Tool method");
        assertThatIllegalArgumentException().isThrownBy(() -> ReactAgentTools.from(new OpsTools(), new Shapes()))
                .withMessageContaining("two tools are named log_query");
    }

    @Test
    void givenTheBoundaryWithoutTheInterceptor_whenItRunsAHandlerBinding_thenExecutionFailed() {
        assertThat(agents.boundary.invoke(agents.run, io.toolboundary.application.ToolCallEnvelope.of(
                agents.run.runId().value(), "call_1", "log_query", "{}")).getLeft().code())
                .isEqualTo(ErrorCode.EXECUTION_FAILED);
    }
}
