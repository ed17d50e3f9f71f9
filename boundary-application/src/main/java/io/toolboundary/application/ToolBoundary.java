package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.internal.JsonArguments;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Limits;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.Utf8;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The one boundary every tool call passes.
 *
 * <p>{@link #invoke} checks the call (preflight, no I/O), creates its PROJECTING record in the store
 * (which refuses duplicates and exhausted budgets), runs the tool, checks the raw response, projects
 * it, and completes the same record as READY or ERROR. The agent receives only the bounded
 * {@link AgentResult} or a {@link BoundaryError} from the fixed catalogue; never the raw response,
 * the request, an exception text or a store key.
 *
 * <p>Promises: a call refused in preflight creates no record and runs nothing; a call the store did
 * not confirm runs nothing; at most one execution per (run id, tool_call_id) while its record exists;
 * nothing is truncated; every failure after the record exists ends that record in ERROR with a stable
 * code. A successful call costs exactly two store calls ({@code begin}, {@code complete}).
 *
 * <p>Each record gets an execution lease at begin: {@link ToolBoundaryConfig#executionLease()} from its
 * creation, cut short by the run's deadline. A record that is still PROJECTING when its lease has
 * passed (its process stopped mid-call) can be ended with {@link #abandonExpired}, so every accepted
 * call ends.
 *
 * <p>Thread-safe; one instance serves all runs.
 */
public final class ToolBoundary {

    private final CanonicalInvocationStore store;
    private final AccessPolicy accessPolicy;
    private final Clock clock;
    private final ToolBoundaryConfig config;
    private final BoundaryListener listener;
    private final Supplier<AttemptToken> tokens;
    private final LongSupplier ticker;
    private final Map<ToolName, ToolBinding> tools;
    private final JsonArguments json;

    private ToolBoundary(Builder builder) {
        this.store = requireNonNull(builder.store, "store is not set");
        this.accessPolicy = requireNonNull(builder.accessPolicy, "accessPolicy is not set");
        this.clock = builder.clock;
        this.config = builder.config;
        this.listener = builder.listener;
        this.tokens = builder.tokens;
        this.ticker = builder.ticker;
        this.tools = Map.copyOf(builder.tools);
        this.json = new JsonArguments(config.maxJsonDepth(), config.maxNumberLength(), config.limits().requestBytes());
    }

    /** A builder; a store and an access policy are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** The names of the tools registered with this boundary; immutable. */
    public java.util.Set<ToolName> toolNames() {
        return tools.keySet();
    }

    /** The harness-side query over this boundary's store. */
    public InvocationQuery records() {
        return InvocationQuery.of(store);
    }

    /**
     * Ends the record of a call that is still PROJECTING after its execution lease has passed, by this
     * boundary's clock, in ERROR with {@link ErrorCode#EXECUTION_ABANDONED}. For the harness, after the
     * process that ran the call stopped before it finished; the record's time to live is unchanged and
     * a late completion by that process is refused.
     *
     * @param runId the run
     * @param toolCallId the exact framework tool_call_id
     * @return the ERROR record (also when it was abandoned before); {@code LEASE_NOT_EXPIRED} while the
     *     lease runs, {@code RECORD_EXPIRED} when there is no record, {@code RECORD_CONFLICT} when it is
     *     final already, or a store error
     */
    public Either<BoundaryError, CanonicalRecord.Failed> abandonExpired(RunId runId, ToolCallId toolCallId) {
        requireNonNull(runId, "runId is null");
        requireNonNull(toolCallId, "toolCallId is null");
        try {
            Either<BoundaryError, CanonicalRecord.Failed> abandoned =
                    store.abandon(InvocationKey.of(runId, toolCallId), clock.instant());
            abandoned.forEach(record -> notify(() -> listener.onCompleted(record)));
            return abandoned;
        } catch (RuntimeException unexpected) {
            notify(() -> listener.onUnexpectedFailure(unexpected.getClass()));
            return Either.left(BoundaryError.of(ErrorCode.INTERNAL_ERROR));
        }
    }

    /**
     * Runs one tool call through the boundary.
     *
     * @param run the harness's trusted facts about the run
     * @param envelope the call as the agent framework produced it
     * @return the bounded, evidence-labelled result, or a safe error
     */
    public Either<BoundaryError, AgentResult> invoke(RunContext run, ToolCallEnvelope envelope) {
        requireNonNull(run, "run is null");
        requireNonNull(envelope, "envelope is null");
        try {
            Either<BoundaryError, Admitted> admitted = preflight(run, envelope).flatMap(a -> begin(run, a));
            if (admitted.isLeft()) {
                notify(() -> listener.onRejected(envelope, admitted.getLeft()));
                return Either.left(admitted.getLeft());
            }
            return executeAndProject(admitted.get());
        } catch (Throwable unexpected) {
            rethrowIfFatal(unexpected);
            notify(() -> listener.onUnexpectedFailure(unexpected.getClass()));
            return Either.left(BoundaryError.of(ErrorCode.INTERNAL_ERROR));
        }
    }

    private Either<BoundaryError, Admitted> preflight(RunContext run, ToolCallEnvelope envelope) {
        Either<BoundaryError, ToolCallId> toolCallId = ToolCallId.of(envelope.toolCallId());
        if (toolCallId.isLeft()) {
            return Either.left(toolCallId.getLeft());
        }
        Either<BoundaryError, RunId> runId = RunId.of(envelope.runId());
        if (runId.isLeft()) {
            return Either.left(runId.getLeft());
        }
        if (!runId.get().equals(run.runId())) {
            return reject(ErrorCode.RUN_MISMATCH);
        }
        if (!run.active()) {
            return reject(ErrorCode.RUN_INACTIVE);
        }
        if (!clock.instant().isBefore(run.deadline())) {
            return reject(ErrorCode.RUN_DEADLINE_EXCEEDED);
        }
        Either<BoundaryError, ToolName> toolName = ToolName.of(envelope.toolName());
        if (toolName.isLeft()) {
            return Either.left(toolName.getLeft());
        }
        ToolBinding binding = tools.get(toolName.get());
        if (binding == null) {
            return reject(ErrorCode.TOOL_NOT_REGISTERED);
        }
        if (decideAccess(run, binding.name()) != AccessPolicy.Decision.GRANTED) {
            return reject(ErrorCode.TOOL_NOT_AUTHORIZED);
        }
        if (!binding.readOnly()) {
            return reject(ErrorCode.TOOL_NOT_READ_ONLY);
        }
        String arguments = envelope.arguments();
        if (Utf8.exceeds(arguments, config.limits().requestBytes())) {
            return reject(ErrorCode.REQUEST_TOO_LARGE);
        }
        InvocationKey key = InvocationKey.of(run.runId(), toolCallId.get());
        return json.fingerprint(arguments).map(fingerprint -> new Admitted(
                new ToolRequest(key, binding.name(), arguments), binding,
                new CanonicalRecord.Projecting(key, binding.name(), arguments, fingerprint, clock.instant()),
                tokens.get()));
    }

    private AccessPolicy.Decision decideAccess(RunContext run, ToolName tool) {
        try {
            return accessPolicy.decide(run, tool);
        } catch (RuntimeException failure) {
            return AccessPolicy.Decision.DENIED;
        }
    }

    private Either<BoundaryError, Admitted> begin(RunContext run, Admitted admitted) {
        Instant createdAt = admitted.record().createdAt();
        Instant leaseUntil = leaseUntil(createdAt, run.deadline());
        if (!leaseUntil.isAfter(createdAt)) {
            // The deadline passed while preflight ran.
            return reject(ErrorCode.RUN_DEADLINE_EXCEEDED);
        }
        InvocationStart start = new InvocationStart(admitted.record(), admitted.token(), config.recordTtl(),
                leaseUntil, run.callBudget(), admitted.binding().callBudgetPerRun());
        Either<BoundaryError, CanonicalRecord.Projecting> begun = store.begin(start);
        if (begun.isLeft() && begun.getLeft().code() == ErrorCode.STORE_OUTCOME_UNKNOWN) {
            // The record may exist; end it by token so that it never stays PROJECTING unattended.
            store.complete(admitted.token(),
                    admitted.record().fail(ErrorCode.STORE_OUTCOME_UNKNOWN, Option.none(), clock.instant()));
        }
        return begun.map(admitted::withRecord);
    }

    /** The execution lease's end: the configured lease from creation, or the run's deadline if sooner. */
    private Instant leaseUntil(Instant createdAt, Instant deadline) {
        // deadline - lease never overflows (the deadline is after creation), unlike a Duration.between
        // over centuries, which the JDK computes by throwing and catching an exception.
        Duration lease = config.executionLease();
        return createdAt.isBefore(deadline.minus(lease)) ? createdAt.plus(lease) : deadline;
    }

    private Either<BoundaryError, AgentResult> executeAndProject(Admitted call) {
        ToolRequest request = call.request();
        String raw;
        OptionalLong executionStarted = tick();
        try {
            raw = call.binding().executor().execute(request);
        } catch (Throwable failure) {
            rethrowIfFatal(failure);
            reportElapsed(executionStarted, elapsed -> listener.onExecuted(request.key(), request.tool(), elapsed));
            restoreInterrupt(failure);
            notify(() -> listener.onToolFailed(request.key(), request.tool(), failure.getClass()));
            return fail(call, ErrorCode.EXECUTION_FAILED, Option.none());
        }
        reportElapsed(executionStarted, elapsed -> listener.onExecuted(request.key(), request.tool(), elapsed));
        if (raw == null) {
            return fail(call, ErrorCode.EXECUTION_FAILED, Option.none());
        }
        long rawBytes = Utf8.wellFormedByteLength(raw);
        if (rawBytes < 0) {
            return fail(call, ErrorCode.TEXT_NOT_UNICODE, Option.none());
        }
        Limits limits = config.limits();
        // Within the raw response limit, and within the room the record has left.
        long roomInRecord = limits.recordBytes() - call.record().byteSize();
        if (rawBytes > Math.min(limits.rawResponseBytes(), roomInRecord)) {
            return fail(call, ErrorCode.RESULT_TOO_LARGE, Option.none());
        }
        Option<String> keptRaw = Option.of(raw);
        Projection projection;
        OptionalLong projectionStarted = tick();
        try {
            projection = call.binding().projector().project(request, raw);
        } catch (Throwable failure) {
            rethrowIfFatal(failure);
            reportElapsed(projectionStarted, elapsed -> listener.onProjected(request.key(), request.tool(), elapsed));
            restoreInterrupt(failure);
            notify(() -> listener.onProjectorFailed(request.key(), request.tool(), failure.getClass()));
            return fail(call, ErrorCode.PROJECTION_FAILED, keptRaw);
        }
        reportElapsed(projectionStarted, elapsed -> listener.onProjected(request.key(), request.tool(), elapsed));
        if (projection == null) {
            return fail(call, ErrorCode.PROJECTION_INVALID, keptRaw);
        }
        Either<BoundaryError, CanonicalRecord.Ready> ready = AgentResult.of(projection, limits.agentResultBytes())
                .flatMap(result -> call.record().ready(raw, result, clock.instant(), limits));
        if (ready.isLeft()) {
            return fail(call, ready.getLeft().code(), keptRaw);
        }
        return complete(call, ready.get()).map(done -> ready.get().result());
    }

    private Either<BoundaryError, AgentResult> fail(Admitted call, ErrorCode code, Option<String> raw) {
        complete(call, call.record().fail(code, raw, clock.instant()));
        return Either.left(BoundaryError.of(code));
    }

    private Either<BoundaryError, CanonicalRecord.Final> complete(Admitted call, CanonicalRecord.Final outcome) {
        Either<BoundaryError, CanonicalRecord.Final> stored = store.complete(call.token(), outcome);
        if (stored.isLeft()) {
            notify(() -> listener.onStoreFailed(call.request().key(), stored.getLeft()));
            if (stored.getLeft().code() == ErrorCode.STORE_FULL && outcome.rawResponse().isDefined()) {
                endSmallAfterStoreFull(call);
            }
        } else {
            notify(() -> listener.onCompleted(stored.get()));
        }
        return stored;
    }

    /**
     * A full store refuses a write by its size: the completion that carried the raw response may fail
     * where a record without it still fits. Ending the record in ERROR/STORE_FULL, once, keeps it from
     * staying PROJECTING; the agent gets STORE_FULL either way.
     */
    private void endSmallAfterStoreFull(Admitted call) {
        CanonicalRecord.Failed small = call.record().fail(ErrorCode.STORE_FULL, Option.none(), clock.instant());
        store.complete(call.token(), small).forEach(record -> notify(() -> listener.onCompleted(record)));
    }

    /** The ticker's reading, or none when the ticker failed: timing never changes an outcome. */
    private OptionalLong tick() {
        try {
            return OptionalLong.of(ticker.getAsLong());
        } catch (RuntimeException failure) {
            return OptionalLong.empty();
        }
    }

    private void reportElapsed(OptionalLong started, Consumer<Duration> event) {
        OptionalLong ended = tick();
        if (started.isPresent() && ended.isPresent()) {
            Duration elapsed = Duration.ofNanos(Math.max(0L, ended.getAsLong() - started.getAsLong()));
            notify(() -> event.accept(elapsed));
        }
    }

    private void notify(Runnable event) {
        try {
            event.run();
        } catch (Exception | LinkageError | AssertionError | StackOverflowError ignored) {
            // A listener never changes an outcome.
        }
    }

    /**
     * Lets the JVM's own distress through (out of memory, internal error): nothing sensible can be done
     * in a call then, and the record left PROJECTING can be abandoned later. A stack overflow and every
     * other throwable from a tool, a projector or a store end the call with a safe code.
     */
    private static void rethrowIfFatal(Throwable failure) {
        if (failure instanceof VirtualMachineError fatal && !(failure instanceof StackOverflowError)) {
            throw fatal;
        }
    }

    private static void restoreInterrupt(Throwable failure) {
        if (failure instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
    }

    private static Either<BoundaryError, Admitted> reject(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }

    /** A call that passed preflight, with the record it will create or has created. */
    private record Admitted(ToolRequest request, ToolBinding binding, CanonicalRecord.Projecting record,
            AttemptToken token) {

        Admitted withRecord(CanonicalRecord.Projecting stored) {
            return new Admitted(request, binding, stored, token);
        }
    }

    /** Builds a {@link ToolBoundary}. Not thread-safe; the boundary it builds is. */
    public static final class Builder {
        private CanonicalInvocationStore store;
        private AccessPolicy accessPolicy;
        private Clock clock = Clock.systemUTC();
        private ToolBoundaryConfig config = ToolBoundaryConfig.ofDefaults();
        private BoundaryListener listener = BoundaryListener.noop();
        private Supplier<AttemptToken> tokens = AttemptToken::random;
        private LongSupplier ticker = System::nanoTime;
        private final Map<ToolName, ToolBinding> tools = new LinkedHashMap<>();

        private Builder() {
        }

        /** The store of canonical records. Required. */
        public Builder store(CanonicalInvocationStore store) {
            this.store = requireNonNull(store, "store is null");
            return this;
        }

        /** The harness's access decisions. Required: there is no default that grants access. */
        public Builder accessPolicy(AccessPolicy accessPolicy) {
            this.accessPolicy = requireNonNull(accessPolicy, "accessPolicy is null");
            return this;
        }

        /** The clock for deadlines and timestamps; defaults to the system UTC clock. */
        public Builder clock(Clock clock) {
            this.clock = requireNonNull(clock, "clock is null");
            return this;
        }

        /** Limits, TTL and execution lease; defaults to {@link ToolBoundaryConfig#ofDefaults()}. */
        public Builder config(ToolBoundaryConfig config) {
            this.config = requireNonNull(config, "config is null");
            return this;
        }

        /** Harness-side diagnostics; defaults to none. */
        public Builder listener(BoundaryListener listener) {
            this.listener = requireNonNull(listener, "listener is null");
            return this;
        }

        /**
         * The source of attempt tokens; defaults to {@link AttemptToken#random()}. Every call must get a
         * token no other call has: a repeated token makes a concurrent duplicate look like a retry of the
         * same attempt.
         */
        public Builder tokens(Supplier<AttemptToken> tokens) {
            this.tokens = requireNonNull(tokens, "tokens is null");
            return this;
        }

        /**
         * The source of nanosecond readings for the durations reported to {@link BoundaryListener#onExecuted}
         * and {@link BoundaryListener#onProjected}; defaults to {@link System#nanoTime()}. Only differences
         * between two readings are used, so it need not relate to wall-clock time; a reading that goes
         * backwards is reported as zero, and a ticker that throws suppresses that report and changes no
         * outcome.
         */
        public Builder ticker(LongSupplier ticker) {
            this.ticker = requireNonNull(ticker, "ticker is null");
            return this;
        }

        /**
         * Registers a tool.
         *
         * @throws IllegalArgumentException when a tool of that name is already registered
         */
        public Builder tool(ToolBinding binding) {
            requireNonNull(binding, "binding is null");
            if (tools.putIfAbsent(binding.name(), binding) != null) {
                throw new IllegalArgumentException("tool already registered: " + binding.name());
            }
            return this;
        }

        /**
         * The boundary.
         *
         * @throws NullPointerException when the store or the access policy is not set
         */
        public ToolBoundary build() {
            return new ToolBoundary(this);
        }
    }
}
