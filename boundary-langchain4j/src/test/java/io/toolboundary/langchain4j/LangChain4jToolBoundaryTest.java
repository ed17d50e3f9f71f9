package io.toolboundary.langchain4j;

import static io.toolboundary.langchain4j.ScriptedChatModel.answers;
import static io.toolboundary.langchain4j.ScriptedChatModel.callsTools;
import static io.toolboundary.langchain4j.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.service.AiServices;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Option;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A LangChain4j {@link AiServices} agent, driven by a scripted chat model, whose tool calls all go
 * through a real {@link ToolBoundary} on the in-memory store.
 */
class LangChain4jToolBoundaryTest {

    /** What an agent interface looks like to LangChain4j. */
    interface Agent {
        String chat(String userMessage);
    }

    static final String RAW_MARKER = "RAW-ROW";
    static final String SECRET = "secret-dsn=redis://admin:hunter2@10.0.0.1";
    static final String SEARCH_ARGS = "{\"query\":\"timeout\"}";
    static final String METRICS_ARGS = "{\"metric\":\"p99\"}";
    static final String FOUND_TEXT = "EVIDENCE_FOUND (scope: logs 10:00-10:15)\n2 timeouts in checkout";
    static final String NO_EVIDENCE_TEXT = "NO_EVIDENCE (scope: metrics 10:00-10:15)\nno p99 breach";

    final CountingExecutor logSearch = FakeTools.counting(
            FakeTools.returning(RAW_MARKER + " 10:03 checkout timeout; " + RAW_MARKER + " 10:07 checkout timeout"));
    final CountingExecutor metrics = FakeTools.counting(FakeTools.returning(RAW_MARKER + " p99=180ms"));
    final CountingExecutor failing = FakeTools.counting(FakeTools.throwing(SECRET));
    final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create();
    final ToolBoundary boundary = ToolBoundary.builder()
            .store(store)
            .accessPolicy(AccessPolicy.allowAll())
            .tool(ToolBinding.readOnly("log-search", logSearch,
                    (request, raw) -> Projection.evidenceFound("2 timeouts in checkout", "logs 10:00-10:15")))
            .tool(ToolBinding.readOnly("metrics", metrics,
                    FakeProjectors.noEvidence("no p99 breach", "metrics 10:00-10:15")))
            .tool(ToolBinding.readOnly("flaky", failing, FakeProjectors.evidenceFound("never")))
            .build();
    final AtomicReference<RunContext> currentRun = new AtomicReference<>(Fixtures.opened(boundary, Fixtures.anyRunContext()));

    static ToolSpecification spec(String name) {
        return ToolSpecification.builder()
                .name(name)
                .description("A read-only tool called " + name)
                .parameters(JsonObjectSchema.builder().addStringProperty("query").build())
                .build();
    }

    static final List<ToolSpecification> OFFERED = List.of(spec("log-search"), spec("metrics"), spec("flaky"));

    Agent agent(ScriptedChatModel model) {
        return agent(model, currentRun::get, false);
    }

    Agent agent(ScriptedChatModel model, Supplier<RunContext> runs, boolean concurrent) {
        LangChain4jToolBoundary tools = LangChain4jToolBoundary.of(boundary, runs, OFFERED);
        AiServices<Agent> builder = tools.applyTo(AiServices.builder(Agent.class).chatModel(model));
        if (concurrent) {
            builder.executeToolsConcurrently();
        }
        return builder.build();
    }

    CanonicalRecord recordOf(String toolCallId) {
        Option<CanonicalRecord> found = boundary.find(currentRun.get().runId(), new ToolCallId(toolCallId)).get();
        assertThat(found).as("record of " + toolCallId).isNotEmpty();
        return found.get();
    }

    static void assertModelSawNothingRaw(ScriptedChatModel model) {
        assertThat(model.messagesSeen()).isNotEmpty().allSatisfy(message -> assertThat(message.toString())
                .doesNotContain(RAW_MARKER).doesNotContain("hunter2").doesNotContain("IllegalStateException"));
    }

