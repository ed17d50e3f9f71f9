/** MCP integration classes that break the integration rules on purpose. */
package io.toolboundary.mcp.bad;
