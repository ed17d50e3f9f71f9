package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolName;
import org.junit.jupiter.api.Test;

class AllowOnlyTest {

    private static final RunContext RUN = RunContext.active(new io.toolboundary.domain.RunId("run-1"),
            java.time.Instant.parse("2030-01-01T00:00:00Z"), 10).opened(TestRuns.TOKEN);

    private static ToolBoundaryBuilder withLogSearch(AccessPolicy policy) {
        return ToolBoundary.builder()
                .store(ScriptedStore.confirming())
                .accessPolicy(policy)
                .tool(ToolBinding.readOnly("log-search", request -> "raw", (request, raw) -> Projection.evidenceFound("x")));
    }

    @Test
    void refusesAtBuildANameTheBoundaryDoesNotRegister() {
        ToolBoundaryBuilder misspelt = withLogSearch(AccessPolicy.allowOnly("log-search", "log-serach", "rag-search"));

        assertThatThrownBy(misspelt::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[log-serach, rag-search]")
                .hasMessageNotContaining("log-search,");
    }

    @Test
    void buildsWhenEveryNameIsRegistered() {
        assertThat(withLogSearch(AccessPolicy.allowOnly("log-search")).build().toolNames())
                .containsExactly(new ToolName("log-search"));
    }

    @Test
    void grantsTheNamedToolsAndDeniesTheOthers() {
        AccessPolicy policy = AccessPolicy.allowOnly("log-search");

        assertThat(policy.allows(RUN, new ToolName("log-search"))).isTrue();
        assertThat(policy.allows(RUN, new ToolName("sql-query"))).isFalse();
    }

    @Test
    void allowAllGrantsEveryTool() {
        AccessPolicy policy = AccessPolicy.allowAll();

        assertThat(policy.allows(RUN, new ToolName("log-search"))).isTrue();
        assertThat(policy.allows(RUN, new ToolName("sql-query"))).isTrue();
    }

    @Test
    void aPolicyOfTheHarnessDecidesByRunAndTool() {
        AccessPolicy onlyRunOneSearches = (run, tool) -> run.runId().value().equals("run-1")
                && tool.value().equals("log-search");
        RunContext other = RunContext.active(new io.toolboundary.domain.RunId("run-2"),
                java.time.Instant.parse("2030-01-01T00:00:00Z"), 10).opened(TestRuns.TOKEN);

        assertThat(onlyRunOneSearches.allows(RUN, new ToolName("log-search"))).isTrue();
        assertThat(onlyRunOneSearches.allows(other, new ToolName("log-search"))).isFalse();
        assertThat(onlyRunOneSearches.allows(RUN, new ToolName("sql-query"))).isFalse();
    }

    @Test
    void aPolicyThatDeniesIsToldAsNotAuthorizedAndRunsNothing() {
        ScriptedStore store = ScriptedStore.confirming();
        ToolBoundary boundary = ToolBoundary.builder().store(store).accessPolicy((run, tool) -> false)
                .tool(ToolBinding.readOnly("log-search", request -> {
                    throw new AssertionError("a denied tool never runs");
                }, (request, raw) -> Projection.evidenceFound("x")))
                .build();

        assertThat(boundary.invoke(RUN, ToolCallEnvelope.of("run-1", "call-1", "log-search", "{}")).getLeft().code())
                .isEqualTo(io.toolboundary.domain.ErrorCode.TOOL_NOT_AUTHORIZED);
        assertThat(store.touched()).isFalse();
    }

    @Test
    void allowOnlyRefusesAnInvalidName() {
        assertThatThrownBy(() -> AccessPolicy.allowOnly("log search")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AccessPolicy.allowOnly((String[]) null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void leavesAPolicyOfTheHarnessUnchecked() {
        AccessPolicy own = (run, tool) -> false;

        assertThat(withLogSearch(own).build().toolNames()).hasSize(1);
    }
}
