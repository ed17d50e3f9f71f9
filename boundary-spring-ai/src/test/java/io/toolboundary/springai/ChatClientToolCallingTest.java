package io.toolboundary.springai;

import static io.toolboundary.springai.ScriptedChatModel.call;
import static io.toolboundary.springai.ScriptedChatModel.requesting;
import static io.toolboundary.springai.ScriptedChatModel.saying;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.ToolResponseMessage.ToolResponse;

/**
 * Spring AI's own ChatClient and ToolCallAdvisor, driving a scripted model, with the boundary's tool
 * calling manager: what the model receives and what the canonical records hold.
 */
class ChatClientToolCallingTest {

    private static final String ARGUMENTS = "{\"query\":\"timeout\"}";
    private static final String BOUNDED = "3 timeouts in checkout between 10:00 and 10:15";
    private static final String SCOPE = "service checkout, logs 10:00-10:15 UTC";

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T10:00:00Z"));
    private final LogSearchCallback logSearch = new LogSearchCallback();
    private final ToolBoundary boundary = ToolBoundary.builder()
            .store(InMemoryCanonicalInvocationStore.create(clock))
            .accessPolicy(AccessPolicy.allowAll())
            .clock(clock)
            .tool(ToolCallbackBindings.readOnly(logSearch, (request, raw) -> Projection.evidenceFound(BOUNDED, SCOPE)))
            .build();
    private final RunContext run = Fixtures.anyRunContext();

