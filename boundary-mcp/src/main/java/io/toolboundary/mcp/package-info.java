/**
 * Puts the tools of an MCP server, reached through the MCP Java SDK's
 * {@link io.modelcontextprotocol.client.McpSyncClient}, behind the Tool Boundary: {@link io.toolboundary.mcp.McpToolBindings}
 * makes one {@link io.toolboundary.application.ToolBinding} per server tool.
 */
package io.toolboundary.mcp;
