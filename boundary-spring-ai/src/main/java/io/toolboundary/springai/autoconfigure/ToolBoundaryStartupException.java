package io.toolboundary.springai.autoconfigure;

import static java.util.Objects.requireNonNull;

/**
 * Stops the application at start when the boundary cannot be wired as configured (no access policy, a missing
 * store, a Redis server that may evict); {@link ToolBoundaryFailureAnalyzer} reports what is wrong and what to
 * add or set, without a stack trace.
 */
public final class ToolBoundaryStartupException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** What the application should change. */
    private final String action;

    ToolBoundaryStartupException(String description, String action) {
        super(requireNonNull(description, "description is null"));
        this.action = requireNonNull(action, "action is null");
    }

    /**
     * {@return what the application should change (the bean to add or the property to set), as
     * {@link ToolBoundaryFailureAnalyzer} reports it, possibly several lines}
     */
    public String action() {
        return action;
    }

    static ToolBoundaryStartupException missingAccessPolicy() {
        return new ToolBoundaryStartupException(
                "The tool boundary needs an AccessPolicy bean: access is the harness's decision, and there is no"
                        + " default that grants it. Without the boundary, Spring AI would run tools with no checks and"
                        + " hand raw tool output to the model, so the application does not start.",
                "Add a bean of type io.toolboundary.application.AccessPolicy, for example\n\n"
                        + "    @Bean\n"
                        + "    AccessPolicy accessPolicy() {\n"
                        + "        return AccessPolicy.allowOnly(\"log-search\");\n"
                        + "    }\n\n"
                        + "or, to run without the tool boundary, set toolboundary.enabled=false.");
    }
}
