package io.toolboundary.mcp.bad;

import io.toolboundary.langchain4j.AnnotatedTools;

/** Breaks "integrations never depend on each other": MCP bindings that need the LangChain4j module. */
public final class McpBindingsUsingTheLangChain4jIntegration {

    /** The names of LangChain4j tools, borrowed to filter an MCP server's tools. */
    public int count(AnnotatedTools tools) {
        return tools.specifications().size();
    }
}
