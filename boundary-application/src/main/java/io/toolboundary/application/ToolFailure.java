package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

/**
 * Thrown by a {@link ToolExecutor} whose tool ran and reported a failure with some output: the record ends in
 * ERROR/{@code EXECUTION_FAILED}, keeping that output as its raw response for the harness when it is Unicode and
 * fits; the agent sees only the code. The exception carries no stack trace.
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
