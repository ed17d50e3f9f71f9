package io.toolboundary.mcp;

/**
 * Thrown by an MCP tool's executor when the server answered the call with {@code isError: true}.
 * The boundary ends the record in ERROR/EXECUTION_FAILED and shows the agent only that code.
 *
 * <p>Its message is fixed and names the tool only: the server's text never goes into it, so no
 * log line or listener that prints the exception can carry what the server wrote.
 */
public final class McpToolErrorException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @serial the name of the tool whose call the server reported as an error */
    private final String toolName;

    McpToolErrorException(String toolName) {
        super("the MCP tool " + toolName + " answered with isError=true");
        this.toolName = toolName;
    }

    /** {@return the name of the MCP tool that reported the error} */
    public String toolName() {
        return toolName;
    }
}
