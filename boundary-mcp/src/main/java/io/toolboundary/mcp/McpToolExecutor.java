package io.toolboundary.mcp;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Calls one tool of an MCP server and turns its result into the raw response: the structured
 * content as JSON when there is any, otherwise the text content as is, several text blocks joined
 * with one {@code \n}; {@code isError} and every other content type are thrown. Each request carries in
 * {@code _meta} the call's idempotency key and, when the supplier gives a well-formed one, its
 * {@code traceparent}.
 */
final class McpToolExecutor implements ToolExecutor {

    /** The content types of the MCP schema; anything else is reported as {@code unknown}. */
    private static final Set<String> KNOWN_TYPES = Set.of("text", "image", "audio", "resource", "resource_link");

    private final McpSyncClient client;
    private final String toolName;
    private final CallKeys keys;
    private final Supplier<Optional<String>> traceparent;

    McpToolExecutor(McpSyncClient client, String toolName, CallKeys keys, Supplier<Optional<String>> traceparent) {
        this.client = client;
        this.toolName = toolName;
        this.keys = keys;
        this.traceparent = traceparent;
    }

    /** The {@code _meta} of the call: its key, and its trace context when there is a well-formed one. */
    Map<String, Object> meta(ToolRequest request) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put(McpToolBindings.IDEMPOTENCY_KEY_META, keys.key(request.key()));
        Optional<String> supplied;
        try {
            supplied = traceparent.get();
        } catch (RuntimeException noTrace) {
            // Tracing never fails a call: a supplier that throws sends no traceparent.
            supplied = Optional.empty();
        }
        if (supplied != null) {
            supplied.flatMap(CallKeys::traceparent).ifPresent(value -> meta.put(McpToolBindings.TRACEPARENT_META, value));
        }
        return meta;
    }

    @Override
    public String execute(ToolRequest request) throws Exception {
        Map<String, Object> arguments = JsonValues.readObject(request.arguments());
        CallToolResult result = client.callTool(CallToolRequest.builder(toolName).arguments(arguments)
                .meta(meta(request)).build());
        if (result == null) {
            throw new IllegalStateException("the MCP client returned no result for " + toolName);
        }
        if (Boolean.TRUE.equals(result.isError())) {
            throw new McpToolErrorException(toolName);
        }
        if (result.structuredContent() != null) {
            return JsonValues.write(result.structuredContent());
        }
        return text(result.content());
    }

    private static String text(List<Content> content) throws McpUnsupportedContentException {
        if (content == null || content.isEmpty()) {
            return "";
        }
        StringBuilder raw = new StringBuilder();
        for (Content block : content) {
            if (!(block instanceof TextContent text)) {
                String type = block == null ? "unknown" : block.type();
                throw new McpUnsupportedContentException(KNOWN_TYPES.contains(type) ? type : "unknown");
            }
            if (raw.length() > 0) {
                raw.append('\n');
            }
            raw.append(text.text() == null ? "" : text.text());
        }
        return raw.toString();
    }
}
