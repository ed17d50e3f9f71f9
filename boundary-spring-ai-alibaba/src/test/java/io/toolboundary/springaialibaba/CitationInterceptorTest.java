package io.toolboundary.springaialibaba;

import static io.toolboundary.springaialibaba.ScriptedAgentModel.call;
import static io.toolboundary.springaialibaba.ScriptedAgentModel.requesting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import com.alibaba.cloud.ai.graph.NodeOutput;
import com.alibaba.cloud.ai.graph.RunnableConfig;
import com.alibaba.cloud.ai.graph.agent.Builder;
import com.alibaba.cloud.ai.graph.agent.ReactAgent;
import com.alibaba.cloud.ai.graph.agent.interceptor.ModelCallHandler;
import com.alibaba.cloud.ai.graph.agent.interceptor.ModelInterceptor;
import com.alibaba.cloud.ai.graph.agent.interceptor.ModelRequest;
import com.alibaba.cloud.ai.graph.agent.interceptor.ModelResponse;
import com.alibaba.cloud.ai.graph.checkpoint.savers.MemorySaver;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.citations.CitationCheck;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.citations.CitationVerdict;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.tck.store.StoreRecordFixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/**
 * The citation check of a real {@code ReactAgent}'s final answer, over a scripted model and the in-memory store:
 * what the user gets for each kind of citation, the revision round, and the store reads per checked answer.
 */
class CitationInterceptorTest {

    private static final String FOUND = "{\"service\":\"checkout\"}";
    private static final String QUIET = "{\"service\":\"quiet\"}";
    private static final String BROKEN = "{\"service\":\"broken\"}";

    private final CountingStore store = new CountingStore(InMemoryCanonicalInvocationStore.create());
    private final ToolBoundary boundary = ToolBoundary.builder().store(store)
            .accessPolicy(AccessPolicy.allowOnly("log_query"))
            .tool(ReactAgentTools.readOnly("log_query", new ErrorLinesProjector()))
            .build();
    private final List<CitationReport> reports = new CopyOnWriteArrayList<>();
    private final CitationCheck check = CitationCheck.builder(boundary).listener(reports::add).build();
    private final RunContext run = open(boundary);
    private final LogTools tools = new LogTools();

    /** A log query: ERROR lines for a service, none for "quiet", a failure for "broken". */
    public static class LogTools {
        final AtomicInteger calls = new AtomicInteger();

        @Tool(name = "log_query", description = "Searches the logs of a service")
        public String logQuery(@ToolParam(description = "the service") String service) {
            calls.incrementAndGet();
            return switch (service) {
                case "broken" -> throw new IllegalStateException("log store down");
                case "quiet" -> "2030-01-01T10:00:01Z INFO quiet: all fine\n";
                default -> "2030-01-01T10:00:03Z ERROR checkout: timeout after 30000 ms\n";
            };
        }
    }

    private static RunContext open(ToolBoundary boundary) {
        return boundary.openRun(RunContext.active(new RunId("run-" + UUID.randomUUID()), Instant.now().plusSeconds(600),
                50)).get();
    }

    private Builder agent(ScriptedAgentModel model, CitationInterceptor citations) {
        return ReactAgent.builder().name("aiops").model(model).tools(ReactAgentTools.from(tools))
                .interceptors(citations, BoundaryToolInterceptor.of(boundary));
    }

    private String ask(ScriptedAgentModel model, CitationInterceptor citations, RunContext in) throws Exception {
        return agent(model, citations).build().call("Why did checkout fail?", BoundaryRunnableConfig.of(in)).getText();
    }

