package io.toolboundary.springaialibaba;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import reactor.core.publisher.Flux;

/**
 * A chat model that plays a script of turns, without any network, and keeps every prompt it receives:
 * what the model would have seen. The script decides each turn from the number of tool response messages
 * already in the prompt, so that a graph resumed from a checkpoint, which sends the same history again,
 * gets the same next turn.
 */
final class ScriptedAgentModel implements ChatModel {

    private final Function<Integer, AssistantMessage> turns;
    private final List<Prompt> prompts = new CopyOnWriteArrayList<>();

    private ScriptedAgentModel(Function<Integer, AssistantMessage> turns) {
        this.turns = turns;
    }

    /** Requests the calls of {@code turns.get(n)} once {@code n} tool response messages are in the prompt; then says "done". */
    @SafeVarargs
    static ScriptedAgentModel turns(List<AssistantMessage.ToolCall>... turns) {
        return new ScriptedAgentModel(answered -> answered < turns.length
                ? AssistantMessage.builder().content("").toolCalls(turns[answered]).build()
                : new AssistantMessage("done"));
    }

    /** Gives {@code turns} one per call, in order, then the last one again: a script that revisions follow too. */
    static ScriptedAgentModel inOrder(AssistantMessage... turns) {
        List<AssistantMessage> script = List.of(turns);
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        return new ScriptedAgentModel(answered -> script.get(Math.min(next.getAndIncrement(), script.size() - 1)));
    }

    /** A turn that requests {@code calls}. */
    static AssistantMessage requesting(AssistantMessage.ToolCall... calls) {
        return AssistantMessage.builder().content("").toolCalls(List.of(calls)).build();
    }

    /** The prompts the model was given, in order. */
    List<Prompt> prompts() {
        return List.copyOf(prompts);
    }

    /** Says {@code text} first, then "FINISH": a supervisor routing once. */
    static ScriptedAgentModel routingOnce(String text) {
        List<String> said = new CopyOnWriteArrayList<>();
        return new ScriptedAgentModel(answered -> {
            String next = said.isEmpty() ? text : "FINISH";
            said.add(next);
            return new AssistantMessage(next);
        });
    }

    static AssistantMessage.ToolCall call(String id, String name, String arguments) {
        return new AssistantMessage.ToolCall(id, "function", name, arguments);
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        prompts.add(prompt);
        int answered = (int) prompt.getInstructions().stream().filter(ToolResponseMessage.class::isInstance).count();
        return new ChatResponse(List.of(new Generation(turns.apply(answered))));
    }

    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
        return Flux.defer(() -> Flux.just(call(prompt)));
    }

    @Override
    public ChatOptions getDefaultOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    /** Every tool response the model was given, in the order the prompts came, each once. */
    List<ToolResponseMessage.ToolResponse> toolResponsesSeen() {
        List<ToolResponseMessage.ToolResponse> seen = new ArrayList<>();
        for (Prompt prompt : prompts) {
            for (Message message : prompt.getInstructions()) {
                if (message instanceof ToolResponseMessage responses) {
                    responses.getResponses().stream().filter(response -> !seen.contains(response)).forEach(seen::add);
                }
            }
        }
        return seen;
    }

    /** The texts the model was given for the tool call {@code id}, in order. */
    List<String> responsesTo(String id) {
        return toolResponsesSeen().stream().filter(response -> id.equals(response.id()))
                .map(ToolResponseMessage.ToolResponse::responseData).toList();
    }

    /** Every text of every prompt: message texts and tool response data. */
    String everythingSeen() {
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
