package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.RunId;
import java.time.Instant;

/**
 * The harness's trusted facts about the run a tool call belongs to. Passed explicitly to every call;
 * never taken from the agent's envelope and never kept in a thread-local.
 *
 * @param runId the run
 * @param active false once the harness has stopped or cancelled the run
 * @param deadline the instant from which the run may make no more calls
 * @param callBudget how many tool calls the whole run may start, all tools together
 */
public record RunContext(RunId runId, boolean active, Instant deadline, int callBudget) {

    /** A budget that never runs out. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    /**
     * Builds the run's facts.
     *
     * @param runId the run
     * @param active false once the harness has stopped or cancelled the run
     * @param deadline the instant from which the run may make no more calls
     * @param callBudget how many tool calls the whole run may start, all tools together
     * @throws IllegalArgumentException when the budget is negative
     */
    public RunContext {
        requireNonNull(runId, "runId is null");
        requireNonNull(deadline, "deadline is null");
        if (callBudget < 0) {
            throw new IllegalArgumentException("callBudget must not be negative, was " + callBudget);
        }
    }

    /**
     * {@return an active run}
     *
     * @param runId the run
     * @param deadline the instant from which the run may make no more calls
     * @param callBudget how many tool calls the whole run may start; {@link #UNLIMITED} for no limit
     */
    public static RunContext active(RunId runId, Instant deadline, int callBudget) {
        return new RunContext(runId, true, deadline, callBudget);
    }

    /** {@return the same run, no longer active} */
    public RunContext deactivated() {
        return new RunContext(runId, false, deadline, callBudget);
    }
}
