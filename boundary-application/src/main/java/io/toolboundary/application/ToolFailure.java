package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

/**
 * Thrown by a {@link ToolExecutor} whose tool ran and reported a failure together with some output (an
 * error text, a partial result). The boundary ends the record in ERROR/{@code EXECUTION_FAILED} and keeps
 * that output as the record's raw response for the harness when it is Unicode and fits the raw response
 * limit and the record (otherwise the record holds none); the agent sees only the code. The output is
 * never the exception's message, and the exception carries no stack trace.
 */
public final class ToolFailure extends Exception {

    private static final long serialVersionUID = 1L;

    /** The output; transient, so that it never travels with a serialised exception. */
    private final transient String output;

    /**
     * A failure reported with {@code output}.
     *
     * @param output what the tool gave with its failure, exactly; may be empty
     */
    public ToolFailure(String output) {
        super("the tool reported a failure", null, false, false);
        this.output = requireNonNull(output, "output is null");
    }

    /** {@return what the tool gave with its failure, exactly as given} */
    public String output() {
        return output == null ? "" : output;
    }
}
