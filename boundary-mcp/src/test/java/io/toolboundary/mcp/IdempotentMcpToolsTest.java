package io.toolboundary.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.ToolCallId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The server-side wrapper's own promises: what its records keep, and what it refuses when built. */
class IdempotentMcpToolsTest {

    static final String KEY = "v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

    @Test
    void theServersRecordKeepsTheToolsOwnResultAndTheClientGetsItBack() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        SyncToolSpecification tool = SyncToolSpecification.builder()
                .tool(Tool.builder("post", Map.of("type", "object")).build())
                .callHandler((exchange, request) -> CallToolResult.builder()
                        .addTextContent("posted " + request.arguments().get("amount") + " #" + runs.incrementAndGet())
                        .structuredContent(Map.of("amount", request.arguments().get("amount"))).build())
                .build();
        IdempotentMcpTools tools = IdempotentMcpTools.builder(InMemoryCanonicalInvocationStore.create()).build(List.of(tool));
        CallToolRequest request = CallToolRequest.builder("post").arguments(Map.of("amount", 5))
                .meta(Map.of(McpToolBindings.IDEMPOTENCY_KEY_META, KEY)).build();

        CallToolResult result = tools.tools().get(0).callHandler().apply(null, request);

        assertThat(((TextContent) result.content().get(0)).text()).isEqualTo("posted 5 #1");
        assertThat(result.structuredContent()).isEqualTo(Map.of("amount", 5));
        CanonicalRecord record = tools.boundary().find(tools.runId(), new ToolCallId(KEY)).get().get();
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(McpJsonDefaults.getMapper().readValue(record.rawResponse().get(), CallToolResult.class)).isEqualTo(result);
        assertThat(record.arguments()).isEqualTo("{\"amount\":5}");
        assertThat(tools.runId().value()).isEqualTo(IdempotentMcpTools.DEFAULT_RUN_ID);
        assertThat(runs).hasValue(1);
    }

    @Test
    void refusesNamesTheBoundaryCannotTakeAndUnsafeRunIds() {
        SyncToolSpecification slashed = SyncToolSpecification.builder()
                .tool(Tool.builder("files/read", Map.of("type", "object")).build())
                .callHandler((exchange, request) -> CallToolResult.builder().build()).build();

        assertThatIllegalArgumentException().isThrownBy(() -> IdempotentMcpTools.builder(InMemoryCanonicalInvocationStore.create())
                .build(List.of(slashed)));
        assertThatIllegalArgumentException().isThrownBy(() -> IdempotentMcpTools.builder(InMemoryCanonicalInvocationStore.create())
                .runId("mcp server"));
    }
}
