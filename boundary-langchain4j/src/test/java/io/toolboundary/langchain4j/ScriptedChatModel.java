package io.toolboundary.langchain4j;

import static java.util.Objects.requireNonNull;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A chat model that answers with scripted messages, in order, and remembers every request it received,
 * so that a test sees exactly what the model was shown. No network.
 */
final class ScriptedChatModel implements ChatModel {

    private final Deque<AiMessage> script;
    final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

    private ScriptedChatModel(List<AiMessage> replies) {
        this.script = new ArrayDeque<>(replies);
    }

    /** A model that answers {@code replies}, one per request, and fails when they run out. */
    static ScriptedChatModel replying(AiMessage... replies) {
        return new ScriptedChatModel(Arrays.asList(replies));
    }

    /** A model message asking for tool calls. */
    static AiMessage callsTools(ToolExecutionRequest... requests) {
        return AiMessage.from(requests);
    }

    /** A model message with a final text answer. */
    static AiMessage answers(String text) {
        return AiMessage.from(text);
    }

    /** A tool call as a model would produce it; {@code id} may be {@code null}. */
    static ToolExecutionRequest toolCall(String id, String name, String arguments) {
        return ToolExecutionRequest.builder().id(id).name(name).arguments(arguments).build();
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        requireNonNull(request, "request is null");
        requests.add(request);
        AiMessage next;
        synchronized (script) {
            next = script.poll();
        }
        if (next == null) {
            throw new IllegalStateException("the script has no reply left");
        }
        return ChatResponse.builder().aiMessage(next).build();
    }

    /** Every message the model was shown, over all requests. */
    List<ChatMessage> messagesSeen() {
        return requests.stream().flatMap(request -> request.messages().stream()).toList();
    }

    /** The tool results in the model's last request, in order: without chat memory that request carries the whole conversation. */
    List<ToolExecutionResultMessage> toolResultsSeen() {
        return requests.get(requests.size() - 1).messages().stream()
                .filter(ToolExecutionResultMessage.class::isInstance)
                .map(ToolExecutionResultMessage.class::cast)
                .toList();
    }
}
