package io.toolboundary.mcp;

import static io.toolboundary.mcp.McpTestServer.CALLS;
import static io.toolboundary.mcp.McpTestServer.ECHO;
import static io.toolboundary.mcp.McpTestServer.EMPTY;
import static io.toolboundary.mcp.McpTestServer.FAILING;
import static io.toolboundary.mcp.McpTestServer.LOG_SEARCH;
import static io.toolboundary.mcp.McpTestServer.LOG_TEXT;
import static io.toolboundary.mcp.McpTestServer.METRICS;
import static io.toolboundary.mcp.McpTestServer.PURGE;
import static io.toolboundary.mcp.McpTestServer.RESTART;
import static io.toolboundary.mcp.McpTestServer.SCREENSHOT;
import static io.toolboundary.mcp.McpTestServer.SERVER_SECRET;
import static io.toolboundary.mcp.McpTestServer.STRUCTURED_JSON;
import static io.toolboundary.mcp.McpTestServer.TWO_BLOCKS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end: a real MCP server (the SDK's own, over stdio, in a child JVM on the test class path),
 * an SDK {@link McpSyncClient}, the bindings of this module, and a real {@link ToolBoundary} on the
 * in-memory store. Every count of calls is the server's own.
 */
class McpToolBindingsTest {

    static final String SCOPE = "logs 10:00-10:15";
    static final String CONTENT = "2 checkout timeouts";
    static final Projector FOUND = (request, raw) -> Projection.evidenceFound(CONTENT, SCOPE);

    static McpSyncClient client;

    final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create();
    final List<Class<? extends Throwable>> toolFailures = new CopyOnWriteArrayList<>();
    /** The test's run: opened on its store by {@link #boundary}, the first time a boundary is built. */
    RunContext run = RunContext.active(new RunId("run-" + UUID.randomUUID()), Instant.now().plus(Duration.ofHours(1)), 100);

    @BeforeAll
    static void startServer() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerParameters server = ServerParameters.builder(java)
                .args("-Xmx128m", "-cp", System.getProperty("java.class.path"), McpTestServer.class.getName())
                .build();
        client = McpClient.sync(new StdioClientTransport(server, McpJsonDefaults.getMapper()))
                .requestTimeout(Duration.ofSeconds(30))
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

    /** How often the server ran a tool, as the server counted. */
    static int serverCalls(String tool) {
        CallToolResult result = client.callTool(CallToolRequest.builder(CALLS).arguments(Map.of("tool", tool)).build());
        return Integer.parseInt(((TextContent) result.content().get(0)).text());
    }

    ToolBoundary boundary(ToolBinding... bindings) {
        ToolBoundaryBuilder builder = ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .listener(new BoundaryListener() {
                    @Override
                    public void onToolFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
                        toolFailures.add(failure);
                    }
                });
        for (ToolBinding binding : bindings) {
            builder.tool(binding);
        }
        ToolBoundary boundary = builder.build();
        run = boundary.openRun(run).get();   // on the test's one store: the same token every time
        return boundary;
    }

    Either<BoundaryError, AgentResult> call(ToolBoundary boundary, String toolCallId, String tool, String arguments) {
        return boundary.invoke(run, ToolCallEnvelope.of(run.runId().value(), toolCallId, tool, arguments));
    }

    CanonicalRecord record(ToolBoundary boundary, String toolCallId) {
        Option<CanonicalRecord> found = boundary.find(run.runId(), new ToolCallId(toolCallId)).get();
        assertThat(found).as("record of " + toolCallId).isNotEmpty();
        return found.get();
    }

    @Test
    void aReadOnlyHintedToolsTextIsTheRawResponseByteForByteAndTheAgentSeesOnlyTheProjection() {
        McpToolBindings tools = McpToolBindings.trustingReadOnlyHints(client);
        AtomicReference<String> rawSeenByProjector = new AtomicReference<>();
        ToolBoundary boundary = boundary(tools.binding(LOG_SEARCH, (request, raw) -> {
            rawSeenByProjector.set(raw);
            return Projection.evidenceFound(CONTENT, SCOPE);
        }));
        int before = serverCalls(LOG_SEARCH);

        Either<BoundaryError, AgentResult> answer = call(boundary, "call_1", LOG_SEARCH, "{\"query\":\"timeout\"}");

        assertThat(ToolBoundary.agentText(answer)).isEqualTo("EVIDENCE_FOUND (scope: " + SCOPE + ")\n" + CONTENT);
        assertThat(ToolBoundary.agentText(answer)).doesNotContain("RAW-ROW");
        CanonicalRecord record = record(boundary, "call_1");
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.arguments()).isEqualTo("{\"query\":\"timeout\"}");
        assertThat(record.rawResponse().get()).isEqualTo(LOG_TEXT);
        assertThat(record.rawResponse().get().getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(LOG_TEXT.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(rawSeenByProjector.get()).isEqualTo(LOG_TEXT);
        assertThat(serverCalls(LOG_SEARCH)).isEqualTo(before + 1);
    }

    @Test
    void severalTextBlocksAreJoinedWithOneNewlineAndNoContentIsTheEmptyString() {
        McpToolBindings tools = McpToolBindings.trustingReadOnlyHints(client);
        ToolBoundary boundary = boundary(tools.binding(TWO_BLOCKS, FOUND),
                tools.binding(EMPTY, (request, raw) -> Projection.noEvidence("nothing", SCOPE)));

        assertThat(call(boundary, "call_2", TWO_BLOCKS, "{}").isRight()).isTrue();
        assertThat(call(boundary, "call_3", EMPTY, "{}").isRight()).isTrue();

        assertThat(record(boundary, "call_2").rawResponse().get()).isEqualTo("first block\nsecond block");
        assertThat(record(boundary, "call_3").rawResponse().get()).isEmpty();
    }

    @Test
    void toolsWithoutTheHintAreRefusedAsWritableAndNeverReachTheServer() {
        McpToolBindings tools = McpToolBindings.trustingReadOnlyHints(client);
        assertThat(tools.isReadOnly(RESTART)).isFalse();
        assertThat(tools.isReadOnly(PURGE)).isFalse();
        ToolBoundary boundary = boundary(tools.binding(RESTART, FOUND), tools.binding(PURGE, FOUND));
        int restarts = serverCalls(RESTART);
        int purges = serverCalls(PURGE);

        Either<BoundaryError, AgentResult> restart = call(boundary, "call_4", RESTART, "{\"service\":\"checkout\"}");
        Either<BoundaryError, AgentResult> purge = call(boundary, "call_5", PURGE, "{}");

        assertThat(restart.getLeft().code()).isEqualTo(ErrorCode.TOOL_NOT_READ_ONLY);
        assertThat(purge.getLeft().code()).isEqualTo(ErrorCode.TOOL_NOT_READ_ONLY);
        assertThat(boundary.find(run.runId(), new ToolCallId("call_4")).get()).isEmpty();
        assertThat(serverCalls(RESTART)).isEqualTo(restarts);
        assertThat(serverCalls(PURGE)).isEqualTo(purges);
    }

    @Test
    void hintsCountOnlyWhenTheHarnessOptsIn() {
        McpToolBindings tools = McpToolBindings.of(client);
        assertThat(tools.isReadOnly(LOG_SEARCH)).isFalse();
        ToolBoundary boundary = boundary(tools.binding(LOG_SEARCH, FOUND));
        int before = serverCalls(LOG_SEARCH);

        assertThat(call(boundary, "call_6", LOG_SEARCH, "{}").getLeft().code()).isEqualTo(ErrorCode.TOOL_NOT_READ_ONLY);

        assertThat(serverCalls(LOG_SEARCH)).isEqualTo(before);
    }

    @Test
    void theHarnessOverridesTheServerPerTool() {
        McpToolBindings tools = McpToolBindings.trustingReadOnlyHints(client).writable(LOG_SEARCH);
        McpToolBindings named = McpToolBindings.of(client).readOnly(RESTART);
        ToolBoundary boundary = boundary(tools.binding(LOG_SEARCH, FOUND), named.binding(RESTART, FOUND));
        int searches = serverCalls(LOG_SEARCH);
        int restarts = serverCalls(RESTART);

        assertThat(call(boundary, "call_7", LOG_SEARCH, "{}").getLeft().code()).isEqualTo(ErrorCode.TOOL_NOT_READ_ONLY);
        assertThat(call(boundary, "call_8", RESTART, "{}").isRight()).isTrue();

        assertThat(record(boundary, "call_8").rawResponse().get()).isEqualTo("restarted");
        assertThat(serverCalls(LOG_SEARCH)).isEqualTo(searches);
        assertThat(serverCalls(RESTART)).isEqualTo(restarts + 1);
        assertThat(McpToolBindings.trustingReadOnlyHints(client).isReadOnly(LOG_SEARCH)).as("the original is unchanged").isTrue();
        assertThat(tools.writable(LOG_SEARCH).readOnly(LOG_SEARCH).isReadOnly(LOG_SEARCH)).as("the last override wins").isTrue();
    }

    @Test
    void anIsErrorResultIsAnExecutionFailureAndNoServerTextReachesTheAgent() throws Exception {
        McpToolBindings tools = McpToolBindings.trustingReadOnlyHints(client);
        ToolBinding failing = tools.binding(FAILING, FOUND);
        ToolBoundary boundary = boundary(failing);
        int before = serverCalls(FAILING);

        Either<BoundaryError, AgentResult> answer = call(boundary, "call_9", FAILING, "{}");

        assertThat(answer.getLeft().code()).isEqualTo(ErrorCode.EXECUTION_FAILED);
        assertThat(ToolBoundary.agentText(answer)).doesNotContain("hunter2").doesNotContain("connection refused");
        CanonicalRecord record = record(boundary, "call_9");
        assertThat(record.status()).isEqualTo(InvocationStatus.ERROR);
        assertThat(record.rawResponse()).isEmpty();
        assertThat(toolFailures).containsExactly(McpToolErrorException.class);
        assertThat(serverCalls(FAILING)).isEqualTo(before + 1);

        ToolRequest direct = new ToolRequest(InvocationKey.of(run.runId(), new ToolCallId("direct_1")), new ToolName(FAILING), "{}");
        assertThatThrownBy(() -> failing.executor().execute(direct))
                .isInstanceOf(McpToolErrorException.class)
                .hasMessageNotContaining("hunter2").hasMessageNotContaining(SERVER_SECRET).hasNoCause();
    }

    @Test
    void aDuplicateToolCallIdIsNotRunAgainOnTheServer() {
        ToolBoundary boundary = boundary(McpToolBindings.trustingReadOnlyHints(client).binding(LOG_SEARCH, FOUND));
        int before = serverCalls(LOG_SEARCH);

        Either<BoundaryError, AgentResult> first = call(boundary, "call_10", LOG_SEARCH, "{\"query\":\"timeout\"}");
        Either<BoundaryError, AgentResult> replay = call(boundary, "call_10", LOG_SEARCH, "{\"query\":\"timeout\"}");
        Either<BoundaryError, AgentResult> changed = call(boundary, "call_10", LOG_SEARCH, "{\"query\":\"other\"}");

        assertThat(first.isRight()).isTrue();
        assertThat(replay.getLeft().code()).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(changed.isLeft()).isTrue();
        assertThat(serverCalls(LOG_SEARCH)).isEqualTo(before + 1);
    }

    @Test
    void structuredContentIsTheRawResponseAsJson() {
        ToolBoundary boundary = boundary(McpToolBindings.trustingReadOnlyHints(client).binding(METRICS, FOUND));

        assertThat(call(boundary, "call_11", METRICS, "{}").isRight()).isTrue();

        assertThat(record(boundary, "call_11").rawResponse().get()).isEqualTo(STRUCTURED_JSON);
    }

    @Test
    void imageContentIsRefusedAsAnExecutionFailure() {
        ToolBoundary boundary = boundary(McpToolBindings.trustingReadOnlyHints(client).binding(SCREENSHOT, FOUND));
        int before = serverCalls(SCREENSHOT);

        Either<BoundaryError, AgentResult> answer = call(boundary, "call_12", SCREENSHOT, "{}");

        assertThat(answer.getLeft().code()).isEqualTo(ErrorCode.EXECUTION_FAILED);
        assertThat(ToolBoundary.agentText(answer)).doesNotContain("iVBORw0KGgo");
        assertThat(toolFailures).containsExactly(McpUnsupportedContentException.class);
        assertThat(serverCalls(SCREENSHOT)).isEqualTo(before + 1);
    }

    @Test
    void theServerReceivesTheArgumentsWithTheirMembersInOrder() {
        ToolBoundary boundary = boundary(McpToolBindings.trustingReadOnlyHints(client).binding(ECHO, FOUND));
        String arguments = "{\"query\":\"time\\\"out\",\"limit\":20,\"big\":123456789012345678901234567890,"
                + "\"nested\":{\"levels\":[\"ERROR\",\"WARN\"],\"strict\":true,\"none\":null},\"ünï\":\"𝄞\"}";

        assertThat(call(boundary, "call_13", ECHO, arguments).isRight()).isTrue();

        assertThat(record(boundary, "call_13").rawResponse().get()).isEqualTo(arguments);
    }

    @Test
    void listsTheServersToolsAndRefusesNamesItDidNotList() {
        McpToolBindings tools = McpToolBindings.trustingReadOnlyHints(client);

        assertThat(tools.toolNames()).containsExactly(CALLS, ECHO, EMPTY, FAILING, LOG_SEARCH, METRICS, PURGE, RESTART,
                SCREENSHOT, TWO_BLOCKS);
        assertThatIllegalArgumentException().isThrownBy(() -> tools.binding("log_search", FOUND))
                .withMessageContaining("did not list a tool named 'log_search'");
        assertThatIllegalArgumentException().isThrownBy(() -> tools.readOnly("drop-table"));
        assertThatIllegalArgumentException().isThrownBy(() -> tools.writable(""));
        assertThatIllegalArgumentException().isThrownBy(() -> tools.isReadOnly("nope"));
        assertThatThrownBy(() -> tools.binding(LOG_SEARCH, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> McpToolBindings.of(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aRunNeverOpenedIsRefusedBeforeTheServerHearsOfTheCall() {
        ToolBoundary boundary = boundary(McpToolBindings.trustingReadOnlyHints(client).binding(LOG_SEARCH, FOUND));
        RunContext unopened = RunContext.active(new RunId("run-" + UUID.randomUUID()), run.deadline(), 100);
        int before = serverCalls(LOG_SEARCH);

        Either<BoundaryError, AgentResult> outcome = boundary.invoke(unopened,
                ToolCallEnvelope.of(unopened.runId().value(), "call_n", LOG_SEARCH, "{\"query\":\"timeout\"}"));

        assertThat(outcome.getLeft().code()).isEqualTo(ErrorCode.RUN_NOT_OPENED);
        assertThat(serverCalls(LOG_SEARCH)).isEqualTo(before);
        assertThat(boundary.find(unopened.runId(), new ToolCallId("call_n")).get()).isEmpty();
    }

    @Test
    void theDocumentedHarnessRunsAsShown() {
        int searches = serverCalls(LOG_SEARCH);
        int restarts = serverCalls(RESTART);

        List<String> shown = com.example.mcp.McpTriageHarness.triage(client);

        assertThat(shown).containsExactly(
                "EVIDENCE_FOUND (scope: checkout logs)\n2 matching lines",
                "ERROR DUPLICATE_TOOL_CALL: This tool_call_id was already used in this run; the tool was not run again.",
                ToolBoundary.agentText(Either.left(BoundaryError.of(ErrorCode.TOOL_NOT_READ_ONLY))));
        assertThat(serverCalls(LOG_SEARCH)).isEqualTo(searches + 1);
        assertThat(serverCalls(RESTART)).isEqualTo(restarts);
    }

    @Test
    void theDocumentShowsTheHarnessVerbatim() throws IOException {
        String doc = Files.readString(Path.of("../docs/integrations-mcp.md"));
        String harness = Files.readString(Path.of("src/test/java/com/example/mcp/McpTriageHarness.java"));

        assertThat(doc).contains("```java\n" + harness + "```");
        assertThat(doc).contains("## A complete harness (" + harness.lines().count() + " lines)");
    }
}
