package io.toolboundary.mcp.bad;

import io.toolboundary.application.RunContext;
import io.toolboundary.testkit.Fixtures;

/** Breaks "integrations depend on the application and their framework only": MCP code using test fixtures. */
public final class McpBindingsUsingTheTestkit {

    /** A run context taken from the testkit. */
    public RunContext run() {
        return Fixtures.anyRunContext();
    }
}
