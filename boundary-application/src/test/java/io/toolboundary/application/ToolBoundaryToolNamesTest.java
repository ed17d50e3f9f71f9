package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolName;
import org.junit.jupiter.api.Test;

class ToolBoundaryToolNamesTest {

    private final ToolBoundary boundary = ToolBoundary.builder()
            .store(ScriptedStore.confirming())
            .accessPolicy(AccessPolicy.allowAll())
            .tool(ToolBinding.readOnly("log-search", request -> "raw", (request, raw) -> Projection.evidenceFound("x")))
            .tool(ToolBinding.writable("orders-write", request -> "raw", (request, raw) -> Projection.evidenceFound("x")))
            .build();

    @Test
    void namesEveryRegisteredTool() {
        assertThat(boundary.toolNames()).containsExactlyInAnyOrder(new ToolName("log-search"), new ToolName("orders-write"));
    }

    @Test
    void cannotBeChangedThroughTheAnswer() {
        assertThatThrownBy(() -> boundary.toolNames().add(new ToolName("drop-database")))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
