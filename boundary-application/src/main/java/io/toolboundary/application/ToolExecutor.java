package io.toolboundary.application;

/**
 * Runs a read-only tool. Called at most once per canonical key, and only after the store confirmed
 * the PROJECTING record.
 */
@FunctionalInterface
public interface ToolExecutor {

    /**
     * Executes the tool.
     *
     * @param request the checked request
     * @return the complete raw response; it is stored for the harness and never shown to the agent
     * @throws Exception on any failure; the boundary ends the record in ERROR/EXECUTION_FAILED and
     *     shows the agent nothing of the exception
     */
    String execute(ToolRequest request) throws Exception;
}
