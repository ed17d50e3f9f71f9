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

        assertThat(policy.decide(RUN, new ToolName("log-search"))).isEqualTo(AccessPolicy.Decision.GRANTED);
        assertThat(policy.decide(RUN, new ToolName("sql-query"))).isEqualTo(AccessPolicy.Decision.DENIED);
    }

    @Test
    void leavesAPolicyOfTheHarnessUnchecked() {
        AccessPolicy own = (run, tool) -> AccessPolicy.Decision.DENIED;

        assertThat(withLogSearch(own).build().toolNames()).hasSize(1);
    }
}
