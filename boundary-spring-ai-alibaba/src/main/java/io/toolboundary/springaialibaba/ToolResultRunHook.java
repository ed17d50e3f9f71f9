package io.toolboundary.springaialibaba;

import static java.util.Objects.requireNonNull;

import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.agent.hook.HookPosition;
import com.alibaba.cloud.ai.graph.agent.hook.HookPositions;
import com.alibaba.cloud.ai.graph.agent.hook.messages.AgentCommand;
import com.alibaba.cloud.ai.graph.agent.hook.messages.MessagesModelHook;
import com.alibaba.cloud.ai.graph.agent.hook.messages.UpdatePolicy;
import io.toolboundary.application.RunContext;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;

/**
 * A {@code ReactAgent} hook that names, in each tool response message's metadata
 * ({@link CitationInterceptor#RUN_ID_KEY}), the run its results were made in, so that a conversation kept
 * across runs (one thread, a checkpoint saver, a new run per call) tells the {@link CitationInterceptor}
 * which results are an earlier run's.
 *
 * <p>The framework keeps no metadata of a tool call's response in the message the model sees, so the run
 * is written before each model call: every tool response message that names no run yet gets the run of the
 * agent call's config ({@link BoundaryRunnableConfig}); one that names a run keeps it. Messages are replaced
 * only when one is named, and the results' ids, names and texts stay as they were. A call without a run in
 * its config names nothing. Limits: results made before this hook was on the agent, or left without a model
 * call after them (the loop ended at a tool), are named by the next call's run; the
 * {@link CitationInterceptor} then reads them in that run, where their ids have no record, and refuses them.
 * One instance per agent (the framework sets its agent on it); it keeps no state of its own.
 */
@HookPositions(HookPosition.BEFORE_MODEL)
public final class ToolResultRunHook extends MessagesModelHook {

    /** This hook's name among the agent's hooks. */
    public static final String NAME = "toolboundary_tool_result_run";

    /** A hook for an agent's hooks. */
    public ToolResultRunHook() {
    }

    @Override
    public String getName() {
        return NAME;
    }

    /**
     * {@return the messages with each tool response message that names no run naming the call's run, or no
     * change when there is none to name or no run in the config}
     *
     * @param previousMessages the conversation as the agent holds it
     * @param config the agent call's config
     */
    @Override
    public AgentCommand beforeModel(List<Message> previousMessages, RunnableConfig config) {
        requireNonNull(config, "config is null");
        List<Message> none = null;
        if (previousMessages == null) {
            return new AgentCommand(none, UpdatePolicy.APPEND);
        }
        Option<RunContext> run = BoundaryRunnableConfig.runContext(config);
        if (run.isEmpty()) {
            return new AgentCommand(none, UpdatePolicy.APPEND);
        }
        String runId = run.get().runId().value();
        List<Message> named = new ArrayList<>(previousMessages.size());
        boolean changed = false;
        for (Message message : previousMessages) {
            if (message instanceof ToolResponseMessage results
                    && !results.getMetadata().containsKey(CitationInterceptor.RUN_ID_KEY)) {
                Map<String, Object> metadata = new HashMap<>(results.getMetadata());
                metadata.put(CitationInterceptor.RUN_ID_KEY, runId);
                named.add(ToolResponseMessage.builder().responses(results.getResponses()).metadata(metadata).build());
                changed = true;
            } else {
                named.add(message);
            }
        }
        return changed ? new AgentCommand(named, UpdatePolicy.REPLACE) : new AgentCommand(none, UpdatePolicy.APPEND);
    }
}
