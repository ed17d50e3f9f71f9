package io.toolboundary.citations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Every verdict of the citation check, over a real boundary and the in-memory store: the records are made
 * by real calls (found, nothing found, failed, still running), and each check reads the store once.
 */
class CitationCheckTest {

    private final CountingStore store = new CountingStore(InMemoryCanonicalInvocationStore.create());
    private final AtomicReference<CitationCheck> running = new AtomicReference<>();
    private final List<Either<BoundaryError, CitationReport>> seenWhileRunning = new ArrayList<>();
    private final List<CitationReport> told = new ArrayList<>();
    private final ToolBoundary boundary = ToolBoundary.builder()
            .store(store)
            .accessPolicy(AccessPolicy.allowAll())
            .tool(ToolBinding.readOnly("logs", FakeTools.returning("ERROR payments timeout"),
                    FakeProjectors.evidenceFound("payments timed out at 10:02")))
            .tool(ToolBinding.readOnly("metrics", FakeTools.returning("[]"),
                    FakeProjectors.noEvidence("no alerts", "service payments, 10:00-10:15 UTC")))
            .tool(ToolBinding.readOnly("broken", FakeTools.throwing("secret-db-password in stack"),
                    FakeProjectors.evidenceFound("never")))
            .tool(ToolBinding.readOnly("slow", request -> {
                seenWhileRunning.add(running.get().check(request.key().runId(), "[evidence: call_slow]", List.of()));
                return "done";
            }, FakeProjectors.evidenceFound("slow result")))
            .build();
    private final CitationCheck check = CitationCheck.builder(boundary).listener(told::add).build();
    private final RunContext run = Fixtures.opened(boundary, Fixtures.runContext("run-a"));
    private final RunContext otherRun = Fixtures.opened(boundary, Fixtures.runContext("run-b"));

    CitationCheckTest() {
        running.set(check);
        call(run, "call_found", "logs");
        call(run, "call_empty", "metrics");
        call(run, "call_failed", "broken");
        call(otherRun, "call_other", "logs");
    }

    @Test
    void acceptsEvidenceCitedAsEvidenceAndANegativeObservationCitedAsNotFound() {
        CitationReport report = checked("Payments timed out [evidence: call_found]; no alert fired within"
                + " payments 10:00-10:15 [not found: call_empty].");

        assertThat(report.grounded()).isTrue();
        assertThat(verdicts(report)).containsExactly(CitationVerdict.ACCEPTED, CitationVerdict.ACCEPTED);
    }

