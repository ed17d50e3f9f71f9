package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The one boundary every tool call passes. {@link #invoke} takes a call through six steps (preflight
 * without I/O, begin, execute, check, project, complete; see the README's call flow): the tool runs at
 * most once per (run id, tool_call_id) while the store holds the run, and the agent receives only a
 * bounded {@link AgentResult} or a {@link BoundaryError}, never the raw response, the request, an
 * exception text or a store key. A successful call costs two store calls. A record left PROJECTING past
 * its execution lease can be ended with {@link #abandonExpired}. Thread-safe; one instance serves all runs.
 */
public final class ToolBoundary {

    private final Diagnostics diagnostics;
    private final Preflight preflight;
    private final StoreSteps storeSteps;
    private final Execution execution;
    private final Supplier<RunToken> runTokens;

    ToolBoundary(ToolBoundaryBuilder builder) {
        if (builder.store == null) {
            throw new IllegalStateException("no store is set: call store(...) with InMemoryCanonicalInvocationStore"
                    + ".create() (boundary-adapter-inmemory) or a RedisCanonicalInvocationStore before build()");
        }
        if (builder.accessPolicy == null) {
            throw new IllegalStateException("no access policy is set: call accessPolicy(AccessPolicy.allowOnly(\"a-tool\","
                    + " ...)) or accessPolicy(AccessPolicy.allowAll()) before build(); nothing is granted by default");
        }
        CanonicalInvocationStore store = builder.store;
        StoreSteps.requireRoomForRecords(store, builder.config);
        AccessPolicy accessPolicy = builder.accessPolicy;
        if (accessPolicy instanceof AllowOnly allowOnly) {
            allowOnly.requireRegistered(builder.tools.keySet());
        }
        this.diagnostics = new Diagnostics(builder.listener, builder.ticker);
        this.preflight = new Preflight(builder.tools, accessPolicy, builder.clock, builder.config, builder.tokens);
        this.storeSteps = new StoreSteps(store, builder.clock, builder.config, diagnostics);
        this.execution = new Execution(builder.clock, builder.config.limits(), diagnostics);
        this.runTokens = RunToken::random;
    }

    /** {@return a new builder with the defaults; a store and an access policy are required} */
    public static ToolBoundaryBuilder builder() {
        return new ToolBoundaryBuilder();
    }

    /** {@return the names of the tools registered with this boundary, immutable} */
    public Set<ToolName> toolNames() {
        return preflight.toolNames();
    }

    /**
     * {@return the record, none when there is none (or it expired), or a store error} For the harness, never the
     * agent; waits at most the store timeout.
     *
     * @param runId the run
     * @param toolCallId the exact framework tool_call_id
     */
    public Either<BoundaryError, Option<CanonicalRecord>> find(RunId runId, ToolCallId toolCallId) {
        return storeSteps.records().find(runId, toolCallId);
    }

    /**
     * {@return the records of a run's named calls, by tool_call_id (a call without a live record is absent),
     * or a store error} One store read for them all (with the shipped stores); for the harness, never the
     * agent; waits at most the store timeout.
     *
     * @param runId the run
     * @param toolCallIds the exact framework tool_call_ids, at most {@value CanonicalInvocationStore#MAX_FIND_ALL}
     * @throws IllegalArgumentException when more are named
     */
    public Either<BoundaryError, Map<ToolCallId, CanonicalRecord>> findAll(RunId runId,
            Set<ToolCallId> toolCallIds) {
        return storeSteps.records().findAll(runId, toolCallIds);
    }

    /**
     * Says how the record of a call may be cited: as evidence (READY, EVIDENCE_FOUND), only as a scoped
     * negative observation (READY, NO_EVIDENCE), or not at all (PROJECTING, ERROR, missing).
     *
     * @param runId the run
     * @param toolCallId the exact framework tool_call_id
     * @return how the record may be cited ({@code NOT_REFERENCABLE} when there is none), or a store error
     */
    public Either<BoundaryError, Referencability> referencability(RunId runId, ToolCallId toolCallId) {
        return storeSteps.records().referencability(runId, toolCallId);
    }

    /**
     * Says how each of a run's named calls may be cited, as {@link #referencability(RunId, ToolCallId)} does
     * for one, in one store read that carries no request or raw response (with the shipped stores); a call
     * with no live record is absent, which is {@code NOT_REFERENCABLE}. For the harness and the citation check.
     *
     * @param runId the run
     * @param toolCallIds the exact framework tool_call_ids, at most {@value CanonicalInvocationStore#MAX_FIND_ALL}
     * @return how each call with a record may be cited, or a store error
     * @throws IllegalArgumentException when more are named
     */
    public Either<BoundaryError, Map<ToolCallId, Referencability>> referencability(RunId runId,
            Set<ToolCallId> toolCallIds) {
        return storeSteps.records().referencabilities(runId, toolCallIds);
    }

    /**
     * The text a model receives for a call, the one format of every integration (see {@link #invoke}):
     * {@code EVIDENCE_FOUND} or {@code NO_EVIDENCE (scope: <scope>)} and the content, or
     * {@code ERROR <CODE>: <safe message>}.
     *
     * @param outcome what {@link #invoke} returned
     * @return the text for the model
     */
    public static String agentText(Either<BoundaryError, AgentResult> outcome) {
        return AgentText.of(outcome);
    }

    /**
     * Opens a run in the store, once, when it starts, and answers the run's facts with the store's token: pass
     * that context to every call of the run. Opening a held run again changes nothing. Once the store has lost
     * the run, its calls are refused with {@link ErrorCode#RUN_STATE_LOST}: start a new run id (reopening the
     * lost one would let its calls run again). A context never opened is refused with
     * {@link ErrorCode#RUN_NOT_OPENED}; another process of the run uses {@link RunContext#opened}.
     *
     * @param run the run's facts, opened or not
     * @return the same facts with the run's token; {@code RUN_INACTIVE} or {@code RUN_DEADLINE_EXCEEDED}
     *     (nothing stored), or a store error (the run may be opened or not: open it again, or give up)
     */
    public Either<BoundaryError, RunContext> openRun(RunContext run) {
        requireNonNull(run, "run is null");
        try {
            return storeSteps.openRun(run, runTokens.get());
        } catch (RuntimeException unexpected) {
            return Either.left(diagnostics.unexpected(unexpected));
        }
    }

    /**
     * Ends a record that {@link BoundaryListener#onUnfinished} reported, by its attempt's token, in ERROR
     * with {@link ErrorCode#STORE_OUTCOME_UNKNOWN} when still PROJECTING. Safe to repeat, harmless when the
     * record never came to exist.
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
        return storeSteps.endUnfinished(key, token);
    }

    /**
     * Ends the record of a call still PROJECTING past its execution lease, by the store's own clock, in
     * ERROR with {@link ErrorCode#EXECUTION_ABANDONED}, its TTL unchanged; a late completion is refused.
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
        return storeSteps.abandonExpired(InvocationKey.of(runId, toolCallId));
    }

    /**
     * Ends every record of a run still PROJECTING past its execution lease, as
     * {@link #abandonExpired(RunId, ToolCallId)} does for one, over a paged listing of the run's records. Safe to
     * repeat; each store call waits at most the store timeout.
     *
     * @param runId the run
     * @return what was looked at, abandoned, still leased and failed; a store error when the first listing
     *     failed (nothing was changed)
     */
    public Either<BoundaryError, SweepSummary> abandonExpired(RunId runId) {
        requireNonNull(runId, "runId is null");
        return storeSteps.abandonExpired(runId);
    }

    /**
     * {@return the bounded, evidence-labelled result of one tool call, run with its registered executor, or a safe
     * error}
     *
     * @param run the harness's trusted facts about the run
     * @param envelope the call as the agent framework produced it
     */
    public Either<BoundaryError, AgentResult> invoke(RunContext run, ToolCallEnvelope envelope) {
        return invoke(run, envelope, Option.none());
    }

    /**
     * Runs one tool call through the boundary with {@code executor} in place of the registered one, for
     * this call only: an integration passes the framework's own handler of the call. Everything else
     * (access, read-only, budgets, projector, limits) is the registered tool's.
     *
     * @param run the harness's trusted facts about the run
     * @param envelope the call as the agent framework produced it
     * @param executor runs this call's tool, at most once, after its record is begun
     * @return the bounded, evidence-labelled result, or a safe error
     */
    public Either<BoundaryError, AgentResult> invoke(RunContext run, ToolCallEnvelope envelope,
            ToolExecutor executor) {
        return invoke(run, envelope, Option.of(requireNonNull(executor, "executor is null")));
    }

    private Either<BoundaryError, AgentResult> invoke(RunContext run, ToolCallEnvelope envelope,
            Option<ToolExecutor> executor) {
        requireNonNull(run, "run is null");
        requireNonNull(envelope, "envelope is null");
        BoundaryListener listener = diagnostics.listener();
        listener.onStarted(run, envelope);
        Either<BoundaryError, AgentResult> outcome = null;
        try {
            outcome = checked(run, envelope, executor);
            return outcome;
        } finally {
            // Once per call, also when the JVM's own distress is thrown through: a listener's scope never leaks.
            listener.onFinished(run, envelope,
                    outcome != null ? outcome : Either.left(BoundaryError.of(ErrorCode.INTERNAL_ERROR)));
        }
    }

    /** Steps 1 to 6 of a call, between the listener's {@code onStarted} and {@code onFinished}. */
    private Either<BoundaryError, AgentResult> checked(RunContext run, ToolCallEnvelope envelope,
            Option<ToolExecutor> executor) {
        try {
            Either<BoundaryError, AdmittedCall> admitted = preflight.check(run, envelope);      // 1. preflight
            if (admitted.isLeft()) {
                return rejected(envelope, admitted.getLeft());
            }
            AdmittedCall checked = executor.isDefined() ? admitted.get().withExecutor(executor.get()) : admitted.get();
            // The store budget starts with the first store call: preflight makes none.
            StoreBudget budget = storeSteps.budget();
            try {
                Either<StoreSteps.NotBegun, CanonicalRecord.Projecting> begun = storeSteps.begin(run, checked, budget); // 2. begin
                if (begun.isLeft()) {
                    return replayedOrRejected(envelope, checked, begun.getLeft(), budget);
                }
                AdmittedCall call = checked.withRecord(begun.get());
                return storeSteps.complete(call, outcome(call), budget);                       // 6. complete
            } finally {
                diagnostics.listener().onStoreTime(checked.key(), budget.spent());
            }
        } catch (Throwable unexpected) {
            return Either.left(diagnostics.unexpected(unexpected));
        }
    }

    /** A duplicate answered from its READY record when {@link ToolBoundaryConfig#replayReadyDuplicates()}, else the refusal. */
    private Either<BoundaryError, AgentResult> replayedOrRejected(ToolCallEnvelope envelope, AdmittedCall call,
            StoreSteps.NotBegun refused, StoreBudget budget) {
        Option<CanonicalRecord.Ready> replayed = storeSteps.replayable(call, refused, budget);
        if (replayed.isDefined()) {
            diagnostics.listener().onReplayed(replayed.get());
            return Either.right(replayed.get().result());
        }
        return rejected(envelope, refused.error());
    }

    private Either<BoundaryError, AgentResult> rejected(ToolCallEnvelope envelope, BoundaryError refused) {
        diagnostics.listener().onRejected(envelope, refused);
        return Either.left(refused);
    }

    /** Steps 3 to 5 of a begun call: the READY record it ends with, or the ERROR record of the first failure. */
    private CanonicalRecord.Final outcome(AdmittedCall call) {
        Either<Throwable, String> executed = execution.execute(call);                      // 3. execute
        if (executed.isLeft()) {
            return execution.toolFailed(call, executed.getLeft());
        }
        Either<BoundaryError, String> checked = execution.checkRawResponse(call, executed.get()); // 4. check
        if (checked.isLeft()) {
            return execution.failed(call, checked.getLeft().code());
        }
        return execution.project(call, checked.get());                                     // 5. project
    }
}
