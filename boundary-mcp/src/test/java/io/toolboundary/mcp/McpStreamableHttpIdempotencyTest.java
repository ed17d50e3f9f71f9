package io.toolboundary.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same key over the SDK's streamable HTTP transports: the SDK's servlet server transport in an embedded
 * Tomcat on a free local port (this JVM), its tool wrapped with {@link IdempotentMcpTools}, and the SDK's
 * {@link HttpClientStreamableHttpTransport} behind a transport that can lose a reply.
 */
class McpStreamableHttpIdempotencyTest {

    static final String TOOL = "ledger-post";

    static final AtomicInteger executions = new AtomicInteger();
    /** Each request's {@code _meta} as the server received it, before the wrapper. */
    static final List<Map<String, Object>> metas = new CopyOnWriteArrayList<>();

    /** Tomcat's own logging, kept quiet (held here so that the setting is not collected). */
    static final java.util.logging.Logger TOMCAT_LOG = java.util.logging.Logger.getLogger("org.apache");

    static Tomcat tomcat;
    static McpSyncServer server;
    static ReplyDroppingTransport transport;
    static McpSyncClient client;

    @BeforeAll
    static void start() throws Exception {
        TOMCAT_LOG.setLevel(java.util.logging.Level.SEVERE);
        SyncToolSpecification posting = SyncToolSpecification.builder()
                .tool(Tool.builder(TOOL, Map.of("type", "object")).build())
                .callHandler((exchange, request) -> CallToolResult.builder()
                        .addTextContent("posted " + request.arguments().get("amount") + " as execution "
                                + executions.incrementAndGet()).build())
                .build();
        SyncToolSpecification wrapped = IdempotentMcpTools.builder(InMemoryCanonicalInvocationStore.create())
                .config(ToolBoundaryConfig.custom().replayReadyDuplicates(true).build())
                .requireKey(true)
                .build(List.of(posting)).tools().get(0);
        SyncToolSpecification recorded = SyncToolSpecification.builder().tool(wrapped.tool())
                .callHandler((exchange, request) -> {
                    metas.add(request.meta() == null ? Map.of() : request.meta());
                    return wrapped.callHandler().apply(exchange, request);
                }).build();

        HttpServletStreamableServerTransportProvider provider = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(McpJsonDefaults.getMapper()).mcpEndpoint("/mcp").build();
        server = McpServer.sync(provider).serverInfo("tool-boundary-http-test-server", "1.0.0")
                .capabilities(ServerCapabilities.builder().tools(true).build()).tools(recorded).build();
        tomcat = new Tomcat();
        tomcat.setBaseDir(java.nio.file.Files.createTempDirectory("tomcat").toString());
        tomcat.setPort(0);
        Context context = tomcat.addContext("", null);
        org.apache.catalina.Wrapper servlet = Tomcat.addServlet(context, "mcp", provider);
        servlet.setAsyncSupported(true);
        servlet.addMapping("/*");
        tomcat.getConnector();
        tomcat.start();
        int port = tomcat.getConnector().getLocalPort();

        transport = new ReplyDroppingTransport(HttpClientStreamableHttpTransport.builder("http://localhost:" + port)
                .endpoint("/mcp").build());
        client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(5))
                .initializationTimeout(Duration.ofSeconds(30)).build();
        client.initialize();
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.closeGracefully();
        }
        if (server != null) {
            server.closeGracefully();
        }
        if (tomcat != null) {
            tomcat.stop();
            tomcat.destroy();
        }
    }

    @Test
    void aLostReplyIsSentAgainWithTheSameKeyAndTheToolRunsOnce() throws Exception {
        String runId = "run-" + UUID.randomUUID();
        ToolBinding binding = McpToolBindings.of(client).readOnly(TOOL)
                .withCallKeySecret(McpIdempotencyKeyTest.SECRET)
                .withTraceparent(() -> Optional.of(McpIdempotencyKeyTest.TRACEPARENT))
                .binding(TOOL, (request, raw) -> Projection.evidenceFound("posted"));
        ToolRequest request = new ToolRequest(InvocationKey.of(new RunId(runId), new ToolCallId("call_1")),
                new ToolName(TOOL), "{\"amount\":42}");
        int before = executions.get();
        int seenBefore = metas.size();

        transport.dropNextToolCallReplies(1);
        Throwable lost = null;
        try {
            binding.executor().execute(request);
        } catch (Exception timedOut) {
            lost = timedOut;
        }
        String retried = binding.executor().execute(request);

        assertThat(lost).as("the first reply was lost and the client timed out").isNotNull();
        assertThat(transport.dropped()).isEqualTo(1);
        assertThat(retried).isEqualTo("posted 42 as execution " + (before + 1));
        assertThat(executions).hasValue(before + 1);
        List<Map<String, Object>> seen = metas.subList(seenBefore, metas.size());
        assertThat(seen).hasSize(2);
        String key = McpIdempotencyKeyTest.expectedKey(McpIdempotencyKeyTest.SECRET, runId, "call_1");
        assertThat(seen).allSatisfy(meta -> assertThat(meta)
                .containsEntry(McpToolBindings.IDEMPOTENCY_KEY_META, key)
                .containsEntry(McpToolBindings.TRACEPARENT_META, McpIdempotencyKeyTest.TRACEPARENT));
        assertThat(key).doesNotContain(runId).doesNotContain("call_1");
    }

    @Test
    void anUnkeyedOrMalformedCallIsRefusedAndNeverRuns() {
        int before = executions.get();

        CallToolResult unkeyed = client.callTool(CallToolRequest.builder(TOOL).arguments(Map.of("amount", 1)).build());
        CallToolResult malformed = client.callTool(CallToolRequest.builder(TOOL).arguments(Map.of("amount", 1))
                .meta(Map.of(McpToolBindings.IDEMPOTENCY_KEY_META, "v1.not-a-key")).build());

        assertThat(unkeyed.isError()).isTrue();
        assertThat(((TextContent) unkeyed.content().get(0)).text()).startsWith("ERROR IDEMPOTENCY_KEY_MISSING:");
        assertThat(malformed.isError()).isTrue();
        assertThat(((TextContent) malformed.content().get(0)).text()).startsWith("ERROR IDEMPOTENCY_KEY_INVALID:");
        assertThat(executions).hasValue(before);
    }
}
