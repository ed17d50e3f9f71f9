package io.toolboundary.mcp;

import static io.toolboundary.mcp.McpIdempotentTestServer.KEYS;
import static io.toolboundary.mcp.McpIdempotentTestServer.LEDGER;
import static io.toolboundary.mcp.McpIdempotentTestServer.META;
import static io.toolboundary.mcp.McpIdempotentTestServer.RUNS;
import static io.toolboundary.mcp.McpIdempotentTestServer.STRICT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The call's key carried to an MCP server, end to end over stdio: a real SDK client (through a transport that
 * can lose replies) and a real SDK server in a child JVM whose writing tools are wrapped with
 * {@link IdempotentMcpTools}. Executions are counted inside the tools, keys as the server received them.
 */
class McpIdempotencyKeyTest {

    static final byte[] SECRET = "0123456789abcdef0123456789abcdef-deployment-A".getBytes(StandardCharsets.UTF_8);
    static final byte[] OTHER_SECRET = "fedcba9876543210fedcba9876543210-deployment-B".getBytes(StandardCharsets.UTF_8);
    static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    static final Projector SHOWN = (request, raw) -> Projection.evidenceFound("posted");

    static ReplyDroppingTransport transport;
    static McpSyncClient client;

    final String runId = "run-" + UUID.randomUUID();

