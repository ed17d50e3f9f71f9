package io.toolboundary.springai.app;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/** A chat model bean that answers from a script given by the test, and keeps every prompt it receives. */
public final class SpringScriptedChatModel implements ChatModel {

    private final Deque<ChatResponse> script = new ArrayDeque<>();
    private final List<Prompt> prompts = new CopyOnWriteArrayList<>();

    /** Queues a response asking for one tool call. */
    public SpringScriptedChatModel thenRequests(String id, String tool, String arguments) {
        script.add(new ChatResponse(List.of(new Generation(AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall(id, "function", tool, arguments))).build()))));
        return this;
    }

    /** Queues a final answer. */
    public SpringScriptedChatModel thenSays(String text) {
        script.add(new ChatResponse(List.of(new Generation(new AssistantMessage(text)))));
        return this;
    }

    @Override
    public synchronized ChatResponse call(Prompt prompt) {
        prompts.add(prompt);
        ChatResponse next = script.poll();
        if (next == null) {
            throw new IllegalStateException("the script has no response left");
        }
        return next;
    }

    /** The options Spring AI 2.0's ChatClient starts from (it has no getDefaultOptions): tool calling options. */
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    @Override
    public ChatOptions getDefaultOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    /** Every tool response the model received. */
    public List<String> toolResponses() {
        return prompts.stream().flatMap(prompt -> prompt.getInstructions().stream())
                .filter(ToolResponseMessage.class::isInstance)
                .map(ToolResponseMessage.class::cast)
                .flatMap(message -> message.getResponses().stream())
                .map(ToolResponseMessage.ToolResponse::responseData)
                .distinct()
                .toList();
    }

    /** Every text the model received. */
    public String everythingSent() {
        StringBuilder all = new StringBuilder();
        for (Prompt prompt : prompts) {
            for (Message message : prompt.getInstructions()) {
                all.append(message.getText()).append('\n');
                if (message instanceof ToolResponseMessage responses) {
                    responses.getResponses().forEach(response -> all.append(response.responseData()).append('\n'));
                }
            }
        }
        return all.toString();
    }
}
