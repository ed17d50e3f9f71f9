package io.toolboundary.mcp;

/**
 * Thrown by an MCP tool's executor when the result holds image, audio, resource content or structured content
 * that is not plain JSON, which no projector could cut; the record ends ERROR/EXECUTION_FAILED. Its message
 * names the content type only, never any content.
 */
public final class McpUnsupportedContentException extends Exception {

    private static final long serialVersionUID = 1L;

    /** @serial the type of the content block that cannot become a raw response */
    private final String contentType;

    McpUnsupportedContentException(String contentType) {
        super("the MCP tool result held " + contentType + " content, which boundary-mcp does not take as a raw response");
        this.contentType = contentType;
    }

    /**
     * {@return the refused MCP content type: {@code image}, {@code audio}, {@code resource}, {@code resource_link},
     * {@code structured} or another the server named}
     */
    public String contentType() {
        return contentType;
    }
}