    @BeforeAll
    static void startServer() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerParameters server = ServerParameters.builder(java)
                .args("-Xmx128m", "-cp", System.getProperty("java.class.path"), McpIdempotentTestServer.class.getName())
                .build();
        transport = new ReplyDroppingTransport(new StdioClientTransport(server, McpJsonDefaults.getMapper()));
        // Also the initialize request's timeout, so long enough for a child JVM to start on a busy machine;
        // the lost reply's test waits it out once.
        client = McpClient.sync(transport)
                .requestTimeout(Duration.ofSeconds(10))
                .initializationTimeout(Duration.ofSeconds(60))
                .build();
        client.initialize();
    }

    @AfterAll
    static void stopServer() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }

    static int runs(String tool) {
        return Integer.parseInt(text(client.callTool(CallToolRequest.builder(RUNS).arguments(Map.of("tool", tool)).build())));
    }

    static List<String> keysSeen(String tool) {
        String seen = text(client.callTool(CallToolRequest.builder(KEYS).arguments(Map.of("tool", tool)).build()));
        return seen.isEmpty() ? List.of() : Arrays.asList(seen.split("\n"));
    }

    /** The key as the documentation defines it, computed here independently of the module. */
    static String expectedKey(byte[] secret, String runId, String toolCallId) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        byte[] digest = mac.doFinal((runId + "\n" + toolCallId).getBytes(StandardCharsets.UTF_8));
        return "v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }

    ToolRequest request(String toolCallId, String tool, String arguments) {
        return new ToolRequest(InvocationKey.of(new RunId(runId), new ToolCallId(toolCallId)), new ToolName(tool), arguments);
    }

    /** The {@code _meta} the server received for one call made through a binding of {@code tools}. */
    Map<String, Object> metaSent(McpToolBindings tools, String toolCallId) throws Exception {
        String raw = tools.readOnly(META).binding(META, SHOWN).executor().execute(request(toolCallId, META, "{}"));
        return McpJsonDefaults.getMapper().readValue(raw, new TypeRef<Map<String, Object>>() { });
    }

    @Test
    void aLostReplyIsSentAgainWithTheSameKeyAndTheToolRunsOnce() throws Exception {
        McpToolBindings tools = McpToolBindings.of(client).readOnly(LEDGER).withCallKeySecret(SECRET);
        ToolBoundary boundary = ToolBoundary.builder().store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowAll()).tool(tools.binding(LEDGER, SHOWN)).build();
        RunContext run = boundary.openRun(RunContext.active(new RunId(runId), Instant.now().plus(Duration.ofHours(1)), 10)).get();
        int before = runs(LEDGER);
        int seenBefore = keysSeen(LEDGER).size();
        int droppedBefore = transport.dropped();

        transport.dropNextToolCallReplies(1);
        Either<BoundaryError, AgentResult> first = boundary.invoke(run,
                ToolCallEnvelope.of(runId, "call_1", LEDGER, "{\"amount\":42}"));
        // The same call sent again, by another client process of the deployment (same secret, own factory).
        ToolBinding otherProcess = McpToolBindings.of(client).readOnly(LEDGER).withCallKeySecret(SECRET).binding(LEDGER, SHOWN);
        String retried = otherProcess.executor().execute(request("call_1", LEDGER, "{\"amount\":42}"));

        assertThat(transport.dropped()).as("the server's first reply was lost").isEqualTo(droppedBefore + 1);
        assertThat(first.getLeft().code()).as("the client timed out").isEqualTo(ErrorCode.EXECUTION_FAILED);
        assertThat(runs(LEDGER)).as("executions inside the tool").isEqualTo(before + 1);
        assertThat(retried).as("the recorded result, replayed").isEqualTo("posted 42 as execution " + (before + 1));
        List<String> seen = keysSeen(LEDGER).subList(seenBefore, keysSeen(LEDGER).size());
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0)).isEqualTo(seen.get(1)).isEqualTo(expectedKey(SECRET, runId, "call_1"));
        assertThat(seen.get(0)).doesNotContain(runId).doesNotContain("call_1");
    }

    @Test
    void withoutReplayARepeatedKeyIsADuplicateErrorAndTheToolRunsOnce() throws Exception {
        ToolBinding strict = McpToolBindings.of(client).readOnly(STRICT).withCallKeySecret(SECRET).binding(STRICT, SHOWN);
        int before = runs(STRICT);

        String first = strict.executor().execute(request("call_2", STRICT, "{\"amount\":7}"));
        assertThatThrownBy(() -> strict.executor().execute(request("call_2", STRICT, "{\"amount\":7}")))
                .isInstanceOf(McpToolErrorException.class);
        CallToolResult repeated = client.callTool(CallToolRequest.builder(STRICT).arguments(Map.of("amount", 7))
                .meta(Map.of(McpToolBindings.IDEMPOTENCY_KEY_META, expectedKey(SECRET, runId, "call_2"))).build());

        assertThat(first).isEqualTo("posted 7 as execution " + (before + 1));
        assertThat(repeated.isError()).isTrue();
        assertThat(text(repeated)).startsWith("ERROR DUPLICATE_TOOL_CALL:");
        assertThat(runs(STRICT)).isEqualTo(before + 1);
    }

    @Test
    void keysDifferPerCallAndPerSecretHaveTheDocumentedFormAndRevealNeitherId() throws Exception {
        McpToolBindings tools = McpToolBindings.of(client).withCallKeySecret(SECRET);

        String key = (String) metaSent(tools, "call_a").get(McpToolBindings.IDEMPOTENCY_KEY_META);
        String again = (String) metaSent(tools, "call_a").get(McpToolBindings.IDEMPOTENCY_KEY_META);
        String otherCall = (String) metaSent(tools, "call_b").get(McpToolBindings.IDEMPOTENCY_KEY_META);
        String otherSecret = (String) metaSent(McpToolBindings.of(client).withCallKeySecret(OTHER_SECRET), "call_a")
                .get(McpToolBindings.IDEMPOTENCY_KEY_META);

        assertThat(key).isEqualTo(expectedKey(SECRET, runId, "call_a")).isEqualTo(again);
        assertThat(key).matches("v1\\.[A-Za-z0-9_-]{43}").doesNotContain(runId).doesNotContain("call_a")
                .doesNotContain(runId.substring(4));
        assertThat(otherCall).isNotEqualTo(key).isEqualTo(expectedKey(SECRET, runId, "call_b"));
        assertThat(otherSecret).isNotEqualTo(key).isEqualTo(expectedKey(OTHER_SECRET, runId, "call_a"));
    }

    @Test
    void withoutASecretOneProcessSendsOneKeyPerCall() throws Exception {
        String key = (String) metaSent(McpToolBindings.of(client), "call_c").get(McpToolBindings.IDEMPOTENCY_KEY_META);
        String fromAnotherFactory = (String) metaSent(McpToolBindings.trustingReadOnlyHints(client), "call_c")
                .get(McpToolBindings.IDEMPOTENCY_KEY_META);

        assertThat(key).matches("v1\\.[A-Za-z0-9_-]{43}").isEqualTo(fromAnotherFactory)
                .isNotEqualTo(expectedKey(SECRET, runId, "call_c"));
        assertThatIllegalArgumentException().isThrownBy(() -> McpToolBindings.of(client).withCallKeySecret(new byte[31]));
    }

    @Test
    void aWellFormedTraceparentIsPassedThroughAndNothingElse() throws Exception {
        McpToolBindings tools = McpToolBindings.of(client).withCallKeySecret(SECRET);

        assertThat(metaSent(tools.withTraceparent(() -> Optional.of(TRACEPARENT)), "call_t"))
                .containsEntry(McpToolBindings.TRACEPARENT_META, TRACEPARENT)
                .containsKey(McpToolBindings.IDEMPOTENCY_KEY_META);
        assertThat(metaSent(tools, "call_t")).doesNotContainKey(McpToolBindings.TRACEPARENT_META);
        for (Supplier<Optional<String>> bad : List.<Supplier<Optional<String>>>of(Optional::empty, () -> null,
                () -> Optional.of("00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01"),
                () -> Optional.of("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"),
                () -> Optional.of("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
                () -> Optional.of("00-00000000000000000000000000000000-00f067aa0ba902b7-01"),
                () -> Optional.of("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"),
                () -> Optional.of(TRACEPARENT + "\n"), () -> Optional.of(" " + TRACEPARENT), () -> {
                    throw new IllegalStateException("no tracer");
                })) {
            Map<String, Object> meta = metaSent(tools.withTraceparent(bad), "call_t");
            assertThat(meta).doesNotContainKey(McpToolBindings.TRACEPARENT_META)
                    .containsKey(McpToolBindings.IDEMPOTENCY_KEY_META);
        }
    }

    @Test
    void aCallWithoutAKeyRunsOrIsRefusedAsTheServerChose() {
        int ledgerBefore = runs(LEDGER);
        int strictBefore = runs(STRICT);

        CallToolResult plain1 = client.callTool(CallToolRequest.builder(LEDGER).arguments(Map.of("amount", 1)).build());
        CallToolResult plain2 = client.callTool(CallToolRequest.builder(LEDGER).arguments(Map.of("amount", 1)).build());
        CallToolResult refused = client.callTool(CallToolRequest.builder(STRICT).arguments(Map.of("amount", 1)).build());

        assertThat(plain1.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(text(plain2)).isEqualTo("posted 1 as execution " + (ledgerBefore + 2));
        assertThat(runs(LEDGER)).as("unkeyed calls run as unwrapped, every time").isEqualTo(ledgerBefore + 2);
        assertThat(refused.isError()).isTrue();
        assertThat(text(refused)).startsWith("ERROR IDEMPOTENCY_KEY_MISSING:");
        assertThat(runs(STRICT)).isEqualTo(strictBefore);
    }

    @Test
    void aMalformedKeyIsRefusedAndTheToolDoesNotRun() throws Exception {
        int ledgerBefore = runs(LEDGER);
        String valid = expectedKey(SECRET, runId, "call_m");
        for (Object malformed : List.of("v1.short", "v2." + valid.substring(3), valid + "A", valid.substring(0, 45) + "=",
                valid.substring(0, 45) + "/", runId, 42, "")) {
            CallToolResult refused = client.callTool(CallToolRequest.builder(LEDGER).arguments(Map.of("amount", 3))
                    .meta(Map.of(McpToolBindings.IDEMPOTENCY_KEY_META, malformed)).build());
            assertThat(refused.isError()).as("key " + malformed).isTrue();
            assertThat(text(refused)).startsWith("ERROR IDEMPOTENCY_KEY_INVALID:");
        }
        assertThat(runs(LEDGER)).isEqualTo(ledgerBefore);
    }
}