    /** The text the user gets when the model calls the tool with {@code arguments}, then answers {@code answer}. */
    private String answered(String arguments, String answer, CitationInterceptor citations) throws Exception {
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_1", "log_query", arguments)),
                new AssistantMessage(answer));
        return ask(model, citations, run);
    }

    private CitationInterceptor rejectingAtOnce() {
        return CitationInterceptor.builder(check).rounds(0).build();
    }

    private List<CitationVerdict> verdicts(int report) {
        return reports.get(report).citations().stream().map(CitationReport.Checked::verdict).toList();
    }

    @Test
    void givenAnAnswerCitingReadyEvidence_thenItGoesOutUnchanged() throws Exception {
        String answer = "Checkout timed out after 30 s [evidence: call_1].";

        String text = answered(FOUND, answer, CitationInterceptor.of(check));

        assertThat(text).isEqualTo(answer);
        assertThat(reports).singleElement().satisfies(report -> assertThat(report.grounded()).isTrue());
        assertThat(verdicts(0)).containsExactly(CitationVerdict.ACCEPTED);
    }

    @Test
    void givenAnAnswerCitingAFailedCall_thenItIsWithheld() throws Exception {
        String answer = "The log store is down [evidence: call_1].";

        String text = answered(BROKEN, answer, rejectingAtOnce());

        assertThat(boundary.find(run.runId(), new ToolCallId("call_1")).get().get().errorCode())
                .containsExactly(ErrorCode.EXECUTION_FAILED);
        assertThat(text).isEqualTo(CitationCheck.WITHHELD).isNotEqualTo(answer);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void givenAnAnswerCitingACallBegunButNotCompleted_thenItIsWithheld() throws Exception {
        CanonicalRecord.Projecting busy = StoreRecordFixtures.projecting(run.runId(), "call_busy", "log_query", FOUND);
        assertThat(store.begin(new InvocationStart(busy, AttemptToken.random(), run.runToken().get(),
                Duration.ofMinutes(10), Duration.ofMinutes(5), 50, 50, Long.MAX_VALUE), Duration.ofSeconds(5)).isRight())
                .as("begun").isTrue();
        String answer = "Checkout timed out [evidence: call_1] and the retry failed [evidence: call_busy].";

        String text = answered(FOUND, answer, rejectingAtOnce());

        assertThat(boundary.find(run.runId(), new ToolCallId("call_busy")).get().get().status())
                .isEqualTo(InvocationStatus.PROJECTING);
        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.ACCEPTED, CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void givenAnAnswerCitingAnIdNoCallHas_thenItIsWithheld() throws Exception {
        String answer = "Checkout timed out [evidence: call_invented].";

        String text = answered(FOUND, answer, rejectingAtOnce());

        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void givenAnAnswerCitingAnotherRunsCall_thenItIsWithheldAsNoCallOfThisRun() throws Exception {
        RunContext other = open(boundary);
        ask(ScriptedAgentModel.inOrder(requesting(call("call_other", "log_query", FOUND)),
                new AssistantMessage("[evidence: call_other]")), CitationInterceptor.of(check), other);
        assertThat(reports).singleElement().satisfies(report -> assertThat(report.grounded()).isTrue());
        String answer = "Checkout timed out [evidence: call_other].";

        String text = answered(FOUND, answer, rejectingAtOnce());

        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(verdicts(1)).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void givenANegativeObservationCitedAsEvidence_thenItIsWithheld() throws Exception {
        String answer = "The quiet service failed [evidence: call_1].";

        String text = answered(QUIET, answer, rejectingAtOnce());

        assertThat(boundary.find(run.runId(), new ToolCallId("call_1")).get().get().evidence())
                .containsExactly(EvidenceStatus.NO_EVIDENCE);
        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.NEGATIVE_AS_EVIDENCE);
    }

    @Test
    void givenANegativeObservationCitedAsNotFound_thenItGoesOutUnchanged() throws Exception {
        String answer = "No ERROR lines in the quiet service's logs [not found: call_1].";

        assertThat(answered(QUIET, answer, rejectingAtOnce())).isEqualTo(answer);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.ACCEPTED);
    }

    @Test
    void givenEvidenceCitedAsNotFound_thenItIsWithheld() throws Exception {
        String answer = "Nothing wrong with checkout [not found: call_1].";

        String text = answered(FOUND, answer, rejectingAtOnce());

        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.EVIDENCE_AS_NOT_FOUND);
    }

    @Test
    void givenAnAnswerThatCitesNothingAfterReadyResults_thenItIsWithheld() throws Exception {
        String answer = "Checkout timed out.";

        assertThat(answered(FOUND, answer, rejectingAtOnce())).isEqualTo(CitationCheck.WITHHELD);
        assertThat(reports.get(0).uncited()).isTrue();
    }

    @Test
    void givenAnUngroundedAnswer_whenTheRevisionIsGrounded_thenTheUserGetsTheRevision() throws Exception {
        String ungrounded = "The database is down [evidence: call_invented].";
        String revised = "Checkout timed out after 30 s [evidence: call_1].";
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_1", "log_query", FOUND)),
                new AssistantMessage(ungrounded), new AssistantMessage(revised));

        String text = ask(model, CitationInterceptor.of(check), run);

        assertThat(text).isEqualTo(revised);
        assertThat(reports).hasSize(2);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.NOT_REFERENCABLE);
        assertThat(verdicts(1)).containsExactly(CitationVerdict.ACCEPTED);
        List<Message> revision = model.prompts().get(2).getInstructions();
        assertThat(revision.get(revision.size() - 2)).isInstanceOf(AssistantMessage.class)
                .extracting(Message::getText).isEqualTo(ungrounded);
        assertThat(revision.get(revision.size() - 1)).isInstanceOf(UserMessage.class)
                .extracting(Message::getText).isEqualTo(check.feedback(reports.get(0)));
    }

    @Test
    void givenAnUngroundedAnswer_whenTheRevisionIsUngroundedToo_thenItIsWithheld() throws Exception {
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_1", "log_query", FOUND)),
                new AssistantMessage("[evidence: call_invented]"), new AssistantMessage("Still [evidence: call_2]"));

        String text = ask(model, CitationInterceptor.of(check), run);

        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(model.prompts()).as("the tool turn, the answer, one revision").hasSize(3);
        assertThat(reports).hasSize(2).noneMatch(CitationReport::grounded);
    }

    @Test
    void givenAnUngroundedAnswer_whenTheRevisionRequestsTools_thenItIsWithheldAndNothingRuns() throws Exception {
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_1", "log_query", FOUND)),
                new AssistantMessage("[evidence: call_invented]"), requesting(call("call_2", "log_query", FOUND)));

        String text = ask(model, CitationInterceptor.of(check), run);

        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(tools.calls).hasValue(1);
    }

    @Test
    void givenNoRevisionRounds_whenTheAnswerIsUngrounded_thenItIsWithheldWithoutAskingTheModelAgain() throws Exception {
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_1", "log_query", FOUND)),
                new AssistantMessage("[evidence: call_invented]"), new AssistantMessage("[evidence: call_1]"));

        String text = ask(model, rejectingAtOnce(), run);

        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(model.prompts()).hasSize(2);
        assertThat(reports).hasSize(1);
    }

    @Test
    void givenTheStoreCannotBeRead_whenTheAnswerIsChecked_thenItIsWithheld() throws Exception {
        store.failReads.set(true);
        String answer = "Checkout timed out after 30 s [evidence: call_1].";

        String text = answered(FOUND, answer, CitationInterceptor.of(check));

        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(reports).isEmpty();
    }

    @Test
    void givenAConfigWithoutARun_whenTheAgentAnswers_thenItIsWithheld() throws Exception {
        String answer = "Checkout timed out after 30 s [evidence: call_1].";
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_1", "log_query", FOUND)),
                new AssistantMessage(answer));

        String text = agent(model, CitationInterceptor.of(check)).build()
                .call("Why did checkout fail?", RunnableConfig.builder().build()).getText();

        assertThat(text).isEqualTo(CitationCheck.WITHHELD);
        assertThat(reports).isEmpty();
    }

    @Test
    void eachCheckedAnswerReadsTheStoreOnceWithFindAllAndNeverWithFind() throws Exception {
        List<int[]> beforeCheck = new CopyOnWriteArrayList<>();
        List<int[]> afterCheck = new CopyOnWriteArrayList<>();
        CitationCheck counted = CitationCheck.builder(boundary).listener(report -> afterCheck.add(store.counts())).build();
        ModelInterceptor countsAfterTheModel = new ModelInterceptor() {
            @Override
            public ModelResponse interceptModel(ModelRequest request, ModelCallHandler handler) {
                ModelResponse response = handler.call(request);
                beforeCheck.add(store.counts());
                return response;
            }

            @Override
            public String getName() {
                return "counts";
            }
        };
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(
                requesting(call("call_1", "log_query", FOUND), call("call_2", "log_query", QUIET)),
                new AssistantMessage("[evidence: call_1] [evidence: call_invented] [not found: call_2]"),
                new AssistantMessage("[evidence: call_1] [not found: call_2]"));

        String text = ReactAgent.builder().name("aiops").model(model).tools(ReactAgentTools.from(tools))
                .interceptors(CitationInterceptor.of(counted), countsAfterTheModel, BoundaryToolInterceptor.of(boundary))
                .build().call("Why did checkout fail?", BoundaryRunnableConfig.of(run)).getText();

        assertThat(text).isEqualTo("[evidence: call_1] [not found: call_2]");
        assertThat(afterCheck).as("two answers checked").hasSize(2);
        assertThat(beforeCheck).as("the tool turn and two answers").hasSize(3);
        for (int answer = 0; answer < 2; answer++) {
            int[] before = beforeCheck.get(answer + 1);
            int[] after = afterCheck.get(answer);
            assertThat(after[0] - before[0]).as("store reads of answer %d", answer).isEqualTo(1);
            assertThat(after[1] - before[1]).as("find calls of answer %d", answer).isZero();
        }
    }

    @Test
    void givenAStreamedAnswer_whenItIsUngrounded_thenTheStreamEndsWithTheGroundedRevision() throws Exception {
        String revised = "Checkout timed out after 30 s [evidence: call_1].";
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_1", "log_query", FOUND)),
                new AssistantMessage("[evidence: call_invented]"), new AssistantMessage(revised));

        NodeOutput last = agent(model, CitationInterceptor.of(check)).build()
                .stream("Why did checkout fail?", BoundaryRunnableConfig.of(run)).blockLast();

        assertThat(lastMessage(last).getText()).isEqualTo(revised);
        assertThat(reports).hasSize(2);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void givenAStreamedAnswer_whenItStaysUngrounded_thenTheStreamEndsWithheld() throws Exception {
        String answer = "The database is down [evidence: call_invented].";
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_1", "log_query", FOUND)),
                new AssistantMessage(answer));

        NodeOutput last = agent(model, rejectingAtOnce()).build()
                .stream("Why did checkout fail?", BoundaryRunnableConfig.of(run)).blockLast();

        assertThat(lastMessage(last).getText()).isEqualTo(CitationCheck.WITHHELD);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @SuppressWarnings("unchecked")
    private static Message lastMessage(NodeOutput output) {
        List<Message> messages = (List<Message>) output.state().value("messages").orElseThrow();
        return messages.get(messages.size() - 1);
    }

    @Test
    void givenAConversationKeptAcrossRuns_whenTheNewRunCitesTheEarlierRunsCall_thenItIsOtherRun() throws Exception {
        RunContext earlier = open(boundary);
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_e1", "log_query", FOUND)),
                new AssistantMessage("Checkout timed out [evidence: call_e1]."),
                new AssistantMessage("As before, checkout timed out [evidence: call_e1]."));
        ReactAgent agent = agent(model, rejectingAtOnce()).saver(new MemorySaver()).hooks(new ToolResultRunHook()).build();
        String thread = UUID.randomUUID().toString();

        String first = agent.call("Why did checkout fail?", BoundaryRunnableConfig.with(
                RunnableConfig.builder().threadId(thread), earlier).build()).getText();
        String second = agent.call("And now?", BoundaryRunnableConfig.with(
                RunnableConfig.builder().threadId(thread), run).build()).getText();

        assertThat(first).isEqualTo("Checkout timed out [evidence: call_e1].");
        assertThat(second).isEqualTo(CitationCheck.WITHHELD);
        assertThat(verdicts(0)).containsExactly(CitationVerdict.ACCEPTED);
        assertThat(verdicts(1)).containsExactly(CitationVerdict.OTHER_RUN);
        List<ToolResponseMessage> results = model.prompts().get(2).getInstructions().stream()
                .filter(ToolResponseMessage.class::isInstance).map(ToolResponseMessage.class::cast).toList();
        assertThat(results).as("the earlier run's result, once").hasSize(1);
        ToolResponseMessage shown = results.get(0);
        assertThat(shown.getMetadata()).containsEntry(CitationInterceptor.RUN_ID_KEY, earlier.runId().value());
        assertThat(shown.getResponses()).singleElement()
                .satisfies(response -> assertThat(response.responseData()).startsWith("EVIDENCE_FOUND"));
    }

    @Test
    void givenAConversationKeptAcrossRunsWithoutTheHook_whenTheNewRunCitesTheEarlierRunsCall_thenItIsNoCallOfThisRun()
            throws Exception {
        RunContext earlier = open(boundary);
        ScriptedAgentModel model = ScriptedAgentModel.inOrder(requesting(call("call_e1", "log_query", FOUND)),
                new AssistantMessage("Checkout timed out [evidence: call_e1]."),
                new AssistantMessage("As before, checkout timed out [evidence: call_e1]."));
        ReactAgent agent = agent(model, rejectingAtOnce()).saver(new MemorySaver()).build();
        String thread = UUID.randomUUID().toString();

        agent.call("Why did checkout fail?", BoundaryRunnableConfig.with(
                RunnableConfig.builder().threadId(thread), earlier).build());
        String second = agent.call("And now?", BoundaryRunnableConfig.with(
                RunnableConfig.builder().threadId(thread), run).build()).getText();

        assertThat(second).isEqualTo(CitationCheck.WITHHELD);
        assertThat(verdicts(1)).containsExactly(CitationVerdict.NOT_REFERENCABLE);
    }

    @Test
    void shownResultsAreEachUnderTheRunTheirMessageNames() {
        RunId current = new RunId("run-now");
        ToolResponseMessage earlier = ToolResponseMessage.builder()
                .responses(List.of(new ToolResponseMessage.ToolResponse("call_e", "log_query", "EVIDENCE_FOUND")))
                .metadata(Map.of(CitationInterceptor.RUN_ID_KEY, "run-before")).build();
        ToolResponseMessage now = ToolResponseMessage.builder()
                .responses(List.of(new ToolResponseMessage.ToolResponse("call_n", "log_query", "EVIDENCE_FOUND"),
                        new ToolResponseMessage.ToolResponse("no such id!", "log_query", "EVIDENCE_FOUND")))
                .build();

        Set<InvocationKey> shown = CitationInterceptor.shown(current, List.of(new UserMessage("q"), earlier, now));

        assertThat(shown).containsExactly(InvocationKey.of(new RunId("run-before"), new ToolCallId("call_e")),
                InvocationKey.of(current, new ToolCallId("call_n")));
    }

    @Test
    void refusesNegativeRounds() {
        assertThatIllegalArgumentException().isThrownBy(() -> CitationInterceptor.builder(check).rounds(-1))
                .withMessageContaining("rounds");
    }

    /** Counts the store's reads, and fails {@code findAll} on demand. */
    private static final class CountingStore extends ForwardingStore {
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger finds = new AtomicInteger();
        final AtomicBoolean failReads = new AtomicBoolean();

        CountingStore(CanonicalInvocationStore store) {
            super(store);
        }

        int[] counts() {
            return new int[] {reads.get(), finds.get()};
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
            return failReads.get() ? Either.left(StoreFailure.unavailable()) : super.referencabilities(runId, toolCallIds, timeout);
        }
    }
}
