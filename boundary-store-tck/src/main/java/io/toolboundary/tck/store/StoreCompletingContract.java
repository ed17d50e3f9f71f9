package io.toolboundary.tck.store;

import static io.toolboundary.tck.store.StoreChecks.refused;
import static io.toolboundary.tck.store.StoreRecordFixtures.CREATED_AT;
import static io.toolboundary.tck.store.StoreRecordFixtures.LEASE;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static io.toolboundary.tck.store.StoreRecordFixtures.TOOL;
import static io.toolboundary.tck.store.StoreRecordFixtures.TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.characterOfUtf8Bytes;
import static io.toolboundary.tck.store.StoreRecordFixtures.evidenceFound;
import static io.toolboundary.tck.store.StoreRecordFixtures.failedOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.noEvidence;
import static io.toolboundary.tck.store.StoreRecordFixtures.padding;
import static io.toolboundary.tck.store.StoreRecordFixtures.projecting;
import static io.toolboundary.tck.store.StoreRecordFixtures.projectingOfSize;
import static io.toolboundary.tck.store.StoreRecordFixtures.readyOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.readyOfSize;
import static io.toolboundary.tck.store.StoreRecordFixtures.start;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves how a store completes records: one final outcome per record, by its attempt's token only; a TTL set at begin
 * that neither reads, completions nor refusals extend; nothing found or recreated after expiry; and the record limit to
 * the byte. Calls {@link #store()}, {@link #remainingTtl(InvocationKey)}, {@link #expire(InvocationKey)} and {@link
 * #maxRecordBytes()}.
 */
public interface StoreCompletingContract extends StoreFixture {

    // Completing records

    @Test
    @DisplayName("Projector succeeds")
    default void movesProjectingToReadyWithEvidence() {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOf(call.record(), "{\"hits\":3}", evidenceFound("3 errors at 10:02"));

        assertCompleted(ready, call.token());
    }

    @Test
    @DisplayName("No evidence projection completes")
    default void movesProjectingToReadyWithNoEvidenceAndKeepsItsScope() {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOf(call.record(), "{\"hits\":0}", noEvidence("no errors", "checkout, 10:00-10:15"));

        assertThat(complete(ready, call.token())).isEqualTo(Either.right(ready));
        CanonicalRecord found = stored(call.key()).get();
        assertThat(found.evidence()).isEqualTo(Option.some(EvidenceStatus.NO_EVIDENCE));
        assertThat(found.agentResult().flatMap(AgentResult::scope)).isEqualTo(Option.some("checkout, 10:00-10:15"));
    }

    @Test
    default void movesProjectingToErrorWithRawResponse() {
        Begun call = begunCall();
        CanonicalRecord.Failed failed = failedOf(call.record(), ErrorCode.PROJECTION_FAILED, Option.some("{\"hits\":\"?\"}"));

        assertCompleted(failed, call.token());
    }

    @Test
    default void keepsWhyARecordFailedAndGivesItBackOnRead() {
        Begun call = begunCall();
        CanonicalRecord.Failed failed = failedOf(call.record(), ErrorCode.EXECUTION_FAILED, Option.some("partial"))
                .because("java.net.SocketTimeoutException", "Read timed out after 30000 ms \u00e9\u20ac\ud83d\ude00");

        assertCompleted(failed, call.token());

        CanonicalRecord stored = store().find(failed.key(), TIMEOUT).get().get();
        assertThat(stored.failureType()).contains("java.net.SocketTimeoutException");
        assertThat(stored.failureMessage()).contains("Read timed out after 30000 ms \u00e9\u20ac\ud83d\ude00");
        assertThat(stored.byteSize()).isEqualTo(failed.byteSize());
    }

    @Test
    default void keepsAnEmptyFailureMessageApartFromNone() {
        Begun call = begunCall();
        CanonicalRecord.Failed failed = failedOf(call.record(), ErrorCode.PROJECTION_FAILED, Option.none())
                .because("java.lang.NullPointerException", "");

        assertCompleted(failed, call.token());

        CanonicalRecord stored = store().find(failed.key(), TIMEOUT).get().get();
        assertThat(stored).isEqualTo(failed);
        assertThat(stored.failureMessage()).contains("");
    }

    @Test
    default void movesProjectingToErrorWithoutRawResponse() {
        Begun call = begunCall();
        CanonicalRecord.Failed failed = failedOf(call.record(), ErrorCode.EXECUTION_FAILED, Option.none());

        assertCompleted(failed, call.token());
    }

    @Test
    default void refusesEveryChangeToAReadyRecord() {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOf(call.record());
        complete(ready, call.token());

        assertRefusesEveryOtherOutcome(call.record(), call.token(), ready);
    }

    @Test
    default void refusesEveryChangeToAnErrorRecord() {
        Begun call = begunCall();
        CanonicalRecord.Failed failed = failedOf(call.record(), ErrorCode.EXECUTION_FAILED, Option.none());
        complete(failed, call.token());

        assertRefusesEveryOtherOutcome(call.record(), call.token(), failed);
    }

    @Test
    default void returnsTheStoredRecordWhenTheSameCompletionIsRepeated() {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOf(call.record());
        complete(ready, call.token());

        assertCompleted(ready, call.token());
    }

    @Test
    default void returnsTheStoredRecordWhenTheSameFailureIsRepeated() {
        Begun call = begunCall();
        CanonicalRecord.Failed failed = failedOf(call.record(), ErrorCode.PROJECTION_INVALID, Option.some("raw"));
        complete(failed, call.token());

        assertCompleted(failed, call.token());
    }

    @Test
    default void refusesCompletionWithAnotherToken() {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOf(call.record());

        assertThat(complete(ready, AttemptToken.random())).isEqualTo(refused(Refusal.CONFLICT));
        assertThat(stored(call.key())).isEqualTo(Option.some(call.record()));
        assertThat(complete(ready, call.token())).isEqualTo(Either.right(ready));
    }

    @Test
    default void refusesRepeatedCompletionWithAnotherToken() {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOf(call.record());
        complete(ready, call.token());

        assertThat(complete(ready, AttemptToken.random())).isEqualTo(refused(Refusal.CONFLICT));
        assertThat(stored(call.key())).isEqualTo(Option.some(ready));
    }

    @Test
    default void refusesACompletionByTheTokenOfAnotherAttemptUnderTheSameKey() {
        RunId run = openedRun();
        CanonicalRecord.Projecting record = projecting(run, "call_1");
        begun(record);
        CanonicalRecord.Projecting impostor = projecting(run, "call_1", TOOL.value(), "{\"service\":\"billing\"}");

        // Only the attempt's token proves an outcome to be of its record; another token never does.
        assertThat(complete(readyOf(impostor), AttemptToken.random())).isEqualTo(refused(Refusal.CONFLICT));
        assertThat(stored(record.key())).isEqualTo(Option.some(record));
    }

    private void assertRefusesEveryOtherOutcome(CanonicalRecord.Projecting record, AttemptToken token,
            CanonicalRecord.Final stored) {
        List<CanonicalRecord.Final> others = List.of(
                readyOf(record),
                readyOf(record, "other raw", evidenceFound("found")),
                readyOf(record, "raw", noEvidence("nothing", "checkout")),
                failedOf(record, ErrorCode.EXECUTION_FAILED, Option.none()),
                failedOf(record, ErrorCode.PROJECTION_FAILED, Option.some("raw")));
        for (CanonicalRecord.Final other : others) {
            if (other.equals(stored)) {
                continue;
            }
            assertThat(complete(other, token)).as("complete %s after %s", other, stored)
                    .isEqualTo(refused(Refusal.CONFLICT));
            assertThat(stored(record.key())).isEqualTo(Option.some(stored));
        }
    }

    // Time to live

    @Test
    default void setsTheTtlAtBegin() {
        CanonicalRecord.Projecting record = projecting(openedRun(), "call_1");

        begun(record);

        assertThat(liveTtl(record.key())).isPositive().isLessThanOrEqualTo(TTL);
    }

    @Test
    @DisplayName("Read does not renew TTL")
    default void readsDoNotExtendTheTtl() {
        CanonicalRecord.Projecting record = begunCall().record();
        Duration before = liveTtl(record.key());

        for (int i = 0; i < 100; i++) {
            assertThat(stored(record.key())).isEqualTo(Option.some(record));
        }

        assertThat(liveTtl(record.key())).isPositive().isLessThanOrEqualTo(before);
    }

    @Test
    default void keepsTheTtlWhenCompleted() {
        Begun call = begunCall();
        Duration before = liveTtl(call.key());

        complete(readyOf(call.record()), call.token());

        assertThat(liveTtl(call.key())).isPositive().isLessThanOrEqualTo(before);
    }

    @Test
    default void refusedBeginsDoNotExtendTheTtl() {
        Begun call = begunCall();
        Duration before = liveTtl(call.key());
        Duration longer = TTL.multipliedBy(10);

        store().begin(startLiving(call.record(), call.token(), longer, LEASE), TIMEOUT);
        store().begin(startLiving(call.record(), AttemptToken.random(), longer, LEASE), TIMEOUT);

        assertThat(liveTtl(call.key())).isPositive().isLessThanOrEqualTo(before);
    }

    private Duration liveTtl(InvocationKey key) {
        Option<Duration> ttl = remainingTtl(key);
        assertThat(ttl).as("remaining TTL of a live record").isNotEmpty();
        return ttl.get();
    }

    // Expiry

    @Test
    default void findsNothingAfterExpiry() {
        CanonicalRecord.Projecting record = begunCall().record();

        expire(record.key());

        assertThat(stored(record.key())).isEmpty();
        assertThat(remainingTtl(record.key())).isEmpty();
    }

    @Test
    default void refusesCompletionOfAnExpiredRecordAndDoesNotRecreateIt() {
        Begun call = begunCall();
        expire(call.key());

        assertThat(complete(readyOf(call.record()), call.token())).isEqualTo(refused(Refusal.EXPIRED));
        assertThat(complete(failedOf(call.record(), ErrorCode.EXECUTION_FAILED, Option.none()), call.token()))
                .isEqualTo(refused(Refusal.EXPIRED));

        assertThat(stored(call.key())).isEmpty();
        assertThat(remainingTtl(call.key())).isEmpty();
    }

    @Test
    @DisplayName("A call whose record expired never runs again in its run")
    default void aBeginAfterExpiryIsRefusedByTheRunsLedgerAndCreatesNothing() {
        RunId run = openedRun();
        CanonicalRecord.Projecting old = projecting(run, "call_1");
        AttemptToken oldToken = begun(old);
        expire(old.key());
        CanonicalRecord.Projecting replay = projecting(run, "call_1", old.tool().value(), old.arguments(),
                CREATED_AT.plusSeconds(1));
        CanonicalRecord.Projecting reuse = projecting(run, "call_1", "other_tool", "{\"n\":2}", CREATED_AT.plusSeconds(1));

        assertThat(beginAnew(replay)).isEqualTo(refused(Refusal.DUPLICATE));
        assertThat(beginAnew(reuse)).isEqualTo(refused(Refusal.ID_REUSED));
        assertThat(store().begin(start(old, oldToken), TIMEOUT)).as("a late retry of the first attempt")
                .isEqualTo(refused(Refusal.DUPLICATE));

        assertThat(stored(old.key())).isEmpty();
        assertThat(remainingTtl(old.key())).isEmpty();
        assertThat(complete(readyOf(old), oldToken)).isEqualTo(refused(Refusal.EXPIRED));
    }

    @Test
    default void expiringOneRecordLeavesALongerLivedOneAlone() {
        RunId run = openedRun();
        CanonicalRecord.Projecting shortLived = projecting(run, "call_1");
        CanonicalRecord.Projecting longLived = projecting(run, "call_2");
        begun(shortLived);
        store().begin(startLiving(longLived, AttemptToken.random(), TTL.multipliedBy(3), LEASE), TIMEOUT);

        expire(shortLived.key());

        assertThat(stored(shortLived.key())).isEmpty();
        assertThat(stored(longLived.key())).isEqualTo(Option.some(longLived));
    }

    // Size limits

    @ParameterizedTest(name = "last character of {0} UTF-8 bytes")
    @ValueSource(ints = {1, 2, 3, 4})
    default void acceptsBeginOfExactlyTheRecordLimit(int lastCharacterBytes) {
        CanonicalRecord.Projecting record = projectingOfSize(openedRun(), "call_1", maxRecordBytes(),
                characterOfUtf8Bytes(lastCharacterBytes));
        assertThat(record.byteSize()).isEqualTo(maxRecordBytes());

        assertThat(beginAnew(record)).isEqualTo(Either.right(record));
        assertThat(stored(record.key())).isEqualTo(Option.some(record));
    }

    @ParameterizedTest(name = "last character of {0} UTF-8 bytes")
    @ValueSource(ints = {1, 2, 3, 4})
    default void refusesBeginOfOneByteOverTheRecordLimit(int lastCharacterBytes) {
        CanonicalRecord.Projecting record = projectingOfSize(openedRun(), "call_1", maxRecordBytes() + 1,
                characterOfUtf8Bytes(lastCharacterBytes));
        assertThat(record.byteSize()).isEqualTo(maxRecordBytes() + 1);

        assertThat(beginAnew(record)).isEqualTo(refused(Refusal.TOO_LARGE));
        assertThat(stored(record.key())).isEmpty();
    }

    @ParameterizedTest(name = "last character of {0} UTF-8 bytes")
    @ValueSource(ints = {1, 2, 3, 4})
    default void acceptsCompletionOfExactlyTheRecordLimit(int lastCharacterBytes) {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOfSize(call.record(), maxRecordBytes(), characterOfUtf8Bytes(lastCharacterBytes));
        assertThat(ready.byteSize()).isEqualTo(maxRecordBytes());

        assertCompleted(ready, call.token());
    }

    @ParameterizedTest(name = "last character of {0} UTF-8 bytes")
    @ValueSource(ints = {1, 2, 3, 4})
    default void refusesCompletionOfOneByteOverTheRecordLimitAndKeepsTheProjectingRecord(int lastCharacterBytes) {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOfSize(call.record(), maxRecordBytes() + 1,
                characterOfUtf8Bytes(lastCharacterBytes));
        assertThat(ready.byteSize()).isEqualTo(maxRecordBytes() + 1);

        assertThat(complete(ready, call.token())).isEqualTo(refused(Refusal.TOO_LARGE));
        assertThat(stored(call.key())).isEqualTo(Option.some(call.record()));

        CanonicalRecord.Failed failed = failedOf(call.record(), ErrorCode.RESULT_TOO_LARGE, Option.none());
        assertThat(complete(failed, call.token())).isEqualTo(Either.right(failed));
    }

    @Test
    default void refusesAnErrorRecordWhoseRawResponseIsOneByteOverTheRecordLimit() {
        Begun call = begunCall();
        long fixed = failedOf(call.record(), ErrorCode.PROJECTION_FAILED, Option.some("")).byteSize();
        CanonicalRecord.Failed atLimit = failedOf(call.record(), ErrorCode.PROJECTION_FAILED,
                Option.some(padding(maxRecordBytes() - fixed, characterOfUtf8Bytes(4))));
        CanonicalRecord.Failed overLimit = failedOf(call.record(), ErrorCode.PROJECTION_FAILED,
                Option.some(padding(maxRecordBytes() - fixed + 1, characterOfUtf8Bytes(4))));

        assertThat(complete(overLimit, call.token())).isEqualTo(refused(Refusal.TOO_LARGE));
        assertThat(stored(call.key())).isEqualTo(Option.some(call.record()));
        assertCompleted(atLimit, call.token());
    }
}
