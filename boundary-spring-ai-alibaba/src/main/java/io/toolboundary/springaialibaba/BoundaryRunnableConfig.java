package io.toolboundary.springaialibaba;

import static java.util.Objects.requireNonNull;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import io.toolboundary.application.RunContext;
import io.vavr.control.Option;

/**
 * Carries the harness's opened {@link RunContext} to the {@link BoundaryToolInterceptor} in the
 * {@link RunnableConfig} of an agent call.
 *
 * <p>Spring AI Alibaba hands the {@code RunnableConfig} of {@code ReactAgent.call}, {@code invoke} and
 * {@code stream} to every node of the agent's graph, and to the graphs of its sub-agents, and gives it to
 * each tool interceptor with the tool call ({@code ToolCallRequest.getExecutionContext()}). Its metadata is
 * never sent to the model. That makes it the explicit, per-call channel for the run: no thread-local is
 * involved, so the run is the one the harness named for this agent call whatever thread runs the tools
 * (parallel tool execution included). The model can never name or change it.
 *
 * <pre>{@code
 * RunContext run = boundary.openRun(RunContext.active(runId, deadline, 50))
 *         .getOrElseThrow(error -> new IllegalStateException("run not opened: " + error.code()));
 * RunnableConfig config = BoundaryRunnableConfig.with(RunnableConfig.builder().threadId(conversationId), run).build();
 * agent.call("Why did checkout fail?", config);
 * }</pre>
 *
 * <p>The run must be opened ({@link io.toolboundary.application.ToolBoundary#openRun}); {@link #with} refuses
 * a context that was not, so the mistake shows where the agent call is set up. A config without a run (or
 * with a run that was never opened) is answered {@code RUN_NOT_OPENED} for each tool call, and no tool runs.
 * Resuming a graph from a checkpoint needs the run again: pass the same opened context (or one re-attached
 * with {@link RunContext#opened}) in the config of the resumed call.
 */
public final class BoundaryRunnableConfig {

    /** The metadata key under which the {@link RunContext} travels. */
    public static final String RUN_CONTEXT_KEY = "io.toolboundary.runContext";

    private BoundaryRunnableConfig() {
    }

    /**
     * Puts {@code run} into the metadata of the config being built.
     *
     * @param config the builder of an agent call's config (thread id, checkpoint, the application's own
     *     metadata)
     * @param run the harness's opened run, under whose run id every tool call of the agent call is recorded
     * @return {@code config}, holding {@code run} under {@link #RUN_CONTEXT_KEY}
     * @throws IllegalArgumentException when {@code run} was not opened: pass the context that
     *     {@code ToolBoundary.openRun} answers
     */
    public static RunnableConfig.Builder with(RunnableConfig.Builder config, RunContext run) {
        requireNonNull(config, "config is null");
        requireNonNull(run, "run is null");
        if (run.runToken().isEmpty()) {
            throw new IllegalArgumentException("run " + run.runId().value() + " is not opened: open it once with"
                    + " ToolBoundary.openRun(run) when it starts and pass the context that answers");
        }
        return config.addMetadata(RUN_CONTEXT_KEY, run);
    }

    /**
     * A config holding only {@code run}.
     *
     * @param run the harness's opened run
     * @return a new config with {@code run} under {@link #RUN_CONTEXT_KEY}
     * @throws IllegalArgumentException when {@code run} was not opened
     */
    public static RunnableConfig of(RunContext run) {
        return with(RunnableConfig.builder(), run).build();
    }

    /**
     * The run in an agent call's config.
     *
     * @param config the config as the framework hands it to a node or an interceptor
     * @return the run, or none when the config holds none (or holds something else under the key)
     */
    public static Option<RunContext> runContext(RunnableConfig config) {
        requireNonNull(config, "config is null");
        return Option.ofOptional(config.metadata(RUN_CONTEXT_KEY))
                .filter(RunContext.class::isInstance)
                .map(RunContext.class::cast);
    }
}
