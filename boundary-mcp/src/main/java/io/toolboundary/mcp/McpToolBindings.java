package io.toolboundary.mcp;

import static java.util.Objects.requireNonNull;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBinding;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Makes {@link ToolBinding}s for the tools of one MCP server, through an initialized {@link McpSyncClient},
 * listing its tools once. A tool is read-only only when the harness says so ({@link #readOnly(String)}, or
 * {@link #trustingReadOnlyHints} and {@code readOnlyHint: true}); any other is bound writable, refused with
 * TOOL_NOT_READ_ONLY and never sent.
 *
 * <p>An executor sends {@code tools/call} with the checked arguments and returns the structured content as
 * JSON, else the text blocks joined with {@code \n} (empty for none). {@code isError: true} throws
 * {@link McpToolErrorException}, non-text content {@link McpUnsupportedContentException}: the record ends
 * EXECUTION_FAILED and the agent sees none of the server's text. The projector is the harness's.
 * Immutable.
 */
public final class McpToolBindings {

    /** The most pages of {@code tools/list} read before the server is taken to be misbehaving. */
    static final int MAX_PAGES = 1_000;

    private final McpSyncClient client;
    private final Map<String, Boolean> hintedReadOnly;
    private final Map<String, Boolean> overrides;

    private McpToolBindings(McpSyncClient client, Map<String, Boolean> hintedReadOnly, Map<String, Boolean> overrides) {
        this.client = client;
        this.hintedReadOnly = hintedReadOnly;
        this.overrides = overrides;
    }

    /**
     * Lists the server's tools and ignores their hints: every tool is writable until the harness
     * names it with {@link #readOnly(String)}.
     *
     * @param client an initialized client of the server
     * @return the factory
     * @throws IllegalArgumentException when the server lists one tool name twice
     */
    public static McpToolBindings of(McpSyncClient client) {
        return list(client, false);
    }

    /**
     * Lists the server's tools and accepts their hints: a tool declaring {@code readOnlyHint: true} is
     * read-only, every other is writable; {@link #readOnly(String)} and {@link #writable(String)} still
     * override. Use it only for a server the harness trusts: nothing checks the hint.
     *
     * @param client an initialized client of the server
     * @return the factory
     * @throws IllegalArgumentException when the server lists one tool name twice
     */
    public static McpToolBindings trustingReadOnlyHints(McpSyncClient client) {
        return list(client, true);
    }

    private static McpToolBindings list(McpSyncClient client, boolean trustHints) {
        requireNonNull(client, "client is null");
        Map<String, Boolean> tools = new TreeMap<>();
        String cursor = null;
        for (int page = 0; ; page++) {
            if (page == MAX_PAGES) {
                throw new IllegalStateException("the MCP server listed more than " + MAX_PAGES + " pages of tools");
            }
            ListToolsResult result = cursor == null ? client.listTools() : client.listTools(cursor);
            if (result == null) {
                throw new IllegalStateException("the MCP client returned no tool list");
            }
            for (Tool tool : result.tools() == null ? List.<Tool>of() : result.tools()) {
                if (tool == null || tool.name() == null) {
                    throw new IllegalArgumentException("the MCP server listed a tool without a name");
                }
                if (tools.put(tool.name(), trustHints && declaresReadOnly(tool)) != null) {
                    throw new IllegalArgumentException("the MCP server listed the tool " + tool.name() + " twice");
                }
            }
            cursor = result.nextCursor();
            if (cursor == null || cursor.isEmpty()) {
                break;
            }
        }
        return new McpToolBindings(client, Collections.unmodifiableMap(tools), Map.of());
    }

    private static boolean declaresReadOnly(Tool tool) {
        ToolAnnotations annotations = tool.annotations();
        return annotations != null && Boolean.TRUE.equals(annotations.readOnlyHint());
    }

    /**
     * {@return a new factory with one tool read-only, whatever the server declares}
     *
     * @param toolName a tool the server listed
     * @throws IllegalArgumentException when the server did not list the tool
     */
    public McpToolBindings readOnly(String toolName) {
        return withOverride(toolName, true);
    }

    /**
     * The same factory with one tool writable, whatever the server declares: the boundary will
     * refuse its calls with TOOL_NOT_READ_ONLY.
     *
     * @param toolName a tool the server listed
     * @return a new factory
     * @throws IllegalArgumentException when the server did not list the tool
     */
    public McpToolBindings writable(String toolName) {
        return withOverride(toolName, false);
    }

    private McpToolBindings withOverride(String toolName, boolean readOnly) {
        requireListed(toolName);
        Map<String, Boolean> next = new HashMap<>(overrides);
        next.put(toolName, readOnly);
        return new McpToolBindings(client, hintedReadOnly, Map.copyOf(next));
    }

    /** {@return the names of the tools the server listed when this factory was made, sorted, unmodifiable} */
    public Set<String> toolNames() {
        return Collections.unmodifiableSet(new TreeSet<>(hintedReadOnly.keySet()));
    }

    /**
     * {@return true when the harness's override or an accepted hint makes the tool's binding read-only}
     *
     * @param toolName a tool the server listed
     * @throws IllegalArgumentException when the server did not list the tool
     */
    public boolean isReadOnly(String toolName) {
        requireListed(toolName);
        Boolean override = overrides.get(toolName);
        return override != null ? override : hintedReadOnly.get(toolName);
    }

    /**
     * The binding of one tool, with an unlimited call budget (see
     * {@link ToolBinding#withCallBudgetPerRun}). It is registered under the MCP tool's own name.
     *
     * @param toolName a tool the server listed
     * @param projector the harness's projector for this tool's raw responses
     * @return a read-only binding when {@link #isReadOnly} says so, otherwise a writable one
     * @throws IllegalArgumentException when the server did not list the tool, or its name is not a
     *     name the boundary accepts (1 to 128 characters of {@code [A-Za-z0-9_.:-]})
     */
    public ToolBinding binding(String toolName, Projector projector) {
        requireNonNull(projector, "projector is null");
        McpToolExecutor executor = new McpToolExecutor(client, toolName);
        return isReadOnly(toolName)
                ? ToolBinding.readOnly(toolName, executor, projector)
                : ToolBinding.writable(toolName, executor, projector);
    }

    private void requireListed(String toolName) {
        requireNonNull(toolName, "toolName is null");
        if (!hintedReadOnly.containsKey(toolName)) {
            throw new IllegalArgumentException("the MCP server did not list a tool named '" + toolName
                    + "'; it lists " + hintedReadOnly.keySet());
        }
    }

    @Override
    public String toString() {
        return "McpToolBindings[tools=" + hintedReadOnly.keySet() + ", overrides=" + new TreeMap<>(overrides) + "]";
    }
}