    @Test
    void refusesAFailedCall() {
        assertThat(verdicts(checked("The database is down [evidence: call_failed]")))
                .containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void refusesACallStillRunning() {
        call(run, "call_slow", "slow");

        assertThat(seenWhileRunning).hasSize(1);
        CitationReport whileRunning = seenWhileRunning.get(0).get();
        assertThat(verdicts(whileRunning)).containsExactly(CitationVerdict.NOT_REFERENCABLE);
        assertThat(verdicts(checked("[evidence: call_slow]"))).as("once READY").containsExactly(CitationVerdict.ACCEPTED);
    }

    @Test
    void refusesAnUnknownIdAndAnIdThatNamesNoCall() {
        CitationReport report = checked("[evidence: call_unknown] and [evidence: no such call!] and"
                + " [evidence: " + "x".repeat(ToolCallId.MAX_LENGTH + 1) + "]");

        assertThat(verdicts(report)).containsExactly(CitationVerdict.NOT_REFERENCABLE,
                CitationVerdict.NOT_REFERENCABLE, CitationVerdict.NOT_REFERENCABLE);
        assertThat(report.grounded()).isFalse();
    }

    @Test
    void refusesACallShownUnderAnotherRunWithoutReadingIt() {
        List<InvocationKey> shown = List.of(key(run, "call_found"), key(otherRun, "call_other"));
        int before = store.reads.get();

        CitationReport report = check.check(run.runId(), "[evidence: call_other]", shown).get();

        assertThat(verdicts(report)).containsExactly(CitationVerdict.OTHER_RUN);
        assertThat(store.reads.get()).as("nothing to read").isEqualTo(before);
    }

    @Test
    void anotherRunsIdNotShownIsNotACallOfThisRun() {
        assertThat(verdicts(checked("[evidence: call_other]"))).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void refusesANegativeObservationCitedAsEvidence() {
        assertThat(verdicts(checked("No alerts, so payments are healthy [evidence: call_empty]")))
                .containsExactly(CitationVerdict.NEGATIVE_AS_EVIDENCE);
    }

    @Test
    void refusesEvidenceCitedAsNotFound() {
        assertThat(verdicts(checked("Nothing in the logs [not found: call_found]")))
                .containsExactly(CitationVerdict.EVIDENCE_AS_NOT_FOUND);
    }

    @Test
    void oneBadCitationMakesTheAnswerUngrounded() {
        CitationReport report = checked("[evidence: call_found] [evidence: call_failed]");

        assertThat(verdicts(report)).containsExactly(CitationVerdict.ACCEPTED, CitationVerdict.NOT_REFERENCABLE);
        assertThat(report.grounded()).isFalse();
        assertThat(report.counts()).isEqualTo(Map.of(CitationVerdict.ACCEPTED, 1, CitationVerdict.NOT_REFERENCABLE, 1));
    }

    @Test
    void anAnswerCitingNothingIsUncitedWhenAReadyResultWasShown() {
        CitationReport report = check.check(run.runId(), "Payments are fine.",
                List.of(key(run, "call_failed"), key(run, "call_found"))).get();

        assertThat(report.uncited()).isTrue();
        assertThat(report.grounded()).isFalse();
        assertThat(check.feedback(report)).contains("cites none");
    }

    @Test
    void anAnswerCitingNothingIsGroundedWhenNoShownResultIsReady() {
        CitationReport report = check.check(run.runId(), "I could not find out.",
                List.of(key(run, "call_failed"), key(otherRun, "call_other"))).get();

        assertThat(report.uncited()).isFalse();
        assertThat(report.grounded()).isTrue();
    }

    @Test
    void allowingUncitedAnswersReadsNothingForThem() {
        CitationCheck lenient = CitationCheck.builder(boundary).allowUncited(true).build();
        int before = store.reads.get();

        CitationReport report = lenient.check(run.runId(), "Payments are fine.", List.of(key(run, "call_found"))).get();

        assertThat(report.grounded()).isTrue();
        assertThat(store.reads.get()).isEqualTo(before);
    }

    @Test
    void readsTheStoreOncePerAnswerWhateverItCites() {
        int findsBefore = store.finds.get();
        int readsBefore = store.reads.get();

        check.check(run.runId(), "[evidence: call_found] [not found: call_empty] [evidence: call_failed]"
                + " [evidence: call_unknown] [evidence: call_found]", List.of(key(run, "call_found"))).get();

        assertThat(store.reads.get() - readsBefore).isEqualTo(1);
        assertThat(store.finds.get() - findsBefore).isZero();
        assertThat(store.lastRead.get()).containsExactlyInAnyOrder(new ToolCallId("call_found"),
                new ToolCallId("call_empty"), new ToolCallId("call_failed"), new ToolCallId("call_unknown"));
    }

    @Test
    void readsAtMostTheCallsOneAnswerMayCiteAndSaysSoOfTheRest() {
        StringBuilder answer = new StringBuilder();
        for (int i = 0; i <= CitationCheck.MAX_CITED_CALLS; i++) {
            answer.append("[evidence: call_").append(i).append("] ");
        }

        CitationReport report = checked(answer.toString());

        assertThat(store.lastRead.get()).hasSize(CitationCheck.MAX_CITED_CALLS);
        assertThat(report.citations()).hasSize(CitationCheck.MAX_CITED_CALLS + 1);
        assertThat(report.citations().get(CitationCheck.MAX_CITED_CALLS).verdict()).isEqualTo(CitationVerdict.NOT_CHECKED);
    }

    @Test
    void aStoreFailureIsAnErrorNotAVerdict() {
        ToolBoundary down = ToolBoundary.builder().store(new ForwardingStore(InMemoryCanonicalInvocationStore.create()) {
            @Override
            public Either<StoreFailure, Map<ToolCallId, Referencability>> referencabilities(RunId runId,
                    Set<ToolCallId> toolCallIds, Duration timeout) {
                return Either.left(StoreFailure.unavailable());
            }
        }).accessPolicy(AccessPolicy.allowAll()).build();

        Either<BoundaryError, CitationReport> checked = CitationCheck.of(down).check(run.runId(), "[evidence: call_found]",
                List.of());

        assertThat(checked.getLeft().code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    }

    @Test
    void theListenerIsToldEachReportAndCannotChangeIt() {
        CitationCheck throwing = CitationCheck.builder(boundary).listener(report -> {
            throw new IllegalStateException("listener down");
        }).build();

        assertThat(throwing.check(run.runId(), "[evidence: call_found]", List.of()).get().grounded()).isTrue();
        checked("[evidence: call_found]");
        assertThat(told).hasSize(1);
    }

    @Test
    void theFeedbackNamesOnlyWhatTheModelWroteAndNothingOfTheRecords() {
        CitationReport report = checked("[evidence: call_failed] [evidence: call_empty] [not found: call_found]"
                + " [evidence: <script>secret</script>]");

        String feedback = check.feedback(report);

        assertThat(feedback).contains("[evidence: call_failed]", "[evidence: call_empty]", "[not found: call_found]",
                "names no tool call");
        assertThat(feedback).doesNotContain("secret", "payments", "ERROR payments timeout", "run-a", "run-b",
                "STORE", "EXECUTION_FAILED");
    }

    @Test
    void readsTheFormsLeniently() {
        assertThat(check.citations("a [Evidence:call_1] b [ not  FOUND :  call_2 , call_3 ] c [evidence: ] d"))
                .containsExactly(Citation.evidence("call_1"), Citation.notFound("call_2"), Citation.notFound("call_3"));
        assertThat(check.citations("no citation here, (evidence: call_1)")).isEmpty();
    }

    @Test
    void takesItsOwnForms() {
        CitationCheck custom = CitationCheck.builder(boundary).forms("<<src {id}>>", "<<none {id}>>").build();

        assertThat(custom.citations("x <<src call_found>> y <<none call_empty>> [evidence: call_1]"))
                .containsExactly(Citation.evidence("call_found"), Citation.notFound("call_empty"));
        assertThat(custom.promptFragment()).contains("<<src <tool call id>>>", "<<none <tool call id>>>");
    }

    @Test
    void refusesFormsItCouldNotRead() {
        CitationCheck.Builder builder = CitationCheck.builder(boundary);

        assertThatThrownBy(() -> builder.forms("[evidence]", "[not found: {id}]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("{id}");
        assertThatThrownBy(() -> builder.forms("[evidence: {id} {id}]", "[not found: {id}]"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.forms("{id}", "[not found: {id}]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("text before and after");
        assertThatThrownBy(() -> builder.forms("[x: {id}]", "[X: {id}]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("differ");
    }

    private CitationReport checked(String answer) {
        return check.check(run.runId(), answer, List.of()).get();
    }

    private void call(RunContext context, String toolCallId, String tool) {
        boundary.invoke(context, ToolCallEnvelope.of(context.runId().value(), toolCallId, tool, "{}"));
    }

    private static InvocationKey key(RunContext context, String toolCallId) {
        return InvocationKey.of(context.runId(), new ToolCallId(toolCallId));
    }

    private static List<CitationVerdict> verdicts(CitationReport report) {
        return report.citations().stream().map(CitationReport.Checked::verdict).toList();
    }

    /** Counts the store's reads. */
    private static final class CountingStore extends ForwardingStore {
        final AtomicInteger finds = new AtomicInteger();
        final AtomicInteger reads = new AtomicInteger();
        final AtomicReference<Set<ToolCallId>> lastRead = new AtomicReference<>(Set.of());

        CountingStore(CanonicalInvocationStore store) {
            super(store);
        }

        @Override
        public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
            finds.incrementAndGet();
            return super.find(key, timeout);
        }

        @Override
        public Either<StoreFailure, Map<ToolCallId, Referencability>> referencabilities(RunId runId, Set<ToolCallId> toolCallIds,
                Duration timeout) {
            reads.incrementAndGet();
            lastRead.set(Set.copyOf(toolCallIds));
            return super.referencabilities(runId, toolCallIds, timeout);
        }
    }
}
