package io.toolboundary.tck.store;

import static io.toolboundary.tck.store.StoreChecks.assertAccepted;
import static io.toolboundary.tck.store.StoreChecks.refused;
import static io.toolboundary.tck.store.StoreRecordFixtures.COMPLETED_AT;
import static io.toolboundary.tck.store.StoreRecordFixtures.CREATED_AT;
import static io.toolboundary.tck.store.StoreRecordFixtures.GENEROUS_BUDGET;
import static io.toolboundary.tck.store.StoreRecordFixtures.REQUEST;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static io.toolboundary.tck.store.StoreRecordFixtures.TOOL;
import static io.toolboundary.tck.store.StoreRecordFixtures.evidenceFound;
import static io.toolboundary.tck.store.StoreRecordFixtures.failedOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.noEvidence;
import static io.toolboundary.tck.store.StoreRecordFixtures.projecting;
import static io.toolboundary.tck.store.StoreRecordFixtures.projectingOfSize;
import static io.toolboundary.tck.store.StoreRecordFixtures.readyOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.start;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Proves how a store creates records: it keeps them byte for byte, refuses duplicates and reused tool call ids keeping
 * the first record, and keeps each run within its run and tool budgets, rejections reserving nothing. Calls {@link
 * #store()} and {@link #maxRecordBytes()}.
 */
public interface StoreCreatingContract extends StoreFixture {

    // Creating records

    @Test
    @DisplayName("Tool begins execution")
    default void beginReturnsTheStoredProjectingRecord() {
        CanonicalRecord.Projecting record = projecting(openedRun(), "call_1");

        Either<StoreFailure, CanonicalRecord.Projecting> begun = beginAnew(record);

        assertThat(begun).isEqualTo(Either.right(record));
        assertThat(stored(record.key())).isEqualTo(Option.some(record));
        assertThat(stored(record.key()).get().status()).isEqualTo(InvocationStatus.PROJECTING);
        assertThat(stored(record.key()).get().agentResult()).isEmpty();
    }

    @Test
    default void findReturnsTheRecordExactlyByteForByte() {
        String request = "{ \"q\" : \"Gr\u00fc\u00dfe \ud83d\ude00 \ud834\udd1e \u20ac\\u00e9\\n\",\n\t\"n\":[1, 2.50, -0e0] }";
        CanonicalRecord.Projecting record = projecting(openedRun(), "call_A-z.0:9", "fetch.v2:logs-1", request,
                Instant.parse("2031-01-01T00:00:00.000000001Z"));

        begun(record);
        CanonicalRecord found = stored(record.key()).get();

        assertThat(found).isEqualTo(record);
        assertThat(found.arguments().getBytes(UTF_8)).isEqualTo(request.getBytes(UTF_8));
        assertThat(found.createdAt()).isEqualTo(record.createdAt());
    }

    @Test
    @DisplayName("Framework ID is preserved")
    default void keepsTheExactToolCallId() {
        RunId run = openedRun();
        String longest = "Call_" + "x".repeat(ToolCallId.MAX_LENGTH - 7) + ":9";
        CanonicalRecord.Projecting record = projecting(run, longest);

        begun(record);

        assertThat(stored(record.key()).get().key().toolCallId().value()).isEqualTo(longest);
        assertThat(stored(InvocationKey.of(run, new ToolCallId(longest.toLowerCase())))).isEmpty();
    }

    @Test
    default void keepsTheSameToolCallIdInTwoRunsApart() {
        CanonicalRecord.Projecting first = projecting(openedRun(), "call_1", TOOL.value(), "{\"n\":1}");
        CanonicalRecord.Projecting second = projecting(openedRun(), "call_1", TOOL.value(), "{\"n\":2}");

        begun(first);
        begun(second);

        assertThat(stored(first.key())).isEqualTo(Option.some(first));
        assertThat(stored(second.key())).isEqualTo(Option.some(second));
    }

    @Test
    default void findsNothingUnderAnUnknownKey() {
        assertThat(store().find(InvocationKey.of(openedRun(), new ToolCallId("call_1")), TIMEOUT))
                .isEqualTo(Either.right(Option.none()));
    }

    @Test
    default void findAllReadsTheNamedRecordsOfOneRunExactly() {
        RunId run = openedRun();
        Begun ready = begunCall();
        CanonicalRecord.Ready completed = readyOf(ready.record(), "raw \ud83d\ude00", evidenceFound("found"));
        assertThat(complete(completed, ready.token())).isEqualTo(Either.right(completed));
        CanonicalRecord.Projecting projecting = projecting(ready.key().runId(), "call_2:b");
        begun(projecting);
        CanonicalRecord.Projecting elsewhere = projecting(run, "call_3");
        begun(elsewhere);
        ToolCallId missing = new ToolCallId("call_missing");

        Either<StoreFailure, Map<ToolCallId, CanonicalRecord>> found = store().findAll(ready.key().runId(),
                new LinkedHashSet<>(List.of(ready.key().toolCallId(), projecting.key().toolCallId(), missing,
                        elsewhere.key().toolCallId())), TIMEOUT);

        assertThat(found).isEqualTo(Either.right(Map.of(ready.key().toolCallId(), completed,
                projecting.key().toolCallId(), projecting)));
        assertThat(store().findAll(run, Set.of(), TIMEOUT)).isEqualTo(Either.right(Map.of()));
    }

    @Test
    default void referencabilitiesSayHowEachNamedRecordMayBeCited() {
        Begun found = begunCall();
        RunId run = found.key().runId();
        CanonicalRecord.Ready evidence = readyOf(found.record(), "raw", evidenceFound("found"));
        assertThat(complete(evidence, found.token())).isEqualTo(Either.right(evidence));
        CanonicalRecord.Projecting empty = projecting(run, "call_empty");
        AttemptToken emptyToken = begun(empty);
        CanonicalRecord.Ready negative = readyOf(empty, "[]", noEvidence("nothing", "logs 10:00-10:15"));
        assertThat(complete(negative, emptyToken)).isEqualTo(Either.right(negative));
        CanonicalRecord.Projecting broken = projecting(run, "call_failed");
        AttemptToken brokenToken = begun(broken);
        CanonicalRecord.Failed failed = failedOf(broken, ErrorCode.EXECUTION_FAILED, Option.none());
        assertThat(complete(failed, brokenToken)).isEqualTo(Either.right(failed));
        CanonicalRecord.Projecting running = projecting(run, "call_running");
        begun(running);

        Either<StoreFailure, Map<ToolCallId, Referencability>> citable = store().referencabilities(run,
                new LinkedHashSet<>(List.of(found.key().toolCallId(), empty.key().toolCallId(),
                        broken.key().toolCallId(), running.key().toolCallId(), new ToolCallId("call_missing"))),
                TIMEOUT);

        assertThat(citable).isEqualTo(Either.right(Map.of(
                found.key().toolCallId(), Referencability.CITABLE_EVIDENCE,
                empty.key().toolCallId(), Referencability.SCOPED_NEGATIVE_OBSERVATION,
                broken.key().toolCallId(), Referencability.NOT_REFERENCABLE,
                running.key().toolCallId(), Referencability.NOT_REFERENCABLE)));
        assertThat(store().referencabilities(run, Set.of(), TIMEOUT)).isEqualTo(Either.right(Map.of()));
    }

    @Test
    default void findAllRefusesMoreCallsThanItReadsAtOnce() {
        Set<ToolCallId> tooMany = new LinkedHashSet<>();
        for (int i = 0; i <= CanonicalInvocationStore.MAX_FIND_ALL; i++) {
            tooMany.add(new ToolCallId("call_" + i));
        }
        RunId run = openedRun();

        assertThatThrownBy(() -> store().findAll(run, tooMany, TIMEOUT)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(String.valueOf(CanonicalInvocationStore.MAX_FIND_ALL));
    }

    @Test
    default void keepsReadyRecordExactly() {
        Begun call = begunCall();
        String raw = "line 1\r\nline \"2\"\t\\ \u0000 \ud83d\ude00\ud834\udd1e \u00e9\u20ac\n";
        CanonicalRecord.Ready ready = readyOf(call.record(), raw,
                noEvidence("nothing for \ud83d\ude00", "service checkout, logs 10:00-10:15 UTC \u20ac"));

        assertThat(complete(ready, call.token())).isEqualTo(Either.right(ready));

        CanonicalRecord found = stored(call.key()).get();
        assertThat(found).isEqualTo(ready);
        assertThat(found.rawResponse().get().getBytes(UTF_8)).isEqualTo(raw.getBytes(UTF_8));
        assertThat(found.updatedAt()).isEqualTo(COMPLETED_AT);
    }

    @Test
    default void keepsEmptyRawResponseAndEmptyResult() {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOf(call.record(), "", evidenceFound(""));

        assertCompleted(ready, call.token());
    }

    @Test
    default void keepsAnEmptyRawResponseApartFromNoRawResponse() {
        RunId run = openedRun();
        CanonicalRecord.Projecting withEmpty = projecting(run, "call_1");
        CanonicalRecord.Projecting without = projecting(run, "call_2");
        AttemptToken token = begun(withEmpty);
        begin(without, token);
        CanonicalRecord.Failed emptyRaw = failedOf(withEmpty, ErrorCode.PROJECTION_FAILED, Option.some(""));
        CanonicalRecord.Failed noRaw = failedOf(without, ErrorCode.EXECUTION_FAILED, Option.none());

        complete(emptyRaw, token);
        complete(noRaw, token);

        assertThat(stored(withEmpty.key())).isEqualTo(Option.some(emptyRaw));
        assertThat(stored(withEmpty.key()).get().rawResponse()).isEqualTo(Option.some(""));
        assertThat(stored(without.key())).isEqualTo(Option.some(noRaw));
        assertThat(stored(without.key()).get().rawResponse()).isEqualTo(Option.none());
    }

    // Duplicates

    @Test
    @DisplayName("Duplicate Tool Call ID is submitted")
    default void refusesSecondBeginWithTheSameFingerprintAndKeepsTheFirstRecord() {
        RunId run = openedRun();
        CanonicalRecord.Projecting first = projecting(run, "call_1");
        CanonicalRecord.Projecting again = projecting(run, "call_1", TOOL.value(), REQUEST, CREATED_AT.plusSeconds(5));
        begun(first);

        assertThat(beginAnew(again)).isEqualTo(refused(Refusal.DUPLICATE));
        assertThat(stored(first.key())).isEqualTo(Option.some(first));
    }

    @Test
    default void refusesSecondBeginWithAnotherFingerprintAsReusedId() {
        RunId run = openedRun();
        CanonicalRecord.Projecting first = projecting(run, "call_1");
        CanonicalRecord.Projecting other = projecting(run, "call_1", "other_tool", "{\"service\":\"billing\"}");
        begun(first);

        assertThat(beginAnew(other)).isEqualTo(refused(Refusal.ID_REUSED));
        assertThat(stored(first.key())).isEqualTo(Option.some(first));
    }

    @Test
    default void returnsTheStoredRecordWhenBeginIsRetriedWithTheSameToken() {
        Begun call = begunCall();

        assertThat(store().begin(start(call.record(), call.token()), TIMEOUT)).isEqualTo(Either.right(call.record()));
        assertThat(stored(call.key())).isEqualTo(Option.some(call.record()));
    }

    @Test
    default void refusesBeginOnAFinishedKeyAndKeepsTheFinalRecord() {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOf(call.record());
        complete(ready, call.token());

        assertThat(beginAnew(call.record())).isEqualTo(refused(Refusal.DUPLICATE));
        assertThat(stored(call.key())).isEqualTo(Option.some(ready));
    }

    // Budgets

    @Test
    default void allowsRunBudgetRecordsAndRefusesTheNext() {
        RunId run = openedRun();
        for (int i = 1; i <= 3; i++) {
            assertAccepted(beginAnew(projecting(run, "call_" + i), 3, GENEROUS_BUDGET));
        }

        assertThat(beginAnew(projecting(run, "call_4"), 3, GENEROUS_BUDGET))
                .isEqualTo(refused(Refusal.RUN_BUDGET_EXHAUSTED));
        assertThat(stored(InvocationKey.of(run, new ToolCallId("call_4")))).isEmpty();
    }

    @Test
    default void refusesEveryRecordWhenTheRunBudgetIsZero() {
        CanonicalRecord.Projecting record = projecting(openedRun(), "call_1");

        assertThat(beginAnew(record, 0, GENEROUS_BUDGET)).isEqualTo(refused(Refusal.RUN_BUDGET_EXHAUSTED));
        assertThat(stored(record.key())).isEmpty();
    }

    @Test
    default void rejectionsReserveNoRunBudget() {
        RunId run = openedRun();
        int runBudget = 2;
        int toolBudget = 1;
        CanonicalRecord.Projecting first = projecting(run, "call_1", "tool_a", "{\"n\":1}");
        assertAccepted(beginAnew(first, runBudget, toolBudget));

        assertThat(beginAnew(projecting(run, "call_1", "tool_a", "{\"n\":1}"), runBudget, toolBudget))
                .isEqualTo(refused(Refusal.DUPLICATE));
        assertThat(beginAnew(projecting(run, "call_1", "tool_b", "{\"n\":2}"), runBudget, toolBudget))
                .isEqualTo(refused(Refusal.ID_REUSED));
        assertThat(beginAnew(projecting(run, "call_2", "tool_a", "{\"n\":3}"), runBudget, toolBudget))
                .isEqualTo(refused(Refusal.TOOL_BUDGET_EXHAUSTED));
        assertThat(beginAnew(projectingOfSize(run, "call_3", maxRecordBytes() + 1, "a"), runBudget, GENEROUS_BUDGET))
                .isEqualTo(refused(Refusal.TOO_LARGE));

        assertAccepted(beginAnew(projecting(run, "call_4", "tool_b", "{\"n\":4}"), runBudget, toolBudget));
        assertThat(beginAnew(projecting(run, "call_5", "tool_c", "{\"n\":5}"), runBudget, toolBudget))
                .isEqualTo(refused(Refusal.RUN_BUDGET_EXHAUSTED));
    }

    @Test
    default void retriedBeginReservesNoBudget() {
        RunId run = openedRun();
        CanonicalRecord.Projecting first = projecting(run, "call_1");
        AttemptToken token = AttemptToken.random();
        assertThat(store().begin(start(first, token, 2, 2), TIMEOUT)).isEqualTo(Either.right(first));

        assertThat(store().begin(start(first, token, 2, 2), TIMEOUT)).isEqualTo(Either.right(first));

        assertAccepted(beginAnew(projecting(run, "call_2"), 2, 2));
        assertThat(beginAnew(projecting(run, "call_3"), 2, 2)).isEqualTo(refused(Refusal.RUN_BUDGET_EXHAUSTED));
    }

    @Test
    default void runBudgetIsPerRun() {
        RunId exhausted = openedRun();
        assertAccepted(beginAnew(projecting(exhausted, "call_1"), 1, GENEROUS_BUDGET));
        assertThat(beginAnew(projecting(exhausted, "call_2"), 1, GENEROUS_BUDGET))
                .isEqualTo(refused(Refusal.RUN_BUDGET_EXHAUSTED));

        assertAccepted(beginAnew(projecting(openedRun(), "call_2"), 1, GENEROUS_BUDGET));
    }

    @Test
    default void allowsToolBudgetRecordsAndRefusesTheNext() {
        RunId run = openedRun();
        for (int i = 1; i <= 2; i++) {
            assertAccepted(beginAnew(projecting(run, "call_" + i), GENEROUS_BUDGET, 2));
        }

        assertThat(beginAnew(projecting(run, "call_3"), GENEROUS_BUDGET, 2))
                .isEqualTo(refused(Refusal.TOOL_BUDGET_EXHAUSTED));
        assertThat(stored(InvocationKey.of(run, new ToolCallId("call_3")))).isEmpty();
    }

    @Test
    default void rejectionsReserveNoToolBudget() {
        RunId run = openedRun();
        CanonicalRecord.Projecting first = projecting(run, "call_1");
        assertAccepted(beginAnew(first, 1, 2));

        assertThat(beginAnew(projecting(run, "call_1"), 1, 2)).isEqualTo(refused(Refusal.DUPLICATE));
        assertThat(beginAnew(projecting(run, "call_2"), 1, 2)).isEqualTo(refused(Refusal.RUN_BUDGET_EXHAUSTED));

        assertAccepted(beginAnew(projecting(run, "call_3"), GENEROUS_BUDGET, 2));
        assertThat(beginAnew(projecting(run, "call_4"), GENEROUS_BUDGET, 2))
                .isEqualTo(refused(Refusal.TOOL_BUDGET_EXHAUSTED));
    }

    @Test
    default void toolBudgetIsPerTool() {
        RunId run = openedRun();
        assertAccepted(beginAnew(projecting(run, "call_1", "tool_a", REQUEST), GENEROUS_BUDGET, 1));
        assertThat(beginAnew(projecting(run, "call_2", "tool_a", REQUEST), GENEROUS_BUDGET, 1))
                .isEqualTo(refused(Refusal.TOOL_BUDGET_EXHAUSTED));

        assertAccepted(beginAnew(projecting(run, "call_3", "tool_b", REQUEST), GENEROUS_BUDGET, 1));
    }

    @Test
    default void toolBudgetIsPerRun() {
        RunId exhausted = openedRun();
        assertAccepted(beginAnew(projecting(exhausted, "call_1"), GENEROUS_BUDGET, 1));
        assertThat(beginAnew(projecting(exhausted, "call_2"), GENEROUS_BUDGET, 1))
                .isEqualTo(refused(Refusal.TOOL_BUDGET_EXHAUSTED));

        assertAccepted(beginAnew(projecting(openedRun(), "call_2"), GENEROUS_BUDGET, 1));
    }
}
