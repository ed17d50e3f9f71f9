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
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
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
 *
 * <p>Every {@code tools/call} carries in {@code _meta} the call's {@value #IDEMPOTENCY_KEY_META}:
 * {@code v1.} and the unpadded base64url of HMAC-SHA256(secret, runId + "\n" + toolCallId), the same for
 * every retry of one call and revealing neither id. Give every client process of a deployment the same
 * secret ({@link #withCallKeySecret}); without one, a random secret of this process is used, so only a
 * retry from the same process sends the same key. A {@value #TRACEPARENT_META} goes along when the
 * supplier set with {@link #withTraceparent} gives a well-formed one, never otherwise. Immutable.
 */
public final class McpToolBindings {

    /** The most pages of {@code tools/list} read before the server is taken to be misbehaving. */
    static final int MAX_PAGES = 1_000;

    /** The {@code _meta} member of each {@code tools/call} that holds the call's idempotency key. */
    public static final String IDEMPOTENCY_KEY_META = "io.toolboundary/idempotency-key";

    /** The {@code _meta} member of each {@code tools/call} that holds the call's W3C trace context, when it has one. */
    public static final String TRACEPARENT_META = "traceparent";

    private static final Supplier<Optional<String>> NO_TRACE = Optional::empty;

    private final McpSyncClient client;
    private final Map<String, Boolean> hintedReadOnly;
    private final Map<String, Boolean> overrides;
    private final CallKeys keys;
    private final Supplier<Optional<String>> traceparent;

    private McpToolBindings(McpSyncClient client, Map<String, Boolean> hintedReadOnly, Map<String, Boolean> overrides,
            CallKeys keys, Supplier<Optional<String>> traceparent) {
        this.client = client;
        this.hintedReadOnly = hintedReadOnly;
        this.overrides = overrides;
        this.keys = keys;
        this.traceparent = traceparent;
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
        return new McpToolBindings(client, Collections.unmodifiableMap(tools), Map.of(), CallKeys.PER_PROCESS, NO_TRACE);
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
        return new McpToolBindings(client, hintedReadOnly, Map.copyOf(next), keys, traceparent);
    }

    /**
     * The same factory, deriving idempotency keys with the application's secret, which every client process of
     * one deployment must share so that a retry from another process sends the same key. Keep it as secret as
     * any credential: whoever holds it can tell which key belongs to which (run id, tool_call_id).
     *
     * @param secret at least 32 bytes, copied
     * @return a new factory
     * @throws IllegalArgumentException when the secret is shorter than 32 bytes
     */
    public McpToolBindings withCallKeySecret(byte[] secret) {
        return new McpToolBindings(client, hintedReadOnly, overrides, CallKeys.of(secret), traceparent);
    }

    /**
     * The same factory, sending the W3C {@code traceparent} the supplier gives, asked once per call on the
     * calling thread. A value that is not {@code version-traceid-spanid-flags} in lower-case hex (version not
     * {@code ff}, ids not all zeros), an empty optional, a null or a supplier that throws is sent as nothing.
     *
     * @param traceparent the application's source of the current trace context
     * @return a new factory
     */
    public McpToolBindings withTraceparent(Supplier<Optional<String>> traceparent) {
        requireNonNull(traceparent, "traceparent is null");
        return new McpToolBindings(client, hintedReadOnly, overrides, keys, traceparent);
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
        McpToolExecutor executor = new McpToolExecutor(client, toolName, keys, traceparent);
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