    @Test
    void runsASingleToolCallThroughTheBoundaryWithTheFrameworkId() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_Lk3v9", "log-search", SEARCH_ARGS)),
                answers("Two checkout timeouts."));

        String reply = agent(model).chat("Why did checkout fail?");

        assertThat(reply).isEqualTo("Two checkout timeouts.");
        assertThat(logSearch.executions()).isEqualTo(1);
        ToolExecutionResultMessage result = model.toolResultsSeen().get(0);
        assertThat(result.id()).isEqualTo("call_Lk3v9");
        assertThat(result.toolName()).isEqualTo("log-search");
        assertThat(result.text()).isEqualTo(FOUND_TEXT);
        assertThat(result.isError()).isFalse();

        CanonicalRecord record = recordOf("call_Lk3v9");
        assertThat(record.key().toolCallId().value()).isEqualTo("call_Lk3v9");
        assertThat(record.key().runId()).isEqualTo(currentRun.get().runId());
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.arguments()).isEqualTo(SEARCH_ARGS);
        assertThat(record.rawResponse().get()).startsWith(RAW_MARKER);
        assertModelSawNothingRaw(model);
    }

    @Test
    void offersTheSpecificationsToTheModel() {
        ScriptedChatModel model = ScriptedChatModel.replying(answers("Nothing to do."));

        agent(model).chat("Hello");

        assertThat(model.requests.get(0).toolSpecifications()).containsExactlyElementsOf(OFFERED);
    }

    @ParameterizedTest(name = "concurrently={0}")
    @ValueSource(booleans = {false, true})
    void runsParallelToolCallsOfOneMessageEachUnderItsOwnId(boolean concurrently) {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_a", "log-search", SEARCH_ARGS), toolCall("call_b", "metrics", METRICS_ARGS)),
                answers("Timeouts, but no latency breach."));

        agent(model, currentRun::get, concurrently).chat("What happened?");

        assertThat(logSearch.executions()).isEqualTo(1);
        assertThat(metrics.executions()).isEqualTo(1);
        assertThat(model.toolResultsSeen()).extracting(ToolExecutionResultMessage::id, ToolExecutionResultMessage::text)
                .containsExactly(
                        tuple("call_a", FOUND_TEXT),
                        tuple("call_b", NO_EVIDENCE_TEXT));
        assertThat(recordOf("call_a").evidence()).isEqualTo(Option.of(EvidenceStatus.EVIDENCE_FOUND));
        assertThat(recordOf("call_b").evidence()).isEqualTo(Option.of(EvidenceStatus.NO_EVIDENCE));
        assertThat(recordOf("call_b").agentResult().get().scope()).isEqualTo(Option.of("metrics 10:00-10:15"));
        assertModelSawNothingRaw(model);
    }

    @Test
    void runsADuplicateToolCallIdOnceAndTellsTheModelItIsADuplicate() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_1", "log-search", SEARCH_ARGS)),
                callsTools(toolCall("call_1", "log-search", SEARCH_ARGS)),
                answers("Done."));

        agent(model).chat("Search twice");

        assertThat(logSearch.executions()).isEqualTo(1);
        assertThat(model.toolResultsSeen()).extracting(ToolExecutionResultMessage::text).containsExactly(
                FOUND_TEXT,
                "ERROR DUPLICATE_TOOL_CALL: " + ErrorCode.DUPLICATE_TOOL_CALL.safeMessage());
        assertThat(model.toolResultsSeen().get(1).isError()).isTrue();
        CanonicalRecord record = recordOf("call_1");
        assertThat(record.status()).as("the first record is not overwritten").isEqualTo(InvocationStatus.READY);
        assertThat(record.agentResult().get().content()).isEqualTo("2 timeouts in checkout");
        assertModelSawNothingRaw(model);
    }

    @Test
    void runsAToolCallRepeatedInOneMessageOnce() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_1", "log-search", SEARCH_ARGS), toolCall("call_1", "log-search", SEARCH_ARGS)),
                answers("Done."));

        agent(model).chat("Search twice at once");

        assertThat(logSearch.executions()).isEqualTo(1);
        assertThat(recordOf("call_1").status()).isEqualTo(InvocationStatus.READY);
        // LangChain4j keys the results of one message by the request, so both slots show the last answer.
        assertThat(model.toolResultsSeen()).extracting(ToolExecutionResultMessage::text).containsOnly(
                "ERROR DUPLICATE_TOOL_CALL: " + ErrorCode.DUPLICATE_TOOL_CALL.safeMessage());
        assertModelSawNothingRaw(model);
    }

    @Test
    void refusesAReusedIdWithOtherArguments() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_1", "log-search", SEARCH_ARGS)),
                callsTools(toolCall("call_1", "log-search", "{\"query\":\"other\"}")),
                answers("Done."));

        agent(model).chat("Search");

        assertThat(logSearch.executions()).isEqualTo(1);
        assertThat(model.toolResultsSeen().get(1).text())
                .isEqualTo("ERROR TOOL_CALL_ID_REUSED: " + ErrorCode.TOOL_CALL_ID_REUSED.safeMessage());
    }

    @ParameterizedTest(name = "id=[{0}]")
    @NullAndEmptySource
    void passesAMissingFrameworkIdAsMissingAndRunsNothing(String missingId) {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall(missingId, "log-search", SEARCH_ARGS)),
                answers("Could not search."));

        String reply = agent(model).chat("Search");

        assertThat(reply).isEqualTo("Could not search.");
        assertThat(logSearch.executions()).isZero();
        assertThat(store.size()).as("the opened run only: no record without an id").isEqualTo(1);
        ToolExecutionResultMessage result = model.toolResultsSeen().get(0);
        assertThat(result.text()).isEqualTo("ERROR TOOL_CALL_ID_MISSING: The tool call has no tool_call_id.");
        assertThat(result.isError()).isTrue();
        assertThat(result.id()).as("the framework's id is echoed as it was").isEqualTo(missingId);
    }

    @Test
    void answersAToolTheModelWasNotOfferedThroughTheBoundary() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_x", "drop-database", "{}")),
                answers("That tool does not exist."));

        String reply = agent(model).chat("Clean up");

        assertThat(reply).isEqualTo("That tool does not exist.");
        assertThat(store.size()).as("the opened run only").isEqualTo(1);
        ToolExecutionResultMessage result = model.toolResultsSeen().get(0);
        assertThat(result.id()).isEqualTo("call_x");
        assertThat(result.text()).isEqualTo("ERROR TOOL_NOT_REGISTERED: No such tool is available.");
    }

    @Test
    void showsTheModelOnlyTheSafeErrorWhenTheToolThrows() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_f", "flaky", "{}")), answers("The tool failed."));

        agent(model).chat("Try the flaky tool");

        assertThat(failing.executions()).isEqualTo(1);
        assertThat(model.toolResultsSeen().get(0).text()).isEqualTo("ERROR EXECUTION_FAILED: The tool failed.");
        assertThat(recordOf("call_f").errorCode()).isEqualTo(Option.of(ErrorCode.EXECUTION_FAILED));
        assertModelSawNothingRaw(model);
    }

    @Test
    void readsTheRunContextAtEveryCall() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_1", "log-search", SEARCH_ARGS)),
                callsTools(toolCall("call_2", "log-search", SEARCH_ARGS)),
                answers("Stopped."));
        // The harness stops the run while the first call's tool runs.
        CountingExecutor stopping = FakeTools.counting(request -> {
            currentRun.updateAndGet(RunContext::deactivated);
            return "rows";
        });
        ToolBoundary stoppingBoundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .tool(ToolBinding.readOnly("log-search", stopping, FakeProjectors.evidenceFound("1 row"))).build();
        Agent agent = LangChain4jToolBoundary.of(stoppingBoundary, currentRun::get, List.of(spec("log-search")))
                .applyTo(AiServices.builder(Agent.class).chatModel(model)).build();

        agent.chat("Search twice");

        assertThat(stopping.executions()).isEqualTo(1);
        assertThat(model.toolResultsSeen()).extracting(ToolExecutionResultMessage::text)
                .containsExactly("EVIDENCE_FOUND\n1 row", "ERROR RUN_INACTIVE: The run is not active.");
    }

    @Test
    void answersInternalErrorWhenTheHarnessHasNoRunContext() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_1", "log-search", SEARCH_ARGS)), answers("No run."));

        agent(model, () -> null, false).chat("Search");

        assertThat(logSearch.executions()).isZero();
        assertThat(store.size()).as("the opened run only").isEqualTo(1);
        assertThat(model.toolResultsSeen().get(0).text())
                .isEqualTo("ERROR INTERNAL_ERROR: The tool call failed inside the boundary.");
    }

    @Test
    void answersRunNotOpenedToEveryCallOfARunTheHarnessNeverOpenedAndTellsTheListener() {
        List<ErrorCode> rejected = new CopyOnWriteArrayList<>();
        InMemoryCanonicalInvocationStore empty = InMemoryCanonicalInvocationStore.create();
        ToolBoundary listened = ToolBoundary.builder().store(empty).accessPolicy(AccessPolicy.allowAll())
                .listener(new BoundaryListener() {
                    @Override
                    public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
                        rejected.add(error.code());
                    }
                })
                .tool(ToolBinding.readOnly("log-search", logSearch, FakeProjectors.evidenceFound("1 row"))).build();
        RunContext unopened = Fixtures.anyRunContext();
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_1", "log-search", SEARCH_ARGS)),
                callsTools(toolCall("call_2", "log-search", SEARCH_ARGS)),
                answers("No run."));

        LangChain4jToolBoundary.of(listened, () -> unopened, List.of(spec("log-search")))
                .applyTo(AiServices.builder(Agent.class).chatModel(model)).build().chat("Search twice");

        assertThat(logSearch.executions()).isZero();
        assertThat(empty.size()).as("no run, no record").isZero();
        String notOpened = "ERROR RUN_NOT_OPENED: " + ErrorCode.RUN_NOT_OPENED.safeMessage();
        assertThat(model.toolResultsSeen()).extracting(ToolExecutionResultMessage::text, ToolExecutionResultMessage::isError)
                .containsExactly(tuple(notOpened, true), tuple(notOpened, true));
        assertThat(rejected).containsExactly(ErrorCode.RUN_NOT_OPENED, ErrorCode.RUN_NOT_OPENED);
    }

    @Test
    void answersRunStateLostToEveryCallOnceTheStoreLostTheRunAndRunsNothing() {
        // The run was opened; then its store lost it. Here: the store restarted empty behind the same tools.
        ToolBoundary restarted = ToolBoundary.builder().store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowAll())
                .tool(ToolBinding.readOnly("log-search", logSearch, FakeProjectors.evidenceFound("1 row"))).build();
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_1", "log-search", SEARCH_ARGS)),
                callsTools(toolCall("call_2", "log-search", SEARCH_ARGS)),
                answers("Start a new run."));

        LangChain4jToolBoundary.of(restarted, currentRun::get, List.of(spec("log-search")))
                .applyTo(AiServices.builder(Agent.class).chatModel(model)).build().chat("Search twice");

        assertThat(logSearch.executions()).isZero();
        String lost = "ERROR RUN_STATE_LOST: " + ErrorCode.RUN_STATE_LOST.safeMessage();
        assertThat(model.toolResultsSeen()).extracting(ToolExecutionResultMessage::text).containsExactly(lost, lost);
        assertThat(restarted.find(currentRun.get().runId(), new ToolCallId("call_1")).get()).isEmpty();
    }

    @Test
    void answersInternalErrorWhenTheRunContextSupplierThrows() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_1", "log-search", SEARCH_ARGS)), answers("No run."));

        agent(model, () -> {
            throw new IllegalStateException(SECRET);
        }, false).chat("Search");

        assertThat(logSearch.executions()).isZero();
        assertThat(model.toolResultsSeen().get(0).text())
                .isEqualTo("ERROR INTERNAL_ERROR: The tool call failed inside the boundary.");
        assertModelSawNothingRaw(model);
    }

    @Test
    void answersOneCallDirectlyForAHarnessThatDrivesToolsItself() {
        LangChain4jToolBoundary tools = LangChain4jToolBoundary.of(boundary, currentRun::get, OFFERED);

        String text = tools.answer(toolCall("call_direct", "log-search", SEARCH_ARGS));

        assertThat(text).isEqualTo(FOUND_TEXT);
        assertThat(recordOf("call_direct").status()).isEqualTo(InvocationStatus.READY);
    }

    @Test
    void rejectsASpecificationWhoseNameIsNotASafeToolName() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LangChain4jToolBoundary.of(boundary, currentRun::get, List.of(spec("log search"))))
                .withMessageContaining("specifications");
    }

    @Test
    void rejectsTwoSpecificationsWithOneName() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LangChain4jToolBoundary.of(boundary, currentRun::get,
                        List.of(spec("metrics"), spec("metrics"))))
                .withMessageContaining("twice");
    }

    @Test
    void refusesASpecificationTheBoundaryDoesNotRegisterNamingIt() {
        List<ToolSpecification> withTickets = List.of(spec("log-search"), spec("metrics"), spec("flaky"), spec("tickets"));

        assertThatIllegalArgumentException()
                .isThrownBy(() -> LangChain4jToolBoundary.of(boundary, currentRun::get, withTickets))
                .withMessageContaining("specified but not registered with the boundary [tickets]")
                .withMessageNotContaining("without a specification");
    }

    @Test
    void refusesARegisteredToolWithoutASpecificationNamingIt() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> LangChain4jToolBoundary.of(boundary, currentRun::get, List.of(spec("log-search"))))
                .withMessageContaining("registered with the boundary but without a specification [flaky, metrics]");
    }
}
