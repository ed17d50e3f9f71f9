package io.toolboundary.springaialibaba;

import static java.util.Objects.requireNonNull;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import io.toolboundary.application.RunContext;
import io.vavr.control.Option;

/**
 * Carries the harness's opened {@link RunContext} to the {@link BoundaryToolInterceptor} in the
 * {@link RunnableConfig} of an agent call: the framework hands it to every node, sub-agent graph and tool
 * interceptor and never to the model, so no thread-local is involved and the model cannot name the run.
 *
 * <pre>{@code
 * RunnableConfig config = BoundaryRunnableConfig.with(RunnableConfig.builder().threadId(conversationId), run).build();
 * agent.call("Why did checkout fail?", config);
 * }</pre>
 *
 * <p>{@link #with} refuses a context that {@link io.toolboundary.application.ToolBoundary#openRun} did not
 * answer; a config without a run gets {@code RUN_NOT_OPENED} for each tool call. A call resumed from a
 * checkpoint needs the run again in its config.
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
     * {@return a new config holding only {@code run}, under {@link #RUN_CONTEXT_KEY}}
     *
     * @param run the harness's opened run
     * @throws IllegalArgumentException when {@code run} was not opened
     */
    public static RunnableConfig of(RunContext run) {
        return with(RunnableConfig.builder(), run).build();
    }

    /**
     * {@return the run in an agent call's config, or none when it holds none (or something else under the key)}
     *
     * @param config the config as the framework hands it to a node or an interceptor
     */
    public static Option<RunContext> runContext(RunnableConfig config) {
        requireNonNull(config, "config is null");
        return Option.ofOptional(config.metadata(RUN_CONTEXT_KEY))
                .filter(RunContext.class::isInstance)
                .map(RunContext.class::cast);
    }
}