    @Test
    void singleToolCallReachesTheModelAsTheBoundedResultUnderTheFrameworkId() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)), saying("Checkout timed out."));

        String answer = chat(model);

        assertThat(answer).isEqualTo("Checkout timed out.");
        assertThat(model.prompts()).hasSize(2);
        assertThat(model.toolResponsesIn(1)).containsExactly(new ToolResponse("call_A1", LogSearchCallback.NAME,
                "EVIDENCE_FOUND (scope: " + SCOPE + ")\n" + BOUNDED));
        assertThat(logSearch.inputs()).containsExactly(ARGUMENTS);
        assertThat(model.everythingSent()).doesNotContain(LogSearchCallback.RAW_MARKER, "sk-live");
    }

    @Test
    @DisplayName("Framework ID is preserved")
    void frameworkIdIsPreservedInTheCanonicalRecord() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_Xy-9.z:1", LogSearchCallback.NAME, ARGUMENTS)), saying("done"));

        chat(model);

        CanonicalRecord record = recordOf("call_Xy-9.z:1");
        assertThat(record.key().toolCallId().value()).isEqualTo("call_Xy-9.z:1");
        assertThat(record.key().runId()).isEqualTo(run.runId());
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.arguments()).isEqualTo(ARGUMENTS);
        assertThat(record.rawResponse().get()).contains(LogSearchCallback.RAW_MARKER);
        assertThat(logSearch.contexts()).singleElement().satisfies(context -> assertThat(context.getContext())
                .containsEntry(ToolCallbackBindings.TOOL_CALL_ID_KEY, "call_Xy-9.z:1")
                .containsEntry(ToolCallbackBindings.RUN_ID_KEY, run.runId().value()));
    }

    @Test
    void twoParallelToolCallsEachRunOnceAndAnswerUnderTheirOwnIds() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_1", LogSearchCallback.NAME, "{\"query\":\"a\"}"),
                        call("call_2", LogSearchCallback.NAME, "{\"query\":\"b\"}")),
                saying("done"));

        chat(model);

        assertThat(model.toolResponsesIn(1)).extracting(ToolResponse::id, ToolResponse::name)
                .containsExactly(tuple("call_1", LogSearchCallback.NAME),
                        tuple("call_2", LogSearchCallback.NAME));
        assertThat(model.toolResponsesIn(1)).allSatisfy(response ->
                assertThat(response.responseData()).startsWith("EVIDENCE_FOUND"));
        assertThat(logSearch.inputs()).containsExactly("{\"query\":\"a\"}", "{\"query\":\"b\"}");
        assertThat(recordOf("call_1").arguments()).isEqualTo("{\"query\":\"a\"}");
        assertThat(recordOf("call_2").arguments()).isEqualTo("{\"query\":\"b\"}");
    }

    @Test
    @DisplayName("Duplicate Tool Call ID is submitted")
    void duplicateToolCallIdRunsTheToolOnceAndAnswersTheSecondWithDuplicateToolCall() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_dup", LogSearchCallback.NAME, ARGUMENTS),
                        call("call_dup", LogSearchCallback.NAME, ARGUMENTS)),
                saying("done"));

        chat(model);

        assertThat(logSearch.inputs()).hasSize(1);
        assertThat(model.toolResponsesIn(1)).extracting(ToolResponse::responseData).containsExactly(
                "EVIDENCE_FOUND (scope: " + SCOPE + ")\n" + BOUNDED,
                "ERROR DUPLICATE_TOOL_CALL: " + ErrorCode.DUPLICATE_TOOL_CALL.safeMessage());
        assertThat(model.toolResponsesIn(1)).extracting(ToolResponse::id).containsExactly("call_dup", "call_dup");
        assertThat(recordOf("call_dup").status()).isEqualTo(InvocationStatus.READY);
    }

    @Test
    void duplicateToolCallIdInALaterTurnIsRefusedToo() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_again", LogSearchCallback.NAME, ARGUMENTS)),
                requesting(call("call_again", LogSearchCallback.NAME, ARGUMENTS)),
                saying("done"));

        chat(model);

        assertThat(logSearch.inputs()).hasSize(1);
        assertThat(model.toolResponsesIn(2)).singleElement().extracting(ToolResponse::responseData)
                .isEqualTo("ERROR DUPLICATE_TOOL_CALL: " + ErrorCode.DUPLICATE_TOOL_CALL.safeMessage());
    }

    @Test
    void missingOrEmptyToolCallIdIsAnsweredAsMissingAndNoIdIsInvented() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call(null, LogSearchCallback.NAME, ARGUMENTS), call("", LogSearchCallback.NAME, ARGUMENTS)),
                saying("done"));

        chat(model);

        String missing = "ERROR TOOL_CALL_ID_MISSING: " + ErrorCode.TOOL_CALL_ID_MISSING.safeMessage();
        assertThat(model.toolResponsesIn(1)).extracting(ToolResponse::id, ToolResponse::responseData)
                .containsExactly(tuple(null, missing),
                        tuple("", missing));
        assertThat(logSearch.inputs()).isEmpty();
    }

    @Test
    void unknownToolIsAnsweredWithToolNotRegisteredAndTheOtherCallStillRuns() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_u", "drop-database", "{}"), call("call_k", LogSearchCallback.NAME, ARGUMENTS)),
                saying("done"));

        chat(model);

        assertThat(model.toolResponsesIn(1)).extracting(ToolResponse::responseData).containsExactly(
                "ERROR TOOL_NOT_REGISTERED: " + ErrorCode.TOOL_NOT_REGISTERED.safeMessage(),
                "EVIDENCE_FOUND (scope: " + SCOPE + ")\n" + BOUNDED);
        assertThat(boundary.find(run.runId(), new ToolCallId("call_u")).get()).isEmpty();
        assertThat(logSearch.inputs()).containsExactly(ARGUMENTS);
    }

    @Test
    void failingToolReachesTheModelAsASafeErrorWithoutItsExceptionText() {
        ToolBoundary failing = ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create(clock))
                .accessPolicy(AccessPolicy.allowAll())
                .clock(clock)
                .tool(ToolBinding.readOnly(LogSearchCallback.NAME,
                        FakeTools.throwing("connect to 10.0.0.7 failed: " + LogSearchCallback.RAW_MARKER),
                        FakeProjectors.evidenceFound(BOUNDED)))
                .build();
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_f", LogSearchCallback.NAME, ARGUMENTS)), saying("done"));

        chat(model, failing);

        assertThat(model.toolResponsesIn(1)).singleElement().extracting(ToolResponse::responseData)
                .isEqualTo("ERROR EXECUTION_FAILED: " + ErrorCode.EXECUTION_FAILED.safeMessage());
        assertThat(model.everythingSent()).doesNotContain(LogSearchCallback.RAW_MARKER, "10.0.0.7");
    }

    @Test
    void chatWithoutRunContextRunsNoToolAndCreatesNoRecord() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_n", LogSearchCallback.NAME, ARGUMENTS)), saying("done"));
        ChatClient client = clientFor(model, boundary);

        assertThatThrownBy(() -> LineApi.tools(client.prompt().user("What failed?"), logSearch).call().content())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("RunContext");
        assertThat(logSearch.inputs()).isEmpty();
        assertThat(boundary.find(run.runId(), new ToolCallId("call_n")).get()).isEmpty();
    }

    private String chat(ScriptedChatModel model) {
        return chat(model, boundary);
    }

    private String chat(ScriptedChatModel model, ToolBoundary through) {
        return LineApi.tools(clientFor(model, through).prompt().user("What failed in checkout?"), logSearch)
                .toolContext(BoundaryToolContext.of(Fixtures.opened(through, run)))
                .call()
                .content();
    }

    private static ChatClient clientFor(ScriptedChatModel model, ToolBoundary through) {
        return ChatClient.builder(model)
                .defaultAdvisors(LineApi.toolCallingAdvisor(BoundaryToolCallingManager.of(through)))
                .build();
    }

    private CanonicalRecord recordOf(String toolCallId) {
        return boundary.find(run.runId(), new ToolCallId(toolCallId)).get()
                .getOrElseThrow(() -> new AssertionError("no record for " + toolCallId));
    }
}
