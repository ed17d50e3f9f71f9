package io.toolboundary.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.ToolBoundaryConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real MCP server over stdio, in a child JVM of {@link McpIdempotencyKeyTest}, whose writing tools are wrapped
 * with {@link IdempotentMcpTools}. It counts each tool's executions inside the tool, and records the idempotency
 * key of every {@code tools/call} it receives, before the wrapper; the test reads both through unwrapped tools.
 */
public final class McpIdempotentTestServer {

    /** Wrapped: a missing key runs as unwrapped, a repeat replays the recorded result. */
    static final String LEDGER = "ledger-post";
    /** Wrapped: a missing key is refused, a repeat is an error. */
    static final String STRICT = "strict-post";
    /** Unwrapped: answers the request's {@code _meta} as JSON. */
    static final String META = "meta-echo";
    /** Unwrapped: how often a tool ran, by the tool's own count. */
    static final String RUNS = "runs";
    /** Unwrapped: the keys each request to a tool carried, one per line ({@code -} for none). */
    static final String KEYS = "keys";

    private static final Map<String, AtomicInteger> RUN_COUNTS = new ConcurrentHashMap<>();
    private static final Map<String, List<String>> SEEN_KEYS = new ConcurrentHashMap<>();

    private McpIdempotentTestServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(0)));
        McpJsonMapper json = McpJsonDefaults.getMapper();
        Map<String, Object> anyObject = Map.of("type", "object");

        IdempotentMcpTools replaying = IdempotentMcpTools.builder(InMemoryCanonicalInvocationStore.create())
                .runId("ledger-server")
                .config(ToolBoundaryConfig.custom().replayReadyDuplicates(true).build())
                .build(List.of(posting(Tool.builder(LEDGER, anyObject).description("Posts an amount").build())));
        IdempotentMcpTools strict = IdempotentMcpTools.builder(InMemoryCanonicalInvocationStore.create())
                .requireKey(true)
                .build(List.of(posting(Tool.builder(STRICT, anyObject).description("Posts, keyed calls only").build())));

        List<SyncToolSpecification> tools = new ArrayList<>();
        replaying.tools().forEach(tool -> tools.add(keysRecorded(tool)));
        strict.tools().forEach(tool -> tools.add(keysRecorded(tool)));
        tools.add(SyncToolSpecification.builder().tool(Tool.builder(META, anyObject).build())
                .callHandler((exchange, request) -> {
                    try {
                        return CallToolResult.builder()
                                .addTextContent(json.writeValueAsString(request.meta() == null ? Map.of() : request.meta()))
                                .build();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }).build());
        tools.add(SyncToolSpecification.builder().tool(Tool.builder(RUNS, anyObject).build())
                .callHandler((exchange, request) -> {
                    AtomicInteger count = RUN_COUNTS.get(String.valueOf(request.arguments().get("tool")));
                    return CallToolResult.builder().addTextContent(String.valueOf(count == null ? 0 : count.get())).build();
                }).build());
        tools.add(SyncToolSpecification.builder().tool(Tool.builder(KEYS, anyObject).build())
                .callHandler((exchange, request) -> CallToolResult.builder().addTextContent(String.join("\n",
                        SEEN_KEYS.getOrDefault(String.valueOf(request.arguments().get("tool")), List.of()))).build())
                .build());

        McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(json))
                .serverInfo("tool-boundary-idempotent-test-server", "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(tools)
                .build();
        new CountDownLatch(1).await();
        server.close();
    }

    /** A tool that counts its executions and answers the amount with the execution's number. */
    private static SyncToolSpecification posting(Tool tool) {
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            int execution = RUN_COUNTS.computeIfAbsent(tool.name(), name -> new AtomicInteger()).incrementAndGet();
            return CallToolResult.builder()
                    .addTextContent("posted " + request.arguments().get("amount") + " as execution " + execution)
                    .build();
        }).build();
    }

    /** Records the key each request carries, before the wrapper sees it. */
    private static SyncToolSpecification keysRecorded(SyncToolSpecification wrapped) {
        return SyncToolSpecification.builder().tool(wrapped.tool()).callHandler((exchange, request) -> {
            Object key = request.meta() == null ? null : request.meta().get(McpToolBindings.IDEMPOTENCY_KEY_META);
            SEEN_KEYS.computeIfAbsent(wrapped.tool().name(), name -> new CopyOnWriteArrayList<>())
                    .add(key == null ? "-" : String.valueOf(key));
            return wrapped.callHandler().apply(exchange, request);
        }).build();
    }
}
