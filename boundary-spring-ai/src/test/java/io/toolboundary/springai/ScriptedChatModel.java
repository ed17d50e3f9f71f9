package io.toolboundary.springai;

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

/**
 * A chat model that answers from a script, without any network, and keeps every prompt it receives: what
 * the model would have seen.
 */
final class ScriptedChatModel implements ChatModel {

    private final Deque<ChatResponse> script;
    private final List<Prompt> prompts = new CopyOnWriteArrayList<>();

    private ScriptedChatModel(List<ChatResponse> script) {
        this.script = new ArrayDeque<>(script);
    }

    static ScriptedChatModel answering(ChatResponse... responses) {
        return new ScriptedChatModel(List.of(responses));
    }

    /** A response requesting the given tool calls. */
    static ChatResponse requesting(AssistantMessage.ToolCall... calls) {
        return new ChatResponse(List.of(new Generation(
                AssistantMessage.builder().content("").toolCalls(List.of(calls)).build())));
    }

    /** A final text response. */
    static ChatResponse saying(String text) {
        return new ChatResponse(List.of(new Generation(new AssistantMessage(text))));
    }

    /** A function call as a provider would parse it; {@code id} may be null or empty. */
    static AssistantMessage.ToolCall call(String id, String name, String arguments) {
        return new AssistantMessage.ToolCall(id, "function", name, arguments);
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        prompts.add(prompt);
        ChatResponse next = script.poll();
        if (next == null) {
            throw new IllegalStateException("the script has no response left for prompt " + prompts.size());
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

    /** The prompts received, in order. */
    List<Prompt> prompts() {
        return List.copyOf(prompts);
    }

    /** The tool responses of the last message of the {@code index}-th prompt. */
    List<ToolResponseMessage.ToolResponse> toolResponsesIn(int index) {
        List<Message> messages = prompts.get(index).getInstructions();
        Message last = messages.get(messages.size() - 1);
        if (!(last instanceof ToolResponseMessage toolResponses)) {
            throw new AssertionError("prompt " + index + " does not end with tool responses: " + last);
        }
        return toolResponses.getResponses();
    }

    /** Every text the model received in any message: message texts and tool response data. */
    String everythingSent() {
        StringBuilder all = new StringBuilder();
        for (Prompt prompt : prompts) {
            for (Message message : prompt.getInstructions()) {
                all.append(message.getText()).append('\n');
                if (message instanceof ToolResponseMessage toolResponses) {
                    toolResponses.getResponses().forEach(r -> all.append(r.responseData()).append('\n'));
                }
            }
        }
        return all.toString();
    }
}
