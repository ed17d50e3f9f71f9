package io.toolboundary.springai;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.RunContext;
import io.vavr.control.Option;
import java.util.Map;

/**
 * Carries the harness's opened {@link RunContext} to the {@link BoundaryToolCallingManager} in Spring AI's
 * tool context, which goes to the manager and never to the model, so no thread-local is involved:
 * {@code chatClient.prompt().toolContext(BoundaryToolContext.of(run))}. {@link #of} refuses a context never
 * opened by {@link io.toolboundary.application.ToolBoundary#openRun}, so the mistake shows where the chat is
 * set up.
 */
public final class BoundaryToolContext {

    /** The tool context key under which the {@link RunContext} travels. */
    public static final String RUN_CONTEXT_KEY = "io.toolboundary.runContext";

    private BoundaryToolContext() {
    }

    /**
     * {@return an immutable tool context holding {@code run} under {@link #RUN_CONTEXT_KEY}, to merge into a chat's
     * tool context}
     *
     * @param run the harness's opened run, whose run id every tool call of the chat is recorded under
     * @throws IllegalArgumentException when {@code run} was not opened: pass the context that
     *     {@code ToolBoundary.openRun} answers
     */
    public static Map<String, Object> of(RunContext run) {
        requireNonNull(run, "run is null");
        if (run.runToken().isEmpty()) {
            throw new IllegalArgumentException("run " + run.runId().value() + " is not opened: open it once with"
                    + " ToolBoundary.openRun(run) when it starts and pass the context that answers");
        }
        return Map.of(RUN_CONTEXT_KEY, run);
    }

    /**
     * {@return the run in a tool context, or none when it holds none (or something else under the key)}
     *
     * @param toolContext a chat's tool context, as Spring AI hands it to the tool calling manager
     */
    public static Option<RunContext> runContext(Map<String, ?> toolContext) {
        requireNonNull(toolContext, "toolContext is null");
        return Option.of(toolContext.get(RUN_CONTEXT_KEY))
                .filter(RunContext.class::isInstance)
                .map(RunContext.class::cast);
    }
}
