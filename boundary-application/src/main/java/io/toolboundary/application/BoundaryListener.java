package io.toolboundary.application;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.time.Duration;

/**
 * Harness-side diagnostics: a listener may see exception types, never their messages or stack traces. Every
 * method has a no-op default; an exception a listener throws is ignored. Each call ends with exactly one of
 * {@link #onRejected}, {@link #onCompleted}, {@link #onStoreFailed}, {@link #onReplayed} or
 * {@link #onUnexpectedFailure}, after {@link #onExecuted} and {@link #onProjected} when those ran.
 *
 * <p>Each {@link ToolBoundary#invoke} is also bracketed, on the calling thread: {@link #onStarted} first,
 * before preflight, and {@link #onFinished} last, exactly once, with what the agent got. Every other event of
 * the call comes between the two on the same thread, so a listener may keep per-call state (a span, a scope)
 * from {@link #onStarted} to {@link #onFinished}. The repair calls ({@link ToolBoundary#endUnfinished},
 * {@link ToolBoundary#abandonExpired}) and {@link ToolBoundary#openRun} are not calls: they may report
 * {@link #onCompleted} or {@link #onUnexpectedFailure} with no bracket around them.
 */
public interface BoundaryListener {

    /**
     * A call entered {@link ToolBoundary#invoke}: reported on the calling thread before preflight, before any
     * other event of the call; {@link #onFinished} follows on the same thread exactly once.
     *
     * @param run the run's facts the harness passed
     * @param envelope the call as the framework supplied it, unchecked
     */
    default void onStarted(RunContext run, ToolCallEnvelope envelope) {
    }

    /**
     * A call left {@link ToolBoundary#invoke}: the last event of the call, on the thread of its
     * {@link #onStarted}, exactly once per call, also when the boundary closed it with {@code INTERNAL_ERROR}
     * or the JVM's own distress is thrown through it (then reported as {@code INTERNAL_ERROR}).
     *
     * @param run the run's facts the harness passed
     * @param envelope the call as the framework supplied it
     * @param outcome what the agent got: the bounded result or the safe error
     */
    default void onFinished(RunContext run, ToolCallEnvelope envelope, Either<BoundaryError, AgentResult> outcome) {
    }

    /**
     * A call was refused before its tool ran (preflight, duplicate, budget or store refusal).
     *
     * @param envelope the refused call as the framework supplied it
     * @param error why it was refused
     */
    default void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
    }

    /**
     * The tool threw; the record ends in ERROR/EXECUTION_FAILED.
     *
     * @param key the call
     * @param tool the registered tool
     * @param failure the type of what the tool threw
     */
    default void onToolFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
    }

    /**
     * The projector threw; the record ends in ERROR/PROJECTION_FAILED.
     *
     * @param key the call
     * @param tool the registered tool
     * @param failure the type of what the projector threw
     */
    default void onProjectorFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
    }

    /**
     * The store refused or failed to record a completion; the agent got an error.
     *
     * @param key the call
     * @param error the store error the agent got
     */
    default void onStoreFailed(InvocationKey key, BoundaryError error) {
    }

    /**
     * A call's record may be left PROJECTING: the store gave no definite answer and the boundary could not end
     * the record within its budget; the agent got {@code STORE_OUTCOME_UNKNOWN}. Pass the pair to
     * {@link ToolBoundary#endUnfinished} once the store answers again; until then the record is never citable.
     *
     * @param key the call
     * @param token the attempt that began the record
     */
    default void onUnfinished(InvocationKey key, AttemptToken token) {
    }

    /**
     * The boundary itself failed unexpectedly and closed with INTERNAL_ERROR.
     *
     * @param failure the type of what was thrown
     */
    default void onUnexpectedFailure(Class<? extends Throwable> failure) {
    }

    /**
     * A record reached its final state in the store: a call's completion, or a repair
     * ({@link ToolBoundary#endUnfinished}, {@link ToolBoundary#abandonExpired}). A record that a call's own
     * clean-up ends after a refused begin or completion is reported by that call's {@link #onRejected} or
     * {@link #onStoreFailed} alone, so that each call has one terminal event.
     *
     * @param record the READY or ERROR record as stored
     */
    default void onCompleted(CanonicalRecord.Final record) {
    }

    /**
     * A repeated call was answered with the result of the READY record its key already held, under
     * {@link ToolBoundaryConfig.Builder#replayReadyDuplicates(boolean)}: the tool did not run and the record is unchanged.
     *
     * @param record the READY record whose agent result the call was given again
     */
    default void onReplayed(CanonicalRecord.Ready record) {
    }

    /**
     * The time a call spent in store calls (its begin and completion, and any read or clean-up they needed),
     * once per call that reached the store, after its last store call and before {@link #onFinished}; a
     * call refused before the store (preflight) reports none.
     *
     * @param key the call's canonical key
     * @param elapsed the summed duration of the call's store calls, by the monotonic clock
     */
    default void onStoreTime(InvocationKey key, Duration elapsed) {
    }

    /**
     * The tool's executor returned or threw. Reported for every execution, before {@link #onToolFailed}
     * when it threw.
     *
     * @param key the call
     * @param tool the registered tool
     * @param elapsed how long the executor ran, measured by the boundary's ticker; never negative
     */
    default void onExecuted(InvocationKey key, ToolName tool, Duration elapsed) {
    }

    /**
     * The projector returned or threw. Reported for every projection, before {@link #onProjectorFailed}
     * when it threw; not reported when the projector was not called (for example a raw response over its
     * limit).
     *
     * @param key the call
     * @param tool the registered tool
     * @param elapsed how long the projector ran, measured by the boundary's ticker; never negative
     */
    default void onProjected(InvocationKey key, ToolName tool, Duration elapsed) {
    }

    /**
     * One listener that forwards every event to each of {@code listeners} in order, for example metrics
     * and the harness's own diagnostics. A listener that throws does not keep the others from the event.
     *
     * @param listeners the listeners, none of them null
     * @return a listener that forwards to all of them
     */
    static BoundaryListener composite(BoundaryListener... listeners) {
        java.util.Objects.requireNonNull(listeners, "listeners is null");
        for (BoundaryListener listener : listeners) {
            java.util.Objects.requireNonNull(listener, "a listener is null");
        }
        return new CompositeListener(java.util.List.of(listeners));
    }

    /** {@return a listener that does nothing} */
    static BoundaryListener noop() {
        return NoopListener.INSTANCE;
    }
}
