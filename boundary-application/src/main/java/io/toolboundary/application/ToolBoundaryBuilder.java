package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.ToolName;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** Builds a {@link ToolBoundary}. Not thread-safe; the boundary it builds is. */
public final class ToolBoundaryBuilder {
    CanonicalInvocationStore store;
    AccessPolicy accessPolicy;
    Clock clock = Clock.systemUTC();
    ToolBoundaryConfig config = ToolBoundaryConfig.ofDefaults();
    BoundaryListener listener = BoundaryListener.noop();
    Supplier<AttemptToken> tokens = AttemptToken::random;
    LongSupplier ticker = System::nanoTime;
    final Map<ToolName, ToolBinding> tools = new LinkedHashMap<>();

    ToolBoundaryBuilder() {
    }

    /**
     * The store of canonical records. Required.
     *
     * @param store the store
     * @return this builder
     */
    public ToolBoundaryBuilder store(CanonicalInvocationStore store) {
        this.store = requireNonNull(store, "store is null");
        return this;
    }

    /**
     * The harness's access decisions. Required: there is no default that grants access.
     *
     * @param accessPolicy the policy
     * @return this builder
     */
    public ToolBoundaryBuilder accessPolicy(AccessPolicy accessPolicy) {
        this.accessPolicy = requireNonNull(accessPolicy, "accessPolicy is null");
        return this;
    }

    /**
     * The clock for deadlines and timestamps; defaults to the system UTC clock. Never the lease's
     * authority: the store's own clock is.
     *
     * @param clock the clock
     * @return this builder
     */
    public ToolBoundaryBuilder clock(Clock clock) {
        this.clock = requireNonNull(clock, "clock is null");
        return this;
    }

    /**
     * Limits, TTL, execution lease and store budget; defaults to {@link ToolBoundaryConfig#ofDefaults()}.
     *
     * @param config the config
     * @return this builder
     */
    public ToolBoundaryBuilder config(ToolBoundaryConfig config) {
        this.config = requireNonNull(config, "config is null");
        return this;
    }

    /**
     * Harness-side diagnostics; defaults to none.
     *
     * @param listener the listener
     * @return this builder
     */
    public ToolBoundaryBuilder listener(BoundaryListener listener) {
        this.listener = requireNonNull(listener, "listener is null");
        return this;
    }

    /** Test hook: the source of attempt tokens; defaults to {@link AttemptToken#random()}. */
    ToolBoundaryBuilder tokens(Supplier<AttemptToken> tokens) {
        this.tokens = requireNonNull(tokens, "tokens is null");
        return this;
    }

    /** Test hook: the nanosecond source for the durations the listener is told; defaults to {@link System#nanoTime()}. */
    ToolBoundaryBuilder ticker(LongSupplier ticker) {
        this.ticker = requireNonNull(ticker, "ticker is null");
        return this;
    }

    /**
     * Registers a tool.
     *
     * @param binding the tool, its executor, projector and budget
     * @return this builder
     * @throws IllegalArgumentException when a tool of that name is already registered
     */
    public ToolBoundaryBuilder tool(ToolBinding binding) {
        requireNonNull(binding, "binding is null");
        if (tools.putIfAbsent(binding.name(), binding) != null) {
            throw new IllegalArgumentException("tool \"" + binding.name().value()
                    + "\" is registered twice: register each tool name once");
        }
        return this;
    }

    /**
     * The boundary.
     *
     * @return the boundary, immutable and thread-safe
     * @throws IllegalStateException when the store or the access policy is not set
     * @throws IllegalArgumentException when the store's own record cap is below the config's record
     *     limit, or the access policy is an {@link AccessPolicy#allowOnly} naming a tool not registered
     */
    public ToolBoundary build() {
        return new ToolBoundary(this);
    }
}
