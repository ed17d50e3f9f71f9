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
 */
public final class BoundaryToolContext {

    /** The tool context key under which the {@link RunContext} travels. */
    public static final String RUN_CONTEXT_KEY = "io.toolboundary.runContext";

    private BoundaryToolContext() {
    }

    /**
     * A tool context holding {@code run}, to merge into a chat's tool context.
     *
     * @param run the harness's run, whose run id every tool call of the chat is recorded under
     * @return an immutable map holding {@code run} under {@link #RUN_CONTEXT_KEY}
     */
    public static Map<String, Object> of(RunContext run) {
        requireNonNull(run, "run is null");
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
