package com.example.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.mcp.McpToolBindings;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** Puts two tools of an MCP server behind the boundary and makes three calls. */
public final class McpTriageHarness {

    public static void main(String[] serverCommand) {
        ServerParameters server = ServerParameters.builder(serverCommand[0])
                .args(Arrays.asList(serverCommand).subList(1, serverCommand.length)).build();
        try (McpSyncClient client = McpClient.sync(new StdioClientTransport(server, McpJsonDefaults.getMapper()))
                .requestTimeout(Duration.ofSeconds(20)).build()) {
            client.initialize();
            triage(client).forEach(System.out::println);
        }
    }

    /** What the model would be shown for each call. */
    public static List<String> triage(McpSyncClient client) {
        McpToolBindings tools = McpToolBindings.trustingReadOnlyHints(client)   // readOnlyHint: true counts
                .writable("purge-logs");                                         // never trust this one
        ToolBoundary boundary = ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowOnly("log-search", "restart-service"))
                .tool(tools.binding("log-search", (request, raw) -> raw.isBlank()
                        ? Projection.noEvidence("no matching lines", "checkout logs")
                        : Projection.evidenceFound(raw.lines().count() + " matching lines", "checkout logs"))
                        .withCallBudgetPerRun(20))
                .tool(tools.binding("restart-service", (request, raw) -> Projection.evidenceFound("restarted")))
                .build();
        RunContext run = boundary.openRun(                                       // once, when the run starts
                RunContext.active(new RunId("triage-42"), Instant.now().plus(Duration.ofMinutes(5)), 50))
                .getOrElseThrow(error -> new IllegalStateException(error.message()));
        return List.of(
                ToolBoundary.agentText(boundary.invoke(run, ToolCallEnvelope.of("triage-42", "call_1", "log-search", "{\"query\":\"timeout\"}"))),
                ToolBoundary.agentText(boundary.invoke(run, ToolCallEnvelope.of("triage-42", "call_1", "log-search", "{\"query\":\"timeout\"}"))),
                ToolBoundary.agentText(boundary.invoke(run, ToolCallEnvelope.of("triage-42", "call_2", "restart-service", "{}"))));
    }
}
