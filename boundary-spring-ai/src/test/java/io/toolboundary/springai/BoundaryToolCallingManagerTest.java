package io.toolboundary.springai;

import static io.toolboundary.springai.ScriptedChatModel.call;
import static io.toolboundary.springai.ScriptedChatModel.requesting;
import static io.toolboundary.springai.ScriptedChatModel.saying;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolExecutionResult;

class BoundaryToolCallingManagerTest {

    private final LogSearchCallback logSearch = new LogSearchCallback();
    private final ToolBoundary boundary = ToolBoundary.builder()
            .store(InMemoryCanonicalInvocationStore.create())
            .accessPolicy(AccessPolicy.allowAll())
            .tool(ToolCallbackBindings.readOnly(logSearch, FakeProjectors.evidenceFound("bounded")))
            .build();
    private final BoundaryToolCallingManager manager = BoundaryToolCallingManager.of(boundary);
    private final RunContext run = Fixtures.opened(boundary, Fixtures.anyRunContext());

    @Test
    void resolvesToolDefinitionsFromTheChatsCallbacks() {
        ToolCallingChatOptions options = ToolCallingChatOptions.builder().toolCallbacks(logSearch).build();

        assertThat(manager.resolveToolDefinitions(options)).singleElement()
                .satisfies(definition -> assertThat(definition.name()).isEqualTo(LogSearchCallback.NAME));
    }

    @Test
    void returnsThePromptThenTheToolRequestThenOneResponsePerCallAndNeverReturnsDirect() {
        UserMessage question = new UserMessage("What failed?");
        ChatResponse response = requesting(call("call_1", LogSearchCallback.NAME, "{}"));

        ToolExecutionResult result = manager.executeToolCalls(promptWith(run, question), response);

        List<Message> history = result.conversationHistory();
        assertThat(history).hasSize(3);
        assertThat(history.get(0)).isEqualTo(question);
        assertThat(history.get(1)).isSameAs(response.getResult().getOutput());
        assertThat(((ToolResponseMessage) history.get(2)).getResponses()).singleElement()
                .isEqualTo(new ToolResponseMessage.ToolResponse("call_1", LogSearchCallback.NAME, "EVIDENCE_FOUND\nbounded"));
        assertThat(result.returnDirect()).isFalse();
    }

    @Test
    void passesEmptyArgumentsOnAsTheyAreSoTheBoundaryRefusesThem() {
        ToolExecutionResult result = manager.executeToolCalls(promptWith(run, new UserMessage("q")),
                requesting(call("call_e", LogSearchCallback.NAME, "")));

        assertThat(responses(result)).singleElement().extracting(ToolResponseMessage.ToolResponse::responseData)
                .isEqualTo("ERROR ARGUMENTS_INVALID: " + ErrorCode.ARGUMENTS_INVALID.safeMessage());
        assertThat(logSearch.inputs()).isEmpty();
    }

    @Test
    void refusesEveryCallOfARunTheHarnessHasDeactivated() {
        ToolExecutionResult result = manager.executeToolCalls(promptWith(run.deactivated(), new UserMessage("q")),
                requesting(call("call_i", LogSearchCallback.NAME, "{}")));

        assertThat(responses(result)).singleElement().extracting(ToolResponseMessage.ToolResponse::responseData)
                .isEqualTo("ERROR RUN_INACTIVE: " + ErrorCode.RUN_INACTIVE.safeMessage());
        assertThat(logSearch.inputs()).isEmpty();
        assertThat(boundary.records().find(run.runId(), new ToolCallId("call_i")).get()).isEmpty();
    }

    @Test
    void refusesEveryCallOfARunThatWasNeverOpened() {
        RunContext unopened = Fixtures.anyRunContext();
        Prompt prompt = new Prompt(List.of(new UserMessage("q")), ToolCallingChatOptions.builder()
                .toolContext(Map.of(BoundaryToolContext.RUN_CONTEXT_KEY, unopened))
                .build());

        ToolExecutionResult result = manager.executeToolCalls(prompt, requesting(call("call_n", LogSearchCallback.NAME, "{}")));

        assertThat(responses(result)).singleElement().extracting(ToolResponseMessage.ToolResponse::responseData)
                .isEqualTo("ERROR RUN_NOT_OPENED: " + ErrorCode.RUN_NOT_OPENED.safeMessage());
        assertThat(logSearch.inputs()).isEmpty();
        assertThat(boundary.records().find(unopened.runId(), new ToolCallId("call_n")).get()).isEmpty();
    }

    @Test
    void refusesEveryCallOfARunWhoseStoredStateWasLost() {
        // The run was opened on a store that then lost it: here, a store restarted empty.
        ToolBoundary restarted = ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowAll())
                .tool(ToolCallbackBindings.readOnly(logSearch, FakeProjectors.evidenceFound("bounded")))
                .build();

        ToolExecutionResult result = BoundaryToolCallingManager.of(restarted).executeToolCalls(
                promptWith(run, new UserMessage("q")),
                requesting(call("call_l1", LogSearchCallback.NAME, "{}"), call("call_l2", LogSearchCallback.NAME, "{}")));

        assertThat(responses(result)).extracting(ToolResponseMessage.ToolResponse::responseData).containsExactly(
                "ERROR RUN_STATE_LOST: " + ErrorCode.RUN_STATE_LOST.safeMessage(),
                "ERROR RUN_STATE_LOST: " + ErrorCode.RUN_STATE_LOST.safeMessage());
        assertThat(logSearch.inputs()).isEmpty();
        assertThat(restarted.records().find(run.runId(), new ToolCallId("call_l1")).get()).isEmpty();
    }

    @Test
    void refusesAResponseThatRequestsNoToolCall() {
        assertThatThrownBy(() -> manager.executeToolCalls(promptWith(run, new UserMessage("q")), saying("hello")))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void refusesAToolContextWhoseRunEntryIsNotARunContext() {
        Prompt prompt = new Prompt(List.of(new UserMessage("q")), ToolCallingChatOptions.builder()
                .toolContext(Map.of(BoundaryToolContext.RUN_CONTEXT_KEY, run.runId().value()))
                .build());

        assertThatThrownBy(() -> manager.executeToolCalls(prompt, requesting(call("call_s", LogSearchCallback.NAME, "{}"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RunContext");
        assertThat(logSearch.inputs()).isEmpty();
    }

    @Test
    void refusesAPromptWithoutToolCallingOptions() {
        Prompt prompt = new Prompt(new UserMessage("q"));

        assertThatThrownBy(() -> manager.executeToolCalls(prompt, requesting(call("call_o", LogSearchCallback.NAME, "{}"))))
                .isInstanceOf(IllegalStateException.class);
        assertThat(logSearch.inputs()).isEmpty();
    }

    private static Prompt promptWith(RunContext run, Message... messages) {
        return new Prompt(List.of(messages),
                ToolCallingChatOptions.builder().toolContext(BoundaryToolContext.of(run)).build());
    }

    private static List<ToolResponseMessage.ToolResponse> responses(ToolExecutionResult result) {
        List<Message> history = result.conversationHistory();
        return ((ToolResponseMessage) history.get(history.size() - 1)).getResponses();
    }
}
