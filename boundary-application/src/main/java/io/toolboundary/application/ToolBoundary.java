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
        return InvocationQuery.of(store, config.storeTimeout());
    }

    /**
     * Ends a record that {@link BoundaryListener#onUnfinished} reported, by its attempt's token, in
     * ERROR with {@link ErrorCode#STORE_OUTCOME_UNKNOWN} when it is still PROJECTING. Safe to repeat;
     * harmless when the record never came to exist. For the harness, once the store answers again.
     *
     * @param key the call
     * @param token the attempt the listener named
     * @return the final record (left as it is when the attempt's own completion had landed),
     *     {@code RECORD_EXPIRED} when there is no record, {@code RECORD_CONFLICT} when it belongs to
     *     another attempt, or a store error (try again later)
     */
    public Either<BoundaryError, CanonicalRecord.Final> endUnfinished(InvocationKey key, AttemptToken token) {
        requireNonNull(key, "key is null");
        requireNonNull(token, "token is null");
        try {
            Either<BoundaryError, CanonicalRecord.Final> ended = store.end(key, token, ErrorCode.STORE_OUTCOME_UNKNOWN,
                    clock.instant(), config.storeTimeout());
            ended.forEach(record -> notify(() -> listener.onCompleted(record)));
            return ended;
        } catch (RuntimeException unexpected) {
            notify(() -> listener.onUnexpectedFailure(unexpected.getClass()));
            return Either.left(BoundaryError.of(ErrorCode.INTERNAL_ERROR));
        }
    }

    /**
     * Ends the record of a call that is still PROJECTING after its execution lease has passed, by the
     * store's own clock (never this boundary's), in ERROR with {@link ErrorCode#EXECUTION_ABANDONED}. For the harness, after the
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
                    store.abandon(InvocationKey.of(runId, toolCallId), clock.instant(), config.storeTimeout());
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
            StoreBudget budget = new StoreBudget(config.storeTimeout());
            Either<BoundaryError, Admitted> admitted = preflight(run, envelope).flatMap(a -> begin(run, a, budget));
            if (admitted.isLeft()) {
                notify(() -> listener.onRejected(envelope, admitted.getLeft()));
                return Either.left(admitted.getLeft());
            }
            return executeAndProject(admitted.get(), budget);
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
        return json.fingerprint(binding.name(), arguments).map(fingerprint -> new Admitted(
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

    private Either<BoundaryError, Admitted> begin(RunContext run, Admitted admitted, StoreBudget budget) {
        Instant createdAt = admitted.record().createdAt();
        Instant leaseUntil = leaseUntil(createdAt, run.deadline());
        if (!leaseUntil.isAfter(createdAt)) {
            // The deadline passed while preflight ran.
            return reject(ErrorCode.RUN_DEADLINE_EXCEEDED);
        }
        // The store measures the lease from the record's creation by its own clock, never by this one.
        Duration lease = Duration.between(createdAt, leaseUntil);
        InvocationStart start = new InvocationStart(admitted.record(), admitted.token(), config.recordTtl(),
                lease, run.callBudget(), admitted.binding().callBudgetPerRun(), config.limits().recordBytes());
        // Half the budget at most, and never past the run's deadline: the rest is kept for ending the record.
        Duration beforeDeadline = Duration.between(clock.instant(), run.deadline());
        Either<BoundaryError, CanonicalRecord.Projecting> begun =
                store.begin(start, budget.forBegin(beforeDeadline));
        if (begun.isLeft() && begun.getLeft().code() == ErrorCode.STORE_OUTCOME_UNKNOWN) {
            // The record may exist; end it by token so that it never stays PROJECTING unattended.
            endOrHandOver(admitted, budget);
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

    private Either<BoundaryError, AgentResult> executeAndProject(Admitted call, StoreBudget budget) {
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
            return fail(call, budget, ErrorCode.EXECUTION_FAILED, Option.none());
        }
        reportElapsed(executionStarted, elapsed -> listener.onExecuted(request.key(), request.tool(), elapsed));
        if (raw == null) {
            return fail(call, budget, ErrorCode.EXECUTION_FAILED, Option.none());
        }
        long rawBytes = Utf8.wellFormedByteLength(raw);
        if (rawBytes < 0) {
            return fail(call, budget, ErrorCode.TEXT_NOT_UNICODE, Option.none());
        }
        Limits limits = config.limits();
        // Within the raw response limit, and within the room the record has left.
        long roomInRecord = limits.recordBytes() - call.record().byteSize();
        if (rawBytes > Math.min(limits.rawResponseBytes(), roomInRecord)) {
            return fail(call, budget, ErrorCode.RESULT_TOO_LARGE, Option.none());
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
            return fail(call, budget, ErrorCode.PROJECTION_FAILED, keptRaw);
        }
        reportElapsed(projectionStarted, elapsed -> listener.onProjected(request.key(), request.tool(), elapsed));
        if (projection == null) {
            return fail(call, budget, ErrorCode.PROJECTION_INVALID, keptRaw);
        }
        Either<BoundaryError, CanonicalRecord.Ready> ready = AgentResult.of(projection, limits.agentResultBytes())
                .flatMap(result -> call.record().ready(raw, result, clock.instant(), limits));
        if (ready.isLeft()) {
            return fail(call, budget, ready.getLeft().code(), keptRaw);
        }
        return complete(call, ready.get(), budget).map(done -> ready.get().result());
    }

    private Either<BoundaryError, AgentResult> fail(Admitted call, StoreBudget budget, ErrorCode code,
            Option<String> raw) {
        return complete(call, call.record().fail(code, raw, clock.instant()), budget)
                .<AgentResult>flatMap(done -> Either.left(BoundaryError.of(code)));
    }

    /**
     * Completes the record and says what the agent may be told: the stored record, or the error that
     * matches what the store holds. The tool has run, so a store failure is never "nothing happened":
     * an unconfirmed completion is {@code STORE_OUTCOME_UNKNOWN}, a completion that lost to an
     * abandonment answers the stored record's code, and a record refused by size or a full store is
     * ended small, by token.
     */
    private Either<BoundaryError, CanonicalRecord.Final> complete(Admitted call, CanonicalRecord.Final outcome,
            StoreBudget budget) {
        Either<BoundaryError, CanonicalRecord.Final> first = store.complete(call.token(), outcome, budget.remaining());
        // The same completion again, by the same token, is harmless and may get a definite answer.
        Either<BoundaryError, CanonicalRecord.Final> stored =
                first.isLeft() && isUnconfirmed(first.getLeft().code()) && budget.hasTimeLeft()
                        ? store.complete(call.token(), outcome, budget.remaining())
                        : first;
        if (stored.isRight()) {
            notify(() -> listener.onCompleted(stored.get()));
            return stored;
        }
        BoundaryError refused = stored.getLeft();
        notify(() -> listener.onStoreFailed(call.request().key(), refused));
        return switch (refused.code()) {
            case STORE_OUTCOME_UNKNOWN, STORE_UNAVAILABLE -> {
                notify(() -> listener.onUnfinished(call.request().key(), call.token()));
                yield Either.left(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN));
            }
            case RECORD_CONFLICT -> Either.left(storedCode(call, budget).getOrElse(refused));
            case RECORD_EXPIRED -> Either.left(refused);
            // STORE_FULL, RESULT_TOO_LARGE, TEXT_NOT_UNICODE, STORE_DATA_INVALID: nothing was written.
            default -> endOrHandOver(call, refused.code(), budget);
        };
    }

    /** The error code of the record as stored, when it is an ERROR record this attempt no longer owns. */
    private Option<BoundaryError> storedCode(Admitted call, StoreBudget budget) {
        if (!budget.hasTimeLeft()) {
            return Option.none();
        }
        return store.find(call.request().key(), budget.remaining()).toOption().flatMap(found -> found)
                .filter(CanonicalRecord.Failed.class::isInstance)
                .map(record -> BoundaryError.of(((CanonicalRecord.Failed) record).code()));
    }

    /** Ends a record whose begin got no definite answer, or hands it over to the harness. */
    private void endOrHandOver(Admitted call, StoreBudget budget) {
        endOrHandOver(call, ErrorCode.STORE_OUTCOME_UNKNOWN, budget);
    }

    /**
     * Ends the attempt's record in ERROR with {@code code}, by token, within what is left of the budget;
     * when that gets no definite answer either, hands the record over to the harness
     * ({@link BoundaryListener#onUnfinished}). The agent is told {@code code} when the record now holds
     * it and {@code STORE_OUTCOME_UNKNOWN} otherwise.
     */
    private <T> Either<BoundaryError, T> endOrHandOver(Admitted call, ErrorCode code, StoreBudget budget) {
        InvocationKey key = call.request().key();
        Either<BoundaryError, CanonicalRecord.Final> ended = budget.hasTimeLeft()
                ? store.end(key, call.token(), code, clock.instant(), budget.remaining())
                : Either.left(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN));
        if (ended.isRight()) {
            CanonicalRecord.Final record = ended.get();
            notify(() -> listener.onCompleted(record));
            ErrorCode told = record instanceof CanonicalRecord.Failed failed ? failed.code() : ErrorCode.STORE_OUTCOME_UNKNOWN;
            return Either.left(BoundaryError.of(told));
        }
        ErrorCode endCode = ended.getLeft().code();
        if (endCode == ErrorCode.RECORD_EXPIRED || endCode == ErrorCode.RECORD_CONFLICT) {
            // No record of this attempt exists (or it is gone): nothing is left PROJECTING by it.
            return Either.left(BoundaryError.of(code));
        }
        notify(() -> listener.onUnfinished(key, call.token()));
        return Either.left(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN));
    }

    private static boolean isUnconfirmed(ErrorCode code) {
        return code == ErrorCode.STORE_OUTCOME_UNKNOWN || code == ErrorCode.STORE_UNAVAILABLE;
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

    /**
     * The store time one call may still spend: it starts when the call does and never grows. Readings
     * come from {@link System#nanoTime()}, never from the boundary's clock, which may be a test's.
     */
    private static final class StoreBudget {
        private final Duration total;
        private final long deadlineNanos;

        StoreBudget(Duration total) {
            this.total = total;
            this.deadlineNanos = System.nanoTime() + total.toNanos();
        }

        /** Half the budget at most, and no more than {@code beforeDeadline}; at least one millisecond. */
        Duration forBegin(Duration beforeDeadline) {
            Duration half = total.dividedBy(2);
            Duration bound = beforeDeadline.compareTo(half) < 0 ? beforeDeadline : half;
            return atLeastOneMilli(min(bound, remaining()));
        }

        Duration remaining() {
            return atLeastOneMilli(Duration.ofNanos(deadlineNanos - System.nanoTime()));
        }

        boolean hasTimeLeft() {
            return deadlineNanos - System.nanoTime() > 0;
        }

        private static Duration min(Duration a, Duration b) {
            return a.compareTo(b) <= 0 ? a : b;
        }

        private static Duration atLeastOneMilli(Duration d) {
            return d.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : d;
        }
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
         * @throws IllegalArgumentException when the store's own record cap is below the config's record
         *     limit
         */
        public ToolBoundary build() {
            requireNonNull(store, "store is not set");
            java.util.OptionalLong cap = store.recordCapBytes();
            if (cap.isPresent() && cap.getAsLong() < config.limits().recordBytes()) {
                throw new IllegalArgumentException("the store holds records of at most " + cap.getAsLong()
                        + " bytes, below the configured recordLimitBytes of " + config.limits().recordBytes()
                        + ": lower the config's limit or raise the store's cap");
            }
            return new ToolBoundary(this);
        }
    }
}
