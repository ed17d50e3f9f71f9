package io.toolboundary.springai;

import org.springframework.ai.model.tool.ToolCallLimitExceededException;
import org.springframework.ai.model.tool.ToolExecutionResult;

/**
 * How a {@link TurnLimits.OnBreach#STOP_TURN} breach stops the turn on Spring AI 2.0: with Spring AI's own
 * {@link ToolCallLimitExceededException}, carrying the calls answered so far, which Spring AI's
 * {@code ToolCallingAdvisor} turns into the answer to the application, as for its own manager's limits.
 */
final class TurnLimitBreaches {

    private TurnLimitBreaches() {
    }

    /** The exception that stops the turn, carrying {@code partial}: the history with the calls answered so far. */
    static RuntimeException stop(TurnLimits.Breach breach, ToolExecutionResult partial) {
        return new ToolCallLimitExceededException(breach.toolName(), breach.limit(), partial);
    }
}
