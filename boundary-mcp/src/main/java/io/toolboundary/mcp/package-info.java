/**
 * Puts the tools of an MCP server, reached through the MCP Java SDK's
 * {@link io.modelcontextprotocol.client.McpSyncClient}, behind the Tool Boundary: {@link io.toolboundary.mcp.McpToolBindings}
 * makes one {@link io.toolboundary.application.ToolBinding} per server tool, whose calls carry their idempotency key
 * in {@code _meta}; {@link io.toolboundary.mcp.IdempotentMcpTools} lets a server built on the SDK run each key once.
 */
package io.toolboundary.mcp;
