package io.toolboundary.springaialibaba;

import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;

/** The scripted model, for the tests of other packages. */
public final class ScriptedAgentModelAccess {

    private ScriptedAgentModelAccess() {
    }

    /** A model that requests {@code calls} in one turn, then says "done". */
    public static ChatModel turns(List<AssistantMessage.ToolCall> calls) {
        return ScriptedAgentModel.turns(calls);
    }

    /** A tool call as a provider would parse it. */
    public static AssistantMessage.ToolCall call(String id, String name, String arguments) {
        return ScriptedAgentModel.call(id, name, arguments);
    }
}
