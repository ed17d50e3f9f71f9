package io.toolboundary.mcp;

import static java.util.Objects.requireNonNull;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * For an MCP server built on the Java SDK: wraps its sync tool specifications so that a {@code tools/call}
 * carrying {@value McpToolBindings#IDEMPOTENCY_KEY_META} runs the tool at most once per key, through a
 * {@link ToolBoundary} on the server's own store. Every key is a tool_call_id of one server run
 * ({@code mcp-server} unless set), opened once when built with an unlimited budget.
 *
 * <p>It promises: the tool's own {@link CallToolResult}, stored as JSON as the record's raw response (for the
 * server's operators) and as its agent result, is what the client gets on the first call and, when the
 * config replays READY duplicates, on every repeat; otherwise a repeat gets an {@code isError} result
 * {@code ERROR DUPLICATE_TOOL_CALL: ...}. It refuses, with an {@code isError} result and without running the
 * tool: a key not of the form {@code v1.} and 43 base64url characters, a call without a key when
 * {@link Builder#requireKey} is set, and whatever the boundary refuses (a repeat with other arguments, a
 * repeat while the first still runs, a result over the agent result limit, a store failure). A call
 * without a key otherwise runs as it would unwrapped.
 */
public final class IdempotentMcpTools {

    /** The server run every key belongs to, unless {@link Builder#runId} sets another. */
    public static final String DEFAULT_RUN_ID = "mcp-server";

    /** How long the server run lasts, unless {@link Builder#runLifetime} sets another: 3,650 days. */
    public static final Duration DEFAULT_RUN_LIFETIME = Duration.ofDays(3_650);

    private final ToolBoundary boundary;
    private final RunContext run;
    private final List<SyncToolSpecification> tools;

    private IdempotentMcpTools(Builder builder, List<SyncToolSpecification> originals) {
        ToolBoundaryBuilder boundaryBuilder = ToolBoundary.builder()
                .store(builder.store)
                .accessPolicy(AccessPolicy.allowAll())
                .config(builder.config);
        ToolExecutor unused = request -> {
            throw new IllegalStateException("each call passes its own handler");
        };
        for (SyncToolSpecification original : originals) {
            requireNonNull(original, "a tool specification is null");
            // Read-only for the boundary means only "the boundary may run it": the server offers the tool.
            boundaryBuilder.tool(ToolBinding.readOnly(original.tool().name(), unused,
                    (request, raw) -> Projection.evidenceFound(raw)));
        }
        this.boundary = boundaryBuilder.build();
        Either<BoundaryError, RunContext> opened = boundary.openRun(RunContext.active(new RunId(builder.runId),
                Instant.now().plus(builder.runLifetime), RunContext.UNLIMITED));
        if (opened.isLeft()) {
            throw new IllegalStateException("the server run could not be opened: " + ToolBoundary.agentText(Either.left(opened.getLeft())));
        }
        this.run = opened.get();
        List<SyncToolSpecification> wrapped = new ArrayList<>();
        for (SyncToolSpecification original : originals) {
            wrapped.add(SyncToolSpecification.builder().tool(original.tool())
                    .callHandler(handler(original, builder.json, builder.requireKey)).build());
        }
        this.tools = List.copyOf(wrapped);
    }

    /**
     * {@return a builder keeping the server's records in {@code store}}
     *
     * @param store the server's own store (in memory, or Redis to share records between server replicas)
     */
    public static Builder builder(CanonicalInvocationStore store) {
        return new Builder(requireNonNull(store, "store is null"));
    }

    /** {@return the wrapped specifications, in the order given, to register with the server instead of the originals} */
    public List<SyncToolSpecification> tools() {
        return tools;
    }

    /** {@return the server's boundary, for its operators: find a key's record with {@link ToolBoundary#find}} */
    public ToolBoundary boundary() {
        return boundary;
    }

    /** {@return the server run the keys are tool_call_ids of} */
    public RunId runId() {
        return run.runId();
    }

    private BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler(SyncToolSpecification original,
            McpJsonMapper json, boolean requireKey) {
        BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> inner = original.callHandler();
        String toolName = original.tool().name();
        return (exchange, request) -> {
            Object key = request.meta() == null ? null : request.meta().get(McpToolBindings.IDEMPOTENCY_KEY_META);
            if (key == null) {
                return requireKey
                        ? refused("ERROR IDEMPOTENCY_KEY_MISSING: this server runs " + toolName + " only with the _meta "
                                + McpToolBindings.IDEMPOTENCY_KEY_META + "; the tool was not run.")
                        : inner.apply(exchange, request);
            }
            if (!(key instanceof String text) || !CallKeys.isKey(text)) {
                return refused("ERROR IDEMPOTENCY_KEY_INVALID: the _meta " + McpToolBindings.IDEMPOTENCY_KEY_META
                        + " must be v1. and 43 base64url characters; the tool was not run.");
            }
            String arguments;
            try {
                arguments = json.writeValueAsString(request.arguments() == null ? Map.of() : request.arguments());
            } catch (IOException e) {
                return refused("ERROR ARGUMENTS_INVALID: the arguments could not be read; the tool was not run.");
            }
            Either<BoundaryError, AgentResult> outcome = boundary.invoke(run,
                    ToolCallEnvelope.of(run.runId().value(), text, toolName, arguments),
                    checked -> json.writeValueAsString(inner.apply(exchange, request)));
            if (outcome.isLeft()) {
                return refused(ToolBoundary.agentText(outcome));
            }
            try {
                return json.readValue(outcome.get().content(), CallToolResult.class);
            } catch (IOException e) {
                return refused("ERROR RESULT_UNREADABLE: the recorded result could not be read back.");
            }
        };
    }

    private static CallToolResult refused(String text) {
        return CallToolResult.builder().addTextContent(text).isError(true).build();
    }

    @Override
    public String toString() {
        return "IdempotentMcpTools[run=" + run.runId() + ", tools=" + tools.size() + "]";
    }

    /** Builds the wrapper; nothing is opened or stored until {@link #build}. */
    public static final class Builder {
        private final CanonicalInvocationStore store;
        private String runId = DEFAULT_RUN_ID;
        private Duration runLifetime = DEFAULT_RUN_LIFETIME;
        private ToolBoundaryConfig config = ToolBoundaryConfig.ofDefaults();
        private boolean requireKey;
        private McpJsonMapper json = McpJsonDefaults.getMapper();

        private Builder(CanonicalInvocationStore store) {
            this.store = store;
        }

        /**
         * The server run the keys belong to: give each server (or each group of replicas sharing a store) its
         * own; a safe identifier.
         *
         * @param runId 1 to 128 characters of {@code [A-Za-z0-9_.:-]}
         * @return this builder
         */
        public Builder runId(String runId) {
            this.runId = new RunId(runId).value();
            return this;
        }

        /**
         * How long the server run lasts from {@link #build}; after it every keyed call is refused.
         *
         * @param lifetime positive
         * @return this builder
         */
        public Builder runLifetime(Duration lifetime) {
            requireNonNull(lifetime, "lifetime is null");
            if (lifetime.isNegative() || lifetime.isZero()) {
                throw new IllegalArgumentException("runLifetime must be positive, was " + lifetime);
            }
            this.runLifetime = lifetime;
            return this;
        }

        /**
         * The server boundary's settings: {@link ToolBoundaryConfig#replayReadyDuplicates()} decides whether a
         * repeat gets the recorded result or an error, the record TTL how long a key is remembered, and the agent
         * result limit how large a tool's result (as JSON) may be.
         *
         * @param config the settings
         * @return this builder
         */
        public Builder config(ToolBoundaryConfig config) {
            this.config = requireNonNull(config, "config is null");
            return this;
        }

        /**
         * Whether a call without a key is refused (true) or runs as it would unwrapped (false, the default).
         *
         * @param require whether a key is required
         * @return this builder
         */
        public Builder requireKey(boolean require) {
            this.requireKey = require;
            return this;
        }

        /**
         * The JSON mapper results and arguments are written and read with; the SDK's default unless set.
         *
         * @param json the mapper
         * @return this builder
         */
        public Builder jsonMapper(McpJsonMapper json) {
            this.json = requireNonNull(json, "json is null");
            return this;
        }

        /**
         * Builds the server's boundary with the tools, and opens the server run in the store.
         *
         * @param tools the server's tool specifications; each name must be 1 to 128 characters of
         *     {@code [A-Za-z0-9_.:-]}
         * @return the wrapper
         * @throws IllegalArgumentException when a name is not a boundary tool name, or two are the same
         * @throws IllegalStateException when the store could not open the run
         */
        public IdempotentMcpTools build(List<SyncToolSpecification> tools) {
            return new IdempotentMcpTools(this, List.copyOf(requireNonNull(tools, "tools is null")));
        }
    }
}
