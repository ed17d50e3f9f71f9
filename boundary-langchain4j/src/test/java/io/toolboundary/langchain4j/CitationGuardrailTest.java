package io.toolboundary.langchain4j;

import static io.toolboundary.langchain4j.ScriptedChatModel.answers;
import static io.toolboundary.langchain4j.ScriptedChatModel.callsTools;
import static io.toolboundary.langchain4j.ScriptedChatModel.toolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.guardrail.OutputGuardrailException;
import dev.langchain4j.guardrail.config.OutputGuardrailsConfig;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.citations.CitationCheck;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.citations.CitationVerdict;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A LangChain4j {@link AiServices} agent with {@code @Tool} methods, a chat memory and the
 * {@link CitationGuardrail}, driven by a scripted model, over a real boundary on the in-memory store: each
 * answer is checked against the run's records, a refused one goes back to the model with the check's
 * feedback, and the caller gets the revised answer.
 */
class CitationGuardrailTest {

    interface Agent {
        String chat(String userMessage);
    }

    static final String RAW_MARKER = "RAW-ROW";
    static final String SECRET = "secret-dsn=redis://admin:hunter2@10.0.0.1";
    static final String FOUND = "2 timeouts in checkout";
    static final String SEARCH_ARGS = "{\"query\":\"timeout\"}";
    static final String METRIC_ARGS = "{\"metric\":\"p99\"}";
    static final String REVISED = "Checkout timed out twice [evidence: call_found].";
    static final ToolExecutionRequest SEARCH = toolCall("call_found", "log-search", SEARCH_ARGS);

    /** The agent's tools, as an application writes them. */
    public static class IncidentTools {

        @Tool(name = "log-search", value = "Searches the checkout logs")
        public String searchLogs(@P("what to look for") String query) {
            return RAW_MARKER + " 10:03 checkout timeout; " + RAW_MARKER + " 10:07 checkout timeout";
        }

        @Tool(name = "metrics", value = "Reads a latency metric of checkout")
        public String metrics(@P("the metric") String metric) {
            return RAW_MARKER + " p99=180ms";
        }

        @Tool(name = "flaky", value = "Reads the payment database")
        public String flaky(@P("what to look for") String query) {
            throw new IllegalStateException(SECRET);
        }
    }

    /** The store, with its reads logged into the test's timeline and findAll made to fail on demand. */
    static final class RecordingStore extends ForwardingStore {

        final List<String> timeline;
        volatile boolean failReads;

        RecordingStore(CanonicalInvocationStore store, List<String> timeline) {
            super(store);
            this.timeline = timeline;
        }

        @Override
        public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
            timeline.add("find");
            return super.find(key, timeout);
        }

