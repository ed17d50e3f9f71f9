package io.toolboundary.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A real MCP server, built with the SDK's own server over stdio, run in a child JVM by
 * {@link McpToolBindingsTest}. It counts every call of every tool on its side; the test reads the
 * counts through the {@value #CALLS} tool, straight through the client, never through the boundary.
 */
public final class McpTestServer {

    static final String CALLS = "calls";
    static final String LOG_SEARCH = "log-search";
    static final String TWO_BLOCKS = "two-blocks";
    static final String EMPTY = "empty";
    static final String RESTART = "restart-service";
    static final String PURGE = "purge-logs";
    static final String FAILING = "failing";
    static final String METRICS = "metrics";
    static final String SCREENSHOT = "screenshot";
    static final String ECHO = "echo-arguments";

    /** Text with 1-, 2-, 3- and 4-byte characters, two lines, a trailing space and a trailing newline. */
    static final String LOG_TEXT = "RAW-ROW 10:03 checkout timeout → upstream ünïcödé 𝄞 \nRAW-ROW 10:07 checkout timeout\n";
    static final String SERVER_SECRET = "secret-dsn=postgres://admin:hunter2@10.0.0.9/prod";
    static final String STRUCTURED_JSON = "{\"service\":\"checkout\",\"p99_ms\":180,\"ratio\":0.25,\"breaches\":[],"
            + "\"window\":{\"from\":\"10:00\",\"to\":\"10:15\"},\"ok\":true,\"note\":null}";

    private static final Map<String, AtomicInteger> COUNTS = new ConcurrentHashMap<>();

    private McpTestServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        // Ends with the test JVM, whatever happens to the pipe.
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(0)));
        McpJsonMapper json = McpJsonDefaults.getMapper();
        Map<String, Object> anyObject = Map.of("type", "object");
        ToolAnnotations readOnly = ToolAnnotations.builder().readOnlyHint(true).build();

        List<SyncToolSpecification> tools = new ArrayList<>();
        tools.add(tool(Tool.builder(CALLS, anyObject).description("How often each tool was called")
                .annotations(readOnly).build(), (exchange, request) -> {
                    String name = String.valueOf(request.arguments().get("tool"));
                    AtomicInteger count = COUNTS.get(name);
                    return CallToolResult.builder().addTextContent(String.valueOf(count == null ? 0 : count.get())).build();
                }));
        tools.add(counted(Tool.builder(LOG_SEARCH, anyObject).description("Searches logs")
                .annotations(readOnly).build(), request -> CallToolResult.builder().addTextContent(LOG_TEXT).build()));
        tools.add(counted(Tool.builder(TWO_BLOCKS, anyObject).description("Two text blocks")
                .annotations(readOnly).build(),
                request -> CallToolResult.builder().addTextContent("first block").addTextContent("second block").build()));
        tools.add(counted(Tool.builder(EMPTY, anyObject).description("No content at all")
                .annotations(readOnly).build(), request -> CallToolResult.builder().content(List.of()).build()));
        tools.add(counted(Tool.builder(RESTART, anyObject).description("Restarts a service; declares no annotations")
                .build(),
                request -> CallToolResult.builder().addTextContent("restarted").build()));
        tools.add(counted(Tool.builder(PURGE, anyObject).description("Deletes logs; declares readOnlyHint false")
                .annotations(ToolAnnotations.builder().readOnlyHint(false).destructiveHint(true).build())
                .build(), request -> CallToolResult.builder().addTextContent("purged").build()));
        tools.add(counted(Tool.builder(FAILING, anyObject).description("Always reports an error")
                .annotations(readOnly).build(),
                request -> CallToolResult.builder().addTextContent("connection refused: " + SERVER_SECRET).isError(true).build()));
        tools.add(counted(Tool.builder(METRICS, anyObject).description("Structured metrics")
                .annotations(readOnly).build(), request -> {
                    Map<String, Object> window = new LinkedHashMap<>();
                    window.put("from", "10:00");
                    window.put("to", "10:15");
                    Map<String, Object> structured = new LinkedHashMap<>();
                    structured.put("service", "checkout");
                    structured.put("p99_ms", 180);
                    structured.put("ratio", 0.25);
                    structured.put("breaches", List.of());
                    structured.put("window", window);
                    structured.put("ok", true);
                    structured.put("note", null);
                    // As the MCP specification recommends, the same data also as text.
                    return CallToolResult.builder().addTextContent(STRUCTURED_JSON).structuredContent(structured).build();
                }));
        tools.add(counted(Tool.builder(SCREENSHOT, anyObject).description("An image")
                .annotations(readOnly).build(), request -> CallToolResult.builder()
                        .addContent(ImageContent.builder("iVBORw0KGgo=", "image/png").build()).build()));
        tools.add(counted(Tool.builder(ECHO, anyObject).description("Returns its arguments as the server read them")
                .annotations(readOnly).build(), request -> {
                    try {
                        return CallToolResult.builder().addTextContent(json.writeValueAsString(request.arguments())).build();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }));

        McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(json))
                .serverInfo("tool-boundary-test-server", "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(true).build())
                .tools(tools)
                .build();
        new CountDownLatch(1).await();
        server.close();
    }

    private static SyncToolSpecification counted(Tool tool, java.util.function.Function<CallToolRequest, CallToolResult> handler) {
        return tool(tool, (exchange, request) -> {
            COUNTS.computeIfAbsent(tool.name(), name -> new AtomicInteger()).incrementAndGet();
            return handler.apply(request);
        });
    }

    private static SyncToolSpecification tool(Tool tool,
            BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
        return SyncToolSpecification.builder().tool(tool).callHandler(handler).build();
    }
}
