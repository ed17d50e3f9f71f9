package io.toolboundary.springai;

import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;

/**
 * The tool results one chat request showed the model, each under its run, and the messages that showed
 * them. {@link CitationAdvisor} puts a fresh one in the request's tool context under {@link #KEY};
 * {@link BoundaryToolCallingManager} adds each tool exchange it runs. Thread-safe.
 */
final class ShownResults {

    /** The tool context key; the value travels to the tool calling manager, never to the model. */
    static final String KEY = "io.toolboundary.springai.shownResults";

    private final Set<InvocationKey> keys = new LinkedHashSet<>();
    private final List<Message> exchanges = new ArrayList<>();

    /** {@return the collector in a tool context, or none} */
    static Option<ShownResults> in(Map<String, ?> toolContext) {
        return Option.of(toolContext.get(KEY)).filter(ShownResults.class::isInstance).map(ShownResults.class::cast);
    }

    /** Adds one exchange the manager ran for {@code runId}: the model's tool calls and their responses. */
    synchronized void ran(RunId runId, AssistantMessage request, ToolResponseMessage responses) {
        exchanges.add(request);
        exchanges.add(responses);
        keys.addAll(keysIn(List.of(responses), runId));
    }

    /** {@return the keys of every result shown so far} */
    synchronized List<InvocationKey> keys() {
        return List.copyOf(keys);
    }

    /** {@return the exchanges so far, in order: each tool call message, then its responses} */
    synchronized List<Message> exchanges() {
        return List.copyOf(exchanges);
    }

    /**
     * {@return the key of every tool response in {@code messages} with a valid id: under the run the
     * manager stamped on its message ({@link ToolCallbackBindings#RUN_ID_KEY}), else under {@code current}}
     */
    static List<InvocationKey> keysIn(List<Message> messages, RunId current) {
        List<InvocationKey> found = new ArrayList<>();
        for (Message message : messages) {
            if (message instanceof ToolResponseMessage responses) {
                RunId run = stampedRun(responses).getOrElse(current);
                for (ToolResponseMessage.ToolResponse response : responses.getResponses()) {
                    ToolCallId.of(response.id()).forEach(id -> found.add(InvocationKey.of(run, id)));
                }
            }
        }
        return found;
    }

    private static Option<RunId> stampedRun(ToolResponseMessage responses) {
        Map<String, Object> metadata = responses.getMetadata();
        Object stamped = metadata == null ? null : metadata.get(ToolCallbackBindings.RUN_ID_KEY);
        return stamped instanceof String value ? RunId.of(value).toOption() : Option.none();
    }
}