        @Override
        public Either<StoreFailure, Map<ToolCallId, Referencability>> referencabilities(RunId runId, Set<ToolCallId> toolCallIds,
                Duration timeout) {
            timeline.add("read");
            return failReads ? Either.left(StoreFailure.unavailable()) : super.referencabilities(runId, toolCallIds, timeout);
        }
    }

    final List<String> timeline = new CopyOnWriteArrayList<>();
    final RecordingStore store = new RecordingStore(InMemoryCanonicalInvocationStore.create(), timeline);
    final AnnotatedTools annotated = AnnotatedTools.from(new IncidentTools());
    final ToolBoundary boundary = ToolBoundary.builder()
            .store(store)
            .accessPolicy(AccessPolicy.allowAll())
            .tool(annotated.readOnly("log-search", (request, raw) -> Projection.evidenceFound(FOUND, "logs 10:00-10:15")))
            .tool(annotated.readOnly("metrics", FakeProjectors.noEvidence("no p99 breach", "metrics 10:00-10:15")))
            .tool(annotated.readOnly("flaky", FakeProjectors.evidenceFound("never")))
            .build();
    final List<CitationReport> reports = new CopyOnWriteArrayList<>();
    final CitationCheck check = CitationCheck.builder(boundary).listener(report -> {
        reports.add(report);
        timeline.add("report");
    }).build();
    final AtomicReference<RunContext> currentRun =
            new AtomicReference<>(Fixtures.opened(boundary, Fixtures.runContext("run-now")));
    final LangChain4jToolBoundary tools = LangChain4jToolBoundary.of(boundary, currentRun::get, annotated.specifications());
    final ChatMemory memory = MessageWindowChatMemory.withMaxMessages(100);

    Agent agent(ScriptedChatModel model) {
        return agent(model, CitationGuardrail.of(check, tools), OutputGuardrailsConfig.MAX_RETRIES_DEFAULT);
    }

    Agent agent(ScriptedChatModel model, CitationGuardrail guardrail, int maxRetries) {
        ChatModel timed = new ChatModel() {
            @Override
            public ChatResponse doChat(ChatRequest request) {
                timeline.add("model");
                return model.doChat(request);
            }
        };
        return tools.applyTo(AiServices.builder(Agent.class)
                        .chatModel(timed)
                        .chatMemory(memory)
                        .outputGuardrails(List.of(guardrail))
                        .outputGuardrailsConfig(OutputGuardrailsConfig.builder().maxRetries(maxRetries).build()))
                .build();
    }

    static List<CitationVerdict> verdicts(CitationReport report) {
        return report.citations().stream().map(CitationReport.Checked::verdict).toList();
    }

    static ChatMessage lastMessage(ChatRequest request) {
        return request.messages().get(request.messages().size() - 1);
    }

    CanonicalRecord recordOf(String toolCallId) {
        return boundary.find(currentRun.get().runId(), new ToolCallId(toolCallId)).get().get();
    }

    /**
     * The model calls {@code toolCalls}, answers {@code refused}, is told why, and answers {@link #REVISED}:
     * the caller gets the revision, and the refused answer's report holds {@code verdict} (if not null).
     */
    CitationReport refusedThenRevised(String refused, CitationVerdict verdict, ToolExecutionRequest... toolCalls) {
        ScriptedChatModel model = ScriptedChatModel.replying(callsTools(toolCalls), answers(refused), answers(REVISED));

        String reply = agent(model).chat("Why did checkout fail?");

        assertThat(reply).isEqualTo(REVISED);
        assertThat(reports).hasSize(2);
        CitationReport refusal = reports.get(0);
        assertThat(refusal.grounded()).isFalse();
        if (verdict != null) {
            assertThat(verdicts(refusal)).containsExactly(verdict);
        }
        assertThat(reports.get(1).grounded()).isTrue();
        assertThat(verdicts(reports.get(1))).containsExactly(CitationVerdict.ACCEPTED);
        assertThat(model.requests).hasSize(3);
        String feedback = check.feedback(refusal);
        assertThat(lastMessage(model.requests.get(2))).isEqualTo(UserMessage.from(feedback));
        assertThat(feedback).doesNotContain(FOUND).doesNotContain(RAW_MARKER).doesNotContain("hunter2");
        return refusal;
    }

    @Test
    void passesAnAnswerCitingWhatTheRunsCallsFound() {
        String answer = "Checkout timed out twice [evidence: call_found]; p99 did not breach within metrics"
                + " 10:00-10:15 [not found: call_empty].";
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(SEARCH, toolCall("call_empty", "metrics", METRIC_ARGS)), answers(answer));

        String reply = agent(model).chat("Why did checkout fail?");

        assertThat(reply).isEqualTo(answer);
        assertThat(reports).hasSize(1);
        assertThat(reports.get(0).grounded()).isTrue();
        assertThat(verdicts(reports.get(0))).containsExactly(CitationVerdict.ACCEPTED, CitationVerdict.ACCEPTED);
        assertThat(reports.get(0).runId()).isEqualTo(currentRun.get().runId());
        assertThat(model.requests).as("no reprompt").hasSize(2);
    }

    @Test
    void refusesAFailedCallCitedAsEvidence() {
        refusedThenRevised("The payment database is down [evidence: call_failed].", CitationVerdict.NOT_REFERENCABLE,
                SEARCH, toolCall("call_failed", "flaky", SEARCH_ARGS));

        assertThat(recordOf("call_failed").status()).isEqualTo(InvocationStatus.ERROR);
        assertThat(recordOf("call_failed").errorCode()).isEqualTo(Option.of(ErrorCode.EXECUTION_FAILED));
    }

    @Test
    void refusesACallThatIsStillProjecting() {
        RunId run = currentRun.get().runId();
        RunToken token = store.openRun(new RunOpening(run, RunToken.random(), Duration.ofHours(1)), Duration.ofSeconds(1)).get();
        CanonicalRecord.Projecting running = new CanonicalRecord.Projecting(InvocationKey.of(run, new ToolCallId("call_running")),
                new ToolName("log-search"), SEARCH_ARGS, "fp:running", Instant.now());
        assertThat(store.begin(new InvocationStart(running, AttemptToken.random(), token, Duration.ofHours(1),
                Duration.ofMinutes(5), 1_000, 1_000, Long.MAX_VALUE), Duration.ofSeconds(1)).isRight()).isTrue();

        refusedThenRevised("Checkout is still timing out [evidence: call_running].", CitationVerdict.NOT_REFERENCABLE,
                SEARCH);

        assertThat(recordOf("call_running").status()).isEqualTo(InvocationStatus.PROJECTING);
    }

    @Test
    void refusesAnIdNoCallHas() {
        refusedThenRevised("Checkout timed out [evidence: call_made_up].", CitationVerdict.NOT_REFERENCABLE, SEARCH);
    }

    @Test
    void refusesANegativeObservationCitedAsEvidence() {
        refusedThenRevised("Latency is healthy [evidence: call_empty].", CitationVerdict.NEGATIVE_AS_EVIDENCE,
                SEARCH, toolCall("call_empty", "metrics", METRIC_ARGS));
    }

    @Test
    void refusesEvidenceCitedAsNotFound() {
        refusedThenRevised("The logs show nothing [not found: call_found].", CitationVerdict.EVIDENCE_AS_NOT_FOUND,
                SEARCH);

        List<ChatMessage> remembered = memory.messages();
        assertThat(remembered.get(remembered.size() - 1)).as("LangChain4j 1.19 keeps the refused answer in the memory")
                .isEqualTo(answers("The logs show nothing [not found: call_found]."));
    }

    @Test
    void refusesAnAnswerThatCitesNoneOfTheResultsItWasShown() {
        CitationReport refusal = refusedThenRevised("Checkout timed out twice.", null, SEARCH);

        assertThat(refusal.uncited()).isTrue();
    }

    @Test
    void refusesACallOfAnEarlierRunInTheSameChatMemory() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_old", "log-search", SEARCH_ARGS)), answers("Timeouts [evidence: call_old]."),
                callsTools(SEARCH), answers("As before [evidence: call_old]."), answers(REVISED));
        Agent agent = agent(model);
        RunId earlier = currentRun.get().runId();
        assertThat(agent.chat("What failed?")).isEqualTo("Timeouts [evidence: call_old].");
        currentRun.set(Fixtures.opened(boundary, Fixtures.runContext("run-next")));

        String reply = agent.chat("And now?");

        assertThat(reply).isEqualTo(REVISED);
        assertThat(reports).extracting(CitationReport::runId)
                .containsExactly(earlier, currentRun.get().runId(), currentRun.get().runId());
        assertThat(verdicts(reports.get(1))).containsExactly(CitationVerdict.OTHER_RUN);
        assertThat(reports.get(2).grounded()).isTrue();
        assertThat(lastMessage(model.requests.get(4))).isEqualTo(UserMessage.from(check.feedback(reports.get(1))));
    }

    @Test
    void onTheSupplierAloneAnEarlierRunsCallIsReadInTheCurrentRunAndStillRefused() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(toolCall("call_old", "log-search", SEARCH_ARGS)), answers("Timeouts [evidence: call_old]."),
                callsTools(SEARCH), answers("As before [evidence: call_old]."), answers(REVISED));
        Agent agent = agent(model, CitationGuardrail.of(check, currentRun::get), OutputGuardrailsConfig.MAX_RETRIES_DEFAULT);
        agent.chat("What failed?");
        currentRun.set(Fixtures.opened(boundary, Fixtures.runContext("run-next")));

        assertThat(agent.chat("And now?")).isEqualTo(REVISED);
        assertThat(verdicts(reports.get(1))).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @ParameterizedTest(name = "maxRetries={0}")
    @ValueSource(ints = {1, 2, 3})
    void withholdsTheAnswerOnceTheConfiguredAnswersAreAllRefused(int maxRetries) {
        ScriptedChatModel model = ScriptedChatModel.replying(callsTools(SEARCH),
                answers("Nothing [not found: call_found]."), answers("Still nothing [not found: call_found]."),
                answers("Really nothing [not found: call_found]."), answers(REVISED));
        Agent agent = agent(model, CitationGuardrail.of(check, tools), maxRetries);

        assertThatThrownBy(() -> agent.chat("Why did checkout fail?"))
                .isInstanceOf(OutputGuardrailException.class)
                .hasMessageContaining(CitationCheck.WITHHELD)
                .message().doesNotContain(FOUND).doesNotContain(RAW_MARKER).doesNotContain("call_found");
        assertThat(reports).as("LangChain4j's maxRetries counts the answers checked").hasSize(maxRetries);
        assertThat(reports).allSatisfy(report -> assertThat(verdicts(report))
                .containsExactly(CitationVerdict.EVIDENCE_AS_NOT_FOUND));
        assertThat(model.requests).hasSize(1 + maxRetries);
    }

    @Test
    void failsClosedWithoutARepromptWhenTheStoreCannotBeRead() {
        store.failReads = true;
        ScriptedChatModel model = ScriptedChatModel.replying(callsTools(SEARCH),
                answers("Checkout timed out [evidence: call_found]."), answers(REVISED));

        assertThatThrownBy(() -> agent(model).chat("Why did checkout fail?"))
                .isInstanceOf(OutputGuardrailException.class)
                .hasMessageContaining(CitationGuardrail.UNCHECKED)
                .message().doesNotContain(FOUND).doesNotContain(RAW_MARKER);
        assertThat(model.requests).as("no reprompt").hasSize(2);
        assertThat(reports).isEmpty();
        assertThat(timeline).contains("read");
    }

    @Test
    void failsClosedWhenTheRunIsUnknown() {
        ScriptedChatModel model = ScriptedChatModel.replying(callsTools(SEARCH),
                answers("Checkout timed out [evidence: call_found]."), answers(REVISED));
        Agent agent = agent(model, CitationGuardrail.of(check, () -> null), OutputGuardrailsConfig.MAX_RETRIES_DEFAULT);

        assertThatThrownBy(() -> agent.chat("Why did checkout fail?"))
                .isInstanceOf(OutputGuardrailException.class)
                .hasMessageContaining(CitationGuardrail.UNCHECKED);
        assertThat(model.requests).hasSize(2);
        assertThat(timeline).doesNotContain("read");
    }

    @Test
    void readsTheStoreOnceWithFindAllAndNeverWithFindPerCheckedAnswer() {
        ScriptedChatModel model = ScriptedChatModel.replying(
                callsTools(SEARCH, toolCall("call_empty", "metrics", METRIC_ARGS), toolCall("call_failed", "flaky", SEARCH_ARGS)),
                answers("Latency is healthy [evidence: call_empty] and the database is down [evidence: call_failed]."),
                answers(REVISED));

        assertThat(agent(model).chat("Why did checkout fail?")).isEqualTo(REVISED);

        assertThat(timeline).containsExactly("model", "model", "read", "report", "model", "read", "report");
    }
}
