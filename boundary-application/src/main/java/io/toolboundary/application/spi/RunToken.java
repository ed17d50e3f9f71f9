package io.toolboundary.application.spi;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;

/**
 * Identifies one opening of a run in the store: {@link ToolBoundary#openRun} stores it and every call carries it
 * in its {@link RunContext}; when the store no longer holds the run with this token, the call is refused with
 * {@code RUN_STATE_LOST}.
 *
 * @param value 1 to 64 characters of {@code [A-Za-z0-9-]}
 */
public record RunToken(String value) {

    /**
     * Builds a token.
     *
     * @param value 1 to 64 characters of {@code [A-Za-z0-9-]}
     * @throws IllegalArgumentException when the value is empty, too long or has another character
     */
    public RunToken {
        Tokens.requireValid(requireNonNull(value, "value is null"));
    }

    /**
     * {@return a fresh token that no other opening gets, in this process or another} Made the way
     * {@link AttemptToken#random()} makes its tokens.
     */
    public static RunToken random() {
        return new RunToken(Tokens.next());
    }
}
