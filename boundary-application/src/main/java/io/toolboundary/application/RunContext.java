package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.RunId;
import io.vavr.control.Option;
import java.time.Instant;

/**
 * The harness's trusted facts about the run a tool call belongs to, passed explicitly to every call, never taken
 * from the envelope or a thread-local. Only a context opened by {@link ToolBoundary#openRun} runs calls.
 *
 * @param runId the run
 * @param active false once the harness has stopped or cancelled the run
 * @param deadline the instant from which the run may make no more calls
 * @param callBudget how many tool calls the whole run may start, all tools together
 * @param runToken the token the store opened the run with; none until {@link ToolBoundary#openRun}
 */
public record RunContext(RunId runId, boolean active, Instant deadline, int callBudget, Option<RunToken> runToken) {

    /** A budget that never runs out. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    /**
     * Builds the run's facts.
     *
     * @param runId the run
     * @param active false once the harness has stopped or cancelled the run
     * @param deadline the instant from which the run may make no more calls
     * @param callBudget how many tool calls the whole run may start, all tools together
     * @param runToken the token the store opened the run with, or none
     * @throws IllegalArgumentException when the budget is negative
     */
    public RunContext {
        requireNonNull(runId, "runId is null");
        requireNonNull(deadline, "deadline is null");
        requireNonNull(runToken, "runToken is null");
        if (callBudget < 0) {
            throw new IllegalArgumentException("callBudget must not be negative, was " + callBudget);
        }
    }

    /**
     * {@return an active run, not opened yet: pass it to {@link ToolBoundary#openRun}}
     *
     * @param runId the run
     * @param deadline the instant from which the run may make no more calls
     * @param callBudget how many tool calls the whole run may start; {@link #UNLIMITED} for no limit
     */
    public static RunContext active(RunId runId, Instant deadline, int callBudget) {
        return new RunContext(runId, true, deadline, callBudget, Option.none());
    }

    /** {@return the same run, no longer active} */
    public RunContext deactivated() {
        return new RunContext(runId, false, deadline, callBudget, runToken);
    }

    /**
     * {@return the same run, opened in the store with {@code token}} For {@link ToolBoundary#openRun}, and
     * for a harness that resumes a run it opened before (in another process) with the token it kept.
     *
     * @param token the token the store holds for the run
     */
    public RunContext opened(RunToken token) {
        return new RunContext(runId, active, deadline, callBudget, Option.some(requireNonNull(token, "token is null")));
    }
}
