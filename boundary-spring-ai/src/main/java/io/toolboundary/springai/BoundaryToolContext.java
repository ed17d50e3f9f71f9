package io.toolboundary.springai;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.RunContext;
import io.vavr.control.Option;
import java.util.Map;

/**
 * Carries the harness's {@link RunContext} to the {@link BoundaryToolCallingManager} in Spring AI's tool
 * context.
 *
 * <p>Spring AI hands a chat's tool context (the {@code toolContext} of its {@code ToolCallingChatOptions})
 * to the tool calling manager with the prompt, and never sends it to the model. That makes it the explicit,
 * per-chat channel for the run: no thread-local is involved, so the run is the one the harness named for
 * this chat whatever thread executes the tools. Put it there with
 * {@code chatClient.prompt().toolContext(BoundaryToolContext.of(run))} or
 * {@code ToolCallingChatOptions.builder().toolContext(BoundaryToolContext.of(run))}.
 *
 * <p>The run must be opened: the context {@link io.toolboundary.application.ToolBoundary#openRun} answered
 * when the run started, once, and then passed to every chat of the run.
 * <pre>{@code
 * RunContext run = boundary.openRun(RunContext.active(runId, deadline, 50))
 *         .getOrElseThrow(error -> new IllegalStateException("run not opened: " + error.code()));
 * chatClient.prompt().user(question).toolContext(BoundaryToolContext.of(run)).call().content();
 * }</pre>
 * {@link #of} refuses a context that was never opened at once, so that the mistake shows where the chat
 * is set up rather than as {@code RUN_NOT_OPENED} for every tool call the model makes.
 */
public final class BoundaryToolContext {

    /** The tool context key under which the {@link RunContext} travels. */
    public static final String RUN_CONTEXT_KEY = "io.toolboundary.runContext";

    private BoundaryToolContext() {
    }

    /**
     * A tool context holding {@code run}, to merge into a chat's tool context.
     *
     * @param run the harness's opened run, whose run id every tool call of the chat is recorded under
     * @return an immutable map holding {@code run} under {@link #RUN_CONTEXT_KEY}
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
     * The run in a tool context.
     *
     * @param toolContext a chat's tool context, as Spring AI hands it to the tool calling manager
     * @return the run, or none when the context holds none (or holds something else under the key)
     */
    public static Option<RunContext> runContext(Map<String, ?> toolContext) {
        requireNonNull(toolContext, "toolContext is null");
        return Option.of(toolContext.get(RUN_CONTEXT_KEY))
                .filter(RunContext.class::isInstance)
                .map(RunContext.class::cast);
    }
}
