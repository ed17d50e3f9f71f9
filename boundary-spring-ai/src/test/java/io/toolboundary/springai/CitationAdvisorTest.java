package io.toolboundary.springai;

import static io.toolboundary.springai.ScriptedChatModel.call;
import static io.toolboundary.springai.ScriptedChatModel.requesting;
import static io.toolboundary.springai.ScriptedChatModel.saying;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.citations.CitationCheck;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.citations.CitationVerdict;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.tck.store.StoreRecordFixtures;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * The citation advisor in Spring AI's own ChatClient, with Spring AI's tool calling advisor and the
 * boundary's manager, a scripted model and the in-memory store: which answers reach the caller, which are
 * sent back to the model, and which are withheld.
 */
class CitationAdvisorTest {

    private static final String ARGUMENTS = "{\"query\":\"timeout\"}";
    private static final String BOUNDED = "3 timeouts in checkout between 10:00 and 10:15";
    private static final String SCOPE = "service checkout, logs 10:00-10:15 UTC";
    private static final String METRICS = "metrics";
    private static final String BROKEN = "broken";

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-01-01T10:00:00Z"));
    private final CountingStore store = new CountingStore(InMemoryCanonicalInvocationStore.create(clock));
    private final LogSearchCallback logSearch = new LogSearchCallback();
    private final ToolBoundary boundary = ToolBoundary.builder()
            .store(store)
            .accessPolicy(AccessPolicy.allowAll())
            .clock(clock)
            .tool(ToolCallbackBindings.readOnly(logSearch, (request, raw) -> Projection.evidenceFound(BOUNDED, SCOPE)))
            .tool(ToolBinding.readOnly(METRICS, FakeTools.returning("[]"),
                    FakeProjectors.noEvidence("no alerts", "service checkout, 10:00-10:15 UTC")))
            .tool(ToolBinding.readOnly(BROKEN, FakeTools.throwing("connect to 10.0.0.7 failed"),
                    FakeProjectors.evidenceFound("never")))
            .build();
    private final List<CitationReport> reports = new CopyOnWriteArrayList<>();
    private final CitationCheck check = CitationCheck.builder(boundary).listener(reports::add).build();
    private final RunContext run = Fixtures.opened(boundary, Fixtures.runContext("run-now"));

