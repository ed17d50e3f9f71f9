package io.toolboundary.mcp;

/**
 * Thrown by an MCP tool's executor when the result holds content this module does not turn into a
 * raw response: image, audio, an embedded resource or a resource link, or structured content that is
 * not plain JSON. The boundary ends the record in ERROR/EXECUTION_FAILED.
 *
 * <p>The raw response of a record is text the harness can read and a projector can cut; base64
 * images and audio would fill the raw limit with bytes no projector can use, so they are refused
 * rather than serialised. A harness that wants them writes its own
 * {@link io.toolboundary.application.ToolExecutor}.
 *
 * <p>Its message names the content type only, never any content.
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
     * The MCP content type that was refused.
     *
     * @return {@code image}, {@code audio}, {@code resource}, {@code resource_link}, {@code structured}
     *     or another type the server named
     */
    public String contentType() {
        return contentType;
    }
}
