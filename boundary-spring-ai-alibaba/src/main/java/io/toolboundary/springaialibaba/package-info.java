/** The tool calls of Spring AI Alibaba {@code ReactAgent}s, each through the Tool Boundary once. */
package io.toolboundary.springaialibaba;
