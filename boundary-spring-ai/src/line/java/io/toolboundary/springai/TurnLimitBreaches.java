package io.toolboundary.springai;

import org.springframework.ai.model.tool.ToolExecutionResult;

/**
 * How a {@link TurnLimits.OnBreach#STOP_TURN} breach stops the turn on Spring AI 1.1, which has no
 * exception of its own for it: an {@link IllegalStateException} with the breach's text, which reaches the
 * caller of the chat.
 */
final class TurnLimitBreaches {

    private TurnLimitBreaches() {
    }

    /** The exception that stops the turn; {@code partial} (the calls answered so far) is not carried on 1.1. */
    static RuntimeException stop(TurnLimits.Breach breach, ToolExecutionResult partial) {
        return new IllegalStateException(breach.message());
    }
}
