package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.ToolName;

/**
 * The registration of one tool: its name, executor, projector, whether it only reads, and how many
 * times one run may call it.
 *
 * @param name the name agents call it by
 * @param executor runs the tool
 * @param projector turns its raw response into an agent result
 * @param readOnly false for a tool that writes; the boundary refuses to run such a tool
 * @param callBudgetPerRun how many calls of this tool one run may start
 */
public record ToolBinding(ToolName name, ToolExecutor executor, Projector projector, boolean readOnly,
        int callBudgetPerRun) {

    /** A budget that never runs out. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    /**
     * Builds a registration.
     *
     * @param name the name agents call it by
     * @param executor runs the tool
     * @param projector turns its raw response into an agent result
     * @param readOnly false for a tool that writes; the boundary refuses to run such a tool
     * @param callBudgetPerRun how many calls of this tool one run may start
     * @throws IllegalArgumentException when the budget is negative
     */
    public ToolBinding {
        requireNonNull(name, "name is null");
        requireNonNull(executor, "executor is null");
        requireNonNull(projector, "projector is null");
        if (callBudgetPerRun < 0) {
            throw new IllegalArgumentException("callBudgetPerRun must not be negative, was " + callBudgetPerRun);
        }
    }

    /**
     * A read-only tool with an unlimited budget.
     *
     * @throws IllegalArgumentException when the name is not a safe identifier
     * @param name the name agents call it by
     * @param executor runs the tool
     * @param projector turns its raw response into an agent result
     * @return the registration of a read-only tool
     */
    public static ToolBinding readOnly(String name, ToolExecutor executor, Projector projector) {
        return new ToolBinding(new ToolName(name), executor, projector, true, UNLIMITED);
    }

    /**
     * A tool that writes. It can be registered (so that calls to it get a clear error) but is never run.
     *
     * @throws IllegalArgumentException when the name is not a safe identifier
     * @param name the name agents call it by
     * @param executor runs the tool
     * @param projector turns its raw response into an agent result
     * @return the registration of a tool the boundary refuses to run
     */
    public static ToolBinding writable(String name, ToolExecutor executor, Projector projector) {
        return new ToolBinding(new ToolName(name), executor, projector, false, UNLIMITED);
    }

    /**
     * {@return the same tool with a per-run call budget}
     *
     * @param budget how many calls of this tool one run may start; not negative
     */
    public ToolBinding withCallBudgetPerRun(int budget) {
        return new ToolBinding(name, executor, projector, readOnly, budget);
    }
}
