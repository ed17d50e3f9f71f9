package io.toolboundary.micrometer.bad;

import io.modelcontextprotocol.client.McpSyncClient;

/** Breaks "only the MCP integration uses the MCP SDK": metrics that ask an MCP server directly. */
public final class MetricsCallingAnMcpServer {

    /** Whether the server answered its initialization. */
    public boolean up(McpSyncClient client) {
        return client.isInitialized();
    }
}
