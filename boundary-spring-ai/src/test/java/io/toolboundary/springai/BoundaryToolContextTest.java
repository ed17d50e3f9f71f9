package io.toolboundary.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.testkit.Fixtures;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BoundaryToolContextTest {

    private final ToolBoundary boundary = ToolBoundary.builder()
            .store(InMemoryCanonicalInvocationStore.create())
            .accessPolicy(AccessPolicy.allowAll())
            .build();

    @Test
    void carriesAnOpenedRunUnderItsKey() {
        RunContext run = boundary.openRun(Fixtures.anyRunContext()).get();

        Map<String, Object> toolContext = BoundaryToolContext.of(run);

        assertThat(toolContext).containsExactly(Map.entry(BoundaryToolContext.RUN_CONTEXT_KEY, run));
        assertThat(BoundaryToolContext.runContext(toolContext)).contains(run);
    }

    @Test
    void refusesARunThatWasNeverOpenedNamingOpenRun() {
        RunContext unopened = Fixtures.runContext("triage-unopened");

        assertThatIllegalArgumentException().isThrownBy(() -> BoundaryToolContext.of(unopened))
                .withMessageContaining("triage-unopened")
                .withMessageContaining("ToolBoundary.openRun");
    }

    @Test
    void findsNoRunWhereTheKeyHoldsSomethingElse() {
        assertThat(BoundaryToolContext.runContext(Map.of(BoundaryToolContext.RUN_CONTEXT_KEY, "triage-1"))).isEmpty();
        assertThat(BoundaryToolContext.runContext(Map.of())).isEmpty();
    }
}
