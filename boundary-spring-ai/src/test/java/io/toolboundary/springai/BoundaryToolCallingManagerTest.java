package io.toolboundary.springai;

import static io.toolboundary.springai.ScriptedChatModel.call;
import static io.toolboundary.springai.ScriptedChatModel.requesting;
import static io.toolboundary.springai.ScriptedChatModel.saying;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.observation.ObservationRegistry;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.Fixtures;
import java.util.ArrayList;
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
        assertThat(boundary.find(run.runId(), new ToolCallId("call_i")).get()).isEmpty();
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
        assertThat(boundary.find(unopened.runId(), new ToolCallId("call_n")).get()).isEmpty();
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
        assertThat(restarted.find(run.runId(), new ToolCallId("call_l1")).get()).isEmpty();
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

    @Test
    void withOfferedToolsOnlyRefusesABoundToolTheRequestDidNotOfferAndRunsAnOfferedOne() {
        BoundaryToolCallingManager offeredOnly = BoundaryToolCallingManager.builder(boundary).offeredToolsOnly(true).build();

        ToolExecutionResult notOffered = offeredOnly.executeToolCalls(promptWith(run, new UserMessage("q")),
                requesting(call("call_no", LogSearchCallback.NAME, "{}")));
        ToolExecutionResult offered = offeredOnly.executeToolCalls(promptOffering(run, new UserMessage("q")),
                requesting(call("call_yes", LogSearchCallback.NAME, "{}")));

        assertThat(responses(notOffered)).extracting(ToolResponseMessage.ToolResponse::responseData)
                .containsExactly("ERROR TOOL_NOT_REGISTERED: " + ErrorCode.TOOL_NOT_REGISTERED.safeMessage());
        assertThat(responses(offered)).extracting(ToolResponseMessage.ToolResponse::responseData)
                .containsExactly("EVIDENCE_FOUND\nbounded");
        assertThat(logSearch.inputs()).hasSize(1);
        assertThat(boundary.find(run.runId(), new ToolCallId("call_no")).get()).isEmpty();
    }

    @Test
    void aCallWithoutANameIsAnErrorTextWhateverTheOptions() {
        BoundaryToolCallingManager observed = BoundaryToolCallingManager.builder(boundary)
                .observationRegistry(ObservationRegistry.create()).offeredToolsOnly(true).build();

        ToolExecutionResult result = observed.executeToolCalls(promptWith(run, new UserMessage("q")),
                requesting(call("call_nameless", null, "{}")));

        assertThat(responses(result)).extracting(ToolResponseMessage.ToolResponse::responseData)
                .containsExactly("ERROR TOOL_NOT_REGISTERED: " + ErrorCode.TOOL_NOT_REGISTERED.safeMessage());
    }

    @Test
    void answersTheModelOverATurnLimitAndCountsOnlyTheCurrentTurn() {
        BoundaryToolCallingManager limited = BoundaryToolCallingManager.builder(boundary)
                .turnLimits(TurnLimits.builder().maxCallsPerTool(1).onBreach(TurnLimits.OnBreach.ANSWER_MODEL).build())
                .build();
        ToolExecutionResult first = limited.executeToolCalls(promptWith(run, new UserMessage("q")),
                requesting(call("call_t1", LogSearchCallback.NAME, "{}"), call("call_t2", LogSearchCallback.NAME, "{}")));
        List<Message> nextTurn = new ArrayList<>(first.conversationHistory());
        nextTurn.add(new UserMessage("again"));

        ToolExecutionResult second = limited.executeToolCalls(promptWith(run, nextTurn.toArray(Message[]::new)),
                requesting(call("call_t3", LogSearchCallback.NAME, "{}")));

        assertThat(responses(first)).extracting(ToolResponseMessage.ToolResponse::responseData).containsExactly(
                "EVIDENCE_FOUND\nbounded", "Tool call limit (1) exceeded for tool 'log-search'. No further calls to"
                        + " this tool are allowed in this turn.");
        assertThat(responses(second)).extracting(ToolResponseMessage.ToolResponse::responseData)
                .containsExactly("EVIDENCE_FOUND\nbounded");
        assertThat(logSearch.inputs()).hasSize(2);
        assertThat(boundary.find(run.runId(), new ToolCallId("call_t2")).get()).isEmpty();
    }

    @Test
    void stopsTheTurnOverATurnLimitBeforeTheCallRuns() {
        BoundaryToolCallingManager limited = BoundaryToolCallingManager.builder(boundary)
                .turnLimits(TurnLimits.builder().maxTotalCalls(1).build())
                .build();

        assertThatThrownBy(() -> limited.executeToolCalls(promptWith(run, new UserMessage("q")),
                requesting(call("call_s1", LogSearchCallback.NAME, "{}"), call("call_s2", LogSearchCallback.NAME, "{}"))))
                .hasMessageContaining("Total tool call limit (1) exceeded for this turn");
        assertThat(logSearch.inputs()).hasSize(1);
        assertThat(boundary.find(run.runId(), new ToolCallId("call_s2")).get()).isEmpty();
    }

    @Test
    void refusesALimitBelowOneOtherThanUnlimited() {
        assertThatThrownBy(() -> TurnLimits.builder().maxCallsPerTool(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxCallsPerTool");
        assertThatThrownBy(() -> TurnLimits.builder().maxTotalCalls(-2)).isInstanceOf(IllegalArgumentException.class);
        assertThat(TurnLimits.builder().maxCallsPerTool(TurnLimits.UNLIMITED).maxTotalCalls(TurnLimits.UNLIMITED).build())
                .isNotNull();
    }

    private Prompt promptOffering(RunContext run, Message... messages) {
        return new Prompt(List.of(messages), ToolCallingChatOptions.builder().toolCallbacks(logSearch)
                .toolContext(BoundaryToolContext.of(run)).build());
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