    @Test
    void anAnswerCitingEvidenceFoundPassesUnchanged() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)),
                saying("Checkout timed out [evidence: call_A1]."));

        String answer = chat(model, CitationAdvisor.of(check));

        assertThat(answer).isEqualTo("Checkout timed out [evidence: call_A1].");
        assertThat(model.prompts()).as("no revise round").hasSize(2);
        assertThat(reports).singleElement().satisfies(report -> {
            assertThat(report.grounded()).isTrue();
            assertThat(verdicts(report)).containsExactly(CitationVerdict.ACCEPTED);
        });
    }

    @Test
    void anAnswerCitingAFailedCallIsWithheld() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_f", BROKEN, "{}")), saying("The database is down [evidence: call_f]."));

        assertThat(chat(model, withoutRevise())).isEqualTo(CitationCheck.WITHHELD);
        assertThat(record("call_f").status()).isEqualTo(InvocationStatus.ERROR);
        assertThat(onlyVerdicts()).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void anAnswerCitingAnUnfinishedCallIsWithheld() {
        CanonicalRecord.Projecting projecting = StoreRecordFixtures.projecting(run.runId(), "call_p");
        store.begin(new InvocationStart(projecting, AttemptToken.random(), run.runToken().get(), Duration.ofHours(1),
                Duration.ofMinutes(5), 100, 100, Long.MAX_VALUE), Duration.ofSeconds(5)).get();
        ScriptedChatModel model = ScriptedChatModel.answering(saying("Checkout is slow [evidence: call_p]."));

        assertThat(chat(model, withoutRevise())).isEqualTo(CitationCheck.WITHHELD);
        assertThat(record("call_p").status()).isEqualTo(InvocationStatus.PROJECTING);
        assertThat(onlyVerdicts()).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void anAnswerCitingAnUnknownIdIsWithheld() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)),
                saying("Checkout timed out [evidence: call_made_up]."));

        assertThat(chat(model, withoutRevise())).isEqualTo(CitationCheck.WITHHELD);
        assertThat(onlyVerdicts()).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void anAnswerCitingACallTheConversationShowedUnderAnotherRunIsWithheldAsOtherRun() {
        RunContext earlier = Fixtures.opened(boundary, Fixtures.runContext("run-earlier"));
        ScriptedChatModel earlierModel = ScriptedChatModel.answering(
                requesting(call("call_old", LogSearchCallback.NAME, ARGUMENTS)),
                saying("Checkout timed out [evidence: call_old]."));
        chat(earlierModel, earlier, CitationAdvisor.of(check), List.of());
        List<Message> carriedOver = earlierModel.prompts().get(1).getInstructions();
        assertThat(carriedOver).last().isInstanceOf(ToolResponseMessage.class);
        reports.clear();
        ScriptedChatModel model = ScriptedChatModel.answering(saying("Checkout timed out [evidence: call_old]."));

        String answer = chat(model, run, withoutRevise(), carriedOver);

        assertThat(answer).isEqualTo(CitationCheck.WITHHELD);
        assertThat(record(earlier.runId(), "call_old").status()).isEqualTo(InvocationStatus.READY);
        assertThat(onlyVerdicts()).containsExactly(CitationVerdict.OTHER_RUN);
    }

    @Test
    void anAnswerCitingNoEvidenceAsEvidenceIsWithheld() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_m", METRICS, "{}")),
                saying("No alert fired, so checkout is healthy [evidence: call_m]."));

        assertThat(chat(model, withoutRevise())).isEqualTo(CitationCheck.WITHHELD);
        assertThat(onlyVerdicts()).containsExactly(CitationVerdict.NEGATIVE_AS_EVIDENCE);
    }

    @Test
    void anAnswerCitingEvidenceAsNotFoundIsWithheld() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)),
                saying("Nothing in the logs [not found: call_A1]."));

        assertThat(chat(model, withoutRevise())).isEqualTo(CitationCheck.WITHHELD);
        assertThat(onlyVerdicts()).containsExactly(CitationVerdict.EVIDENCE_AS_NOT_FOUND);
    }

    @Test
    void anAnswerCitingNothingAfterAReadyResultIsWithheldAsUncited() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)), saying("Checkout timed out."));

        assertThat(chat(model, withoutRevise())).isEqualTo(CitationCheck.WITHHELD);
        assertThat(reports).singleElement().satisfies(report -> assertThat(report.uncited()).isTrue());
    }

    @Test
    void theReviseRoundSendsTheFeedbackAndTheCallerGetsTheRevisedAnswer() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)),
                saying("Checkout timed out [evidence: call_made_up]."),
                saying("Checkout timed out [evidence: call_A1]."));

        String answer = chat(model, CitationAdvisor.of(check));

        assertThat(answer).isEqualTo("Checkout timed out [evidence: call_A1].");
        assertThat(model.prompts()).hasSize(3);
        List<Message> revise = model.prompts().get(2).getInstructions();
        assertThat(revise.get(revise.size() - 2)).isInstanceOf(AssistantMessage.class)
                .extracting(Message::getText).isEqualTo("Checkout timed out [evidence: call_made_up].");
        assertThat(revise.get(revise.size() - 1)).isInstanceOf(UserMessage.class)
                .extracting(Message::getText).asString()
                .contains("[evidence: call_made_up]", "Rewrite the answer");
        assertThat(revise).as("the model still sees the tool result it may cite")
                .filteredOn(ToolResponseMessage.class::isInstance).singleElement()
                .satisfies(message -> assertThat(((ToolResponseMessage) message).getResponses())
                        .extracting(ToolResponseMessage.ToolResponse::id).containsExactly("call_A1"));
        assertThat(reports).extracting(CitationAdvisorTest::verdicts).containsExactly(
                List.of(CitationVerdict.NOT_REFERENCABLE), List.of(CitationVerdict.ACCEPTED));
        assertThat(logSearch.inputs()).as("the tool ran once").hasSize(1);
    }

    @Test
    void anAnswerStillUngroundedAfterTheReviseRoundsIsWithheld() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)),
                saying("Checkout timed out [evidence: call_made_up]."),
                saying("Checkout timed out [evidence: call_still_made_up]."));

        assertThat(chat(model, CitationAdvisor.of(check))).isEqualTo(CitationCheck.WITHHELD);
        assertThat(model.prompts()).hasSize(3);
        assertThat(reports).hasSize(2).allSatisfy(report -> assertThat(report.grounded()).isFalse());
    }

    @Test
    void withNoReviseRoundsAnUngroundedAnswerIsWithheldAtOnce() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)),
                saying("Checkout timed out [evidence: call_made_up]."),
                saying("Checkout timed out [evidence: call_A1]."));

        assertThat(chat(model, withoutRevise())).isEqualTo(CitationCheck.WITHHELD);
        assertThat(model.prompts()).as("never asked to revise").hasSize(2);
        assertThat(reports).hasSize(1);
    }

    @Test
    void aStoreErrorWithholdsTheAnswerWithoutAReviseRound() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS)),
                saying("Checkout timed out [evidence: call_A1]."),
                saying("Checkout timed out [evidence: call_A1]."));
        store.failReads.set(true);

        assertThat(chat(model, CitationAdvisor.of(check))).isEqualTo(CitationCheck.WITHHELD);
        assertThat(model.prompts()).hasSize(2);
        assertThat(reports).as("nothing was known").isEmpty();
    }

    @Test
    void eachCheckedAnswerReadsTheStoreOnceWithFindAll() {
        ScriptedChatModel model = ScriptedChatModel.answering(
                requesting(call("call_A1", LogSearchCallback.NAME, ARGUMENTS), call("call_m", METRICS, "{}"),
                        call("call_f", BROKEN, "{}")),
                saying("Timeouts [evidence: call_A1], no alert [evidence: call_m], db [evidence: call_f]"
                        + " [evidence: call_made_up] [evidence: call_A1]."),
                saying("Timeouts [evidence: call_A1]; no alert fired [not found: call_m]."));
        int readsBefore = store.reads.size();
        int findsBefore = store.finds.size();

        String answer = chat(model, CitationAdvisor.of(check));

        assertThat(answer).isEqualTo("Timeouts [evidence: call_A1]; no alert fired [not found: call_m].");
        assertThat(reports).hasSize(2);
        assertThat(store.reads.subList(readsBefore, store.reads.size())).as("one read per answer")
                .containsExactly(ids("call_A1", "call_m", "call_f", "call_made_up"), ids("call_A1", "call_m"));
        assertThat(store.finds.size() - findsBefore).isZero();
    }

    @Test
    void aRequestWithoutRunContextIsRefusedBeforeTheModelIsAsked() {
        ScriptedChatModel model = ScriptedChatModel.answering(saying("anything"));
        ChatClient client = clientFor(model, CitationAdvisor.of(check));

        assertThatThrownBy(() -> client.prompt().user("What failed?").call().content())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("RunContext");
        assertThat(model.prompts()).isEmpty();
    }

    @Test
    void theBuilderRefusesNegativeRoundsAndKeepsTheOrder() {
        assertThatThrownBy(() -> CitationAdvisor.builder(check).reviseRounds(-1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(CitationAdvisor.builder(check).order(7).build().getOrder()).isEqualTo(7);
        assertThat(CitationAdvisor.of(check).getOrder()).isEqualTo(CitationAdvisor.DEFAULT_ORDER)
                .isLessThan(LineApi.toolCallingAdvisor(BoundaryToolCallingManager.of(boundary)).getOrder());
    }

    private CitationAdvisor withoutRevise() {
        return CitationAdvisor.builder(check).reviseRounds(0).build();
    }

    private String chat(ScriptedChatModel model, CitationAdvisor advisor) {
        return chat(model, run, advisor, List.of());
    }

    private String chat(ScriptedChatModel model, RunContext in, CitationAdvisor advisor, List<Message> history) {
        return LineApi.tools(clientFor(model, advisor).prompt().messages(history).user("What failed in checkout?"),
                        logSearch)
                .toolContext(BoundaryToolContext.of(in))
                .call()
                .content();
    }

    private ChatClient clientFor(ScriptedChatModel model, CitationAdvisor advisor) {
        return ChatClient.builder(model)
                .defaultAdvisors(LineApi.toolCallingAdvisor(BoundaryToolCallingManager.of(boundary)), advisor)
                .build();
    }

    private CanonicalRecord record(String toolCallId) {
        return record(run.runId(), toolCallId);
    }

    private CanonicalRecord record(RunId runId, String toolCallId) {
        return boundary.find(runId, new ToolCallId(toolCallId)).get()
                .getOrElseThrow(() -> new AssertionError("no record for " + toolCallId));
    }

    private List<CitationVerdict> onlyVerdicts() {
        assertThat(reports).hasSize(1);
        return verdicts(reports.get(0));
    }

    private static List<CitationVerdict> verdicts(CitationReport report) {
        return report.citations().stream().map(CitationReport.Checked::verdict).toList();
    }

    private static Set<ToolCallId> ids(String... toolCallIds) {
        return Stream.of(toolCallIds).map(ToolCallId::new).collect(Collectors.toSet());
    }

    /** Keeps what each read asked for; fails reads when told to. */
    private static final class CountingStore extends ForwardingStore {
        final List<Set<ToolCallId>> reads = new CopyOnWriteArrayList<>();
        final List<InvocationKey> finds = new CopyOnWriteArrayList<>();
        final AtomicBoolean failReads = new AtomicBoolean();

        CountingStore(CanonicalInvocationStore store) {
            super(store);
        }

        @Override
        public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
            finds.add(key);
            return super.find(key, timeout);
        }

        @Override
        public Either<StoreFailure, Map<ToolCallId, Referencability>> referencabilities(RunId runId, Set<ToolCallId> toolCallIds,
                Duration timeout) {
            reads.add(Set.copyOf(toolCallIds));
            return failReads.get() ? Either.left(StoreFailure.unavailable()) : super.referencabilities(runId, toolCallIds, timeout);
        }
    }
}
