package io.toolboundary.tck.store;

import static io.toolboundary.tck.store.StoreChecks.RACERS;
import static io.toolboundary.tck.store.StoreChecks.ROUNDS;
import static io.toolboundary.tck.store.StoreChecks.assertAccepted;
import static io.toolboundary.tck.store.StoreChecks.race;
import static io.toolboundary.tck.store.StoreChecks.refused;
import static io.toolboundary.tck.store.StoreRecordFixtures.COMPLETED_AT;
import static io.toolboundary.tck.store.StoreRecordFixtures.CREATED_AT;
import static io.toolboundary.tck.store.StoreRecordFixtures.LEASE;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static io.toolboundary.tck.store.StoreRecordFixtures.TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.evidenceFound;
import static io.toolboundary.tck.store.StoreRecordFixtures.failedOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.projecting;
import static io.toolboundary.tck.store.StoreRecordFixtures.readyOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.start;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Proves how a store abandons records past their execution lease (judged by the store's clock, never by the caller's
 * instant) and lists and sweeps a run. Calls {@link #store()}, {@link #passLease(InvocationKey)}, {@link
 * #expire(InvocationKey)} and {@link #maxRecordBytes()}.
 */
public interface StoreAbandoningContract extends StoreFixture {

    /** An instant the caller passes: it becomes updatedAt and is never compared with the lease. */
    Instant CALLERS_NOW = COMPLETED_AT.plus(LEASE);

    // Abandoning records past their lease

    @Test
    default void abandonsAProjectingRecordOnceItsLeaseHasPassed() {
        CanonicalRecord.Projecting record = begunCall().record();
        passLease(record.key());
        CanonicalRecord.Failed abandoned = record.failed(ErrorCode.EXECUTION_ABANDONED, Option.none(), CALLERS_NOW);

        assertThat(store().abandon(record.key(), CALLERS_NOW, TIMEOUT)).isEqualTo(Either.right(abandoned));

        CanonicalRecord found = stored(record.key()).get();
        assertThat(found).isEqualTo(abandoned);
        assertThat(found.status()).isEqualTo(InvocationStatus.ERROR);
        assertThat(found.evidence()).isEqualTo(Option.some(EvidenceStatus.ERROR));
        assertThat(found.errorCode()).isEqualTo(Option.some(ErrorCode.EXECUTION_ABANDONED));
        assertThat(found.rawResponse()).isEmpty();
        assertThat(found.updatedAt()).isEqualTo(CALLERS_NOW);
    }

    @Test
    default void refusesAbandonWhileTheLeaseRunsAndLetsTheAttemptFinish() {
        Begun call = begunCall();

        assertThat(store().abandon(call.key(), call.record().createdAt(), TIMEOUT))
                .isEqualTo(refused(Refusal.LEASE_NOT_EXPIRED));
        assertThat(stored(call.key())).isEqualTo(Option.some(call.record()));
        assertCompleted(readyOf(call.record()), call.token());
    }

    @Test
    default void judgesTheLeaseByTheStoresClockNeverByTheCallersInstant() {
        CanonicalRecord.Projecting record = begunCall().record();

        // A caller whose clock stepped far ahead cannot end a call that is still running.
        for (Instant stepped : List.of(record.createdAt().plus(LEASE), record.createdAt().plus(Duration.ofDays(365)),
                Instant.parse("9999-12-31T23:59:59.999999999Z"))) {
            assertThat(store().abandon(record.key(), stepped, TIMEOUT)).as("abandon at %s", stepped)
                    .isEqualTo(refused(Refusal.LEASE_NOT_EXPIRED));
        }
        assertThat(stored(record.key())).isEqualTo(Option.some(record));

        passLease(record.key());
        // Once the store's own clock has passed the lease, the caller's instant, however early, will do.
        Instant soonAfterCreation = record.createdAt().plusNanos(7);
        assertThat(store().abandon(record.key(), soonAfterCreation, TIMEOUT).map(CanonicalRecord::updatedAt))
                .isEqualTo(Either.right(soonAfterCreation));
    }

    @Test
    default void keepsTheLeaseOfTheFirstBeginWhenBeginIsRetried() {
        Begun call = begunCall();

        assertThat(store().begin(startLiving(call.record(), call.token(), TTL, LEASE.multipliedBy(1_000)), TIMEOUT))
                .isEqualTo(Either.right(call.record()));

        passLease(call.key());
        assertThat(store().abandon(call.key(), CALLERS_NOW, TIMEOUT).isRight()).isTrue();
    }

    @Test
    default void refusesAbandonOfAMissingRecordAndCreatesNone() {
        InvocationKey key = InvocationKey.of(openedRun(), new ToolCallId("call_1"));

        assertThat(store().abandon(key, CREATED_AT.plus(Duration.ofDays(1)), TIMEOUT)).isEqualTo(refused(Refusal.EXPIRED));
        assertThat(stored(key)).isEmpty();
        assertThat(remainingTtl(key)).isEmpty();
    }

    @Test
    default void refusesAbandonOfAnExpiredRecordAndDoesNotRecreateIt() {
        CanonicalRecord.Projecting record = begunCall().record();
        expire(record.key());

        assertThat(store().abandon(record.key(), CALLERS_NOW, TIMEOUT)).isEqualTo(refused(Refusal.EXPIRED));
        assertThat(stored(record.key())).isEmpty();
        assertThat(remainingTtl(record.key())).isEmpty();
    }

    @Test
    default void refusesAbandonOfAReadyRecordAndKeepsIt() {
        Begun call = begunCall();
        CanonicalRecord.Ready ready = readyOf(call.record());
        complete(ready, call.token());
        passLease(call.key());

        assertThat(store().abandon(call.key(), CALLERS_NOW, TIMEOUT)).isEqualTo(refused(Refusal.CONFLICT));
        assertThat(stored(call.key())).isEqualTo(Option.some(ready));
    }

    @Test
    default void refusesAbandonOfAnErrorRecordAndKeepsIt() {
        Begun call = begunCall();
        CanonicalRecord.Failed failed = failedOf(call.record(), ErrorCode.EXECUTION_FAILED, Option.some("raw"));
        complete(failed, call.token());
        passLease(call.key());

        assertThat(store().abandon(call.key(), CALLERS_NOW, TIMEOUT)).isEqualTo(refused(Refusal.CONFLICT));
        assertThat(stored(call.key())).isEqualTo(Option.some(failed));
    }

    @Test
    default void returnsTheStoredRecordUnchangedWhenAbandonIsRepeated() {
        CanonicalRecord.Projecting record = begunCall().record();
        passLease(record.key());
        CanonicalRecord.Failed first = store().abandon(record.key(), CALLERS_NOW, TIMEOUT).get();

        assertThat(store().abandon(record.key(), CALLERS_NOW.plusSeconds(30), TIMEOUT)).isEqualTo(Either.right(first));
        assertThat(stored(record.key())).isEqualTo(Option.some(first));
    }

    @Test
    default void refusesALateCompletionOfTheAbandonedAttempt() {
        Begun call = begunCall();
        passLease(call.key());
        CanonicalRecord.Failed abandoned = store().abandon(call.key(), CALLERS_NOW, TIMEOUT).get();

        assertThat(complete(readyOf(call.record()), call.token())).isEqualTo(refused(Refusal.CONFLICT));
        assertThat(complete(failedOf(call.record(), ErrorCode.EXECUTION_FAILED, Option.none()), call.token()))
                .isEqualTo(refused(Refusal.CONFLICT));
        assertThat(store().begin(start(call.record(), call.token()), TIMEOUT))
                .isEqualTo(refused(Refusal.DUPLICATE));
        assertThat(stored(call.key())).isEqualTo(Option.some(abandoned));
    }

    @Test
    default void keepsTheTtlWhenAbandoned() {
        CanonicalRecord.Projecting record = begunCall().record();
        passLease(record.key());
        Option<Duration> before = remainingTtl(record.key());
        assertThat(before).isNotEmpty();

        assertThat(store().abandon(record.key(), CALLERS_NOW, TIMEOUT).isRight()).isTrue();

        assertThat(remainingTtl(record.key())).isNotEmpty();
        assertThat(remainingTtl(record.key()).get()).isPositive().isLessThanOrEqualTo(before.get());
    }

    @RepeatedTest(value = ROUNDS, name = "round {currentRepetition} of {totalRepetitions}")
    default void endsTheRecordOnceWhenAbandonsRaceCompletions() throws Exception {
        Begun call = begunCall();
        passLease(call.key());
        List<Either<StoreFailure, CanonicalRecord.Final>> results = race(i -> i % 2 == 0
                ? store().abandon(call.key(), CALLERS_NOW.plusNanos(i), TIMEOUT).map(CanonicalRecord.Final.class::cast)
                : store().complete(call.token(), readyOf(call.record(), "raw " + i, evidenceFound("found " + i)),
                        TIMEOUT));

        CanonicalRecord stored = stored(call.key()).get();
        assertThat(stored.status().isFinal()).isTrue();
        boolean abandoned = stored.errorCode().contains(ErrorCode.EXECUTION_ABANDONED);
        for (int i = 0; i < RACERS; i++) {
            boolean abandoner = i % 2 == 0;
            if (abandoner == abandoned) {
                assertThat(results.get(i)).as("racer %d", i).isIn(Either.right(stored), refused(Refusal.CONFLICT));
            } else {
                assertThat(results.get(i)).as("racer %d", i).isEqualTo(refused(Refusal.CONFLICT));
            }
        }
        assertThat(results.stream().filter(Either::isRight).count()).as("winners").isEqualTo(abandoned ? RACERS / 2 : 1L);
    }

    // Listing and sweeping a run

    private List<String> listed(RunId runId) {
        Either<StoreFailure, io.toolboundary.application.spi.ToolCallIdPage> page =
                store().toolCallIds(new ToolCallIdPage.Request(runId, Option.none(), 1000), TIMEOUT);
        assertThat(page.isRight()).as("listing answered %s", page).isTrue();
        assertThat(page.get().more()).as("more").isFalse();
        return page.get().ids().stream().map(ToolCallId::value).toList();
    }

    @Test
    default void listsEveryRecordOfTheRunOnceInOrderAndNoCounterNorAnotherRunsRecord() {
        RunId runId = openedRun();
        // Runs whose ids start like this one's, or differ only where a pattern could be loose.
        RunId longer = opened(new RunId(runId.value() + "0"));
        RunId shorter = opened(new RunId(runId.value().substring(0, runId.value().length() - 1)));
        for (String id : List.of("call_b", "call_a", "call:c.d", "call_c")) {
            begun(projecting(runId, id));
        }
        begun(projecting(longer, "call_z"));
        begun(projecting(shorter, "call_y"));
        CanonicalRecord.Projecting completed = projecting(runId, "done");
        AttemptToken token = begun(completed);
        assertAccepted(complete(readyOf(completed), token));

        assertThat(listed(runId)).containsExactly("call:c.d", "call_a", "call_b", "call_c", "done");
        assertThat(listed(longer)).containsExactly("call_z");
        assertThat(listed(openedRun())).isEmpty();
    }

    @Test
    default void listsRunIdsWithDotsAndColonsLiterally() {
        String base = openedRun().value();
        RunId dotted = opened(new RunId(base + ".a:b"));
        RunId lookalike = opened(new RunId(base + "xa-b"));
        begun(projecting(dotted, "call_1"));
        begun(projecting(lookalike, "call_2"));

        assertThat(listed(dotted)).containsExactly("call_1");
        assertThat(listed(lookalike)).containsExactly("call_2");
    }

    @Test
    default void pagesAfterTheLastIdUntilEveryRecordIsListedOnce() {
        RunId runId = openedRun();
        List<String> all = IntStream.range(0, 7).mapToObj(i -> "call_" + i).toList();
        all.forEach(id -> begun(projecting(runId, id)));

        List<String> seen = new ArrayList<>();
        List<Boolean> mores = new ArrayList<>();
        Option<ToolCallId> after = Option.none();
        for (int page = 0; page < 3; page++) {
            var listed = store().toolCallIds(new ToolCallIdPage.Request(runId, after, 3), TIMEOUT).get();
            listed.ids().forEach(id -> seen.add(id.value()));
            mores.add(listed.more());
            after = Option.of(listed.ids().get(listed.ids().size() - 1));
        }

        assertThat(seen).containsExactlyElementsOf(all);
        assertThat(mores).containsExactly(true, true, false);
    }

    @Test
    default void doesNotListAnExpiredRecord() {
        RunId runId = openedRun();
        CanonicalRecord.Projecting gone = projecting(runId, "call_gone");
        begun(gone);
        // Lets time pass where the store's clock can move (expire may end every record as old).
        passLease(gone.key());
        begun(projecting(runId, "call_kept"));
        expire(gone.key());

        assertThat(listed(runId)).containsExactly("call_kept");
    }

    @Test
    default void refusesALimitBelowOne() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().toolCallIds(
                new ToolCallIdPage.Request(openedRun(), Option.none(), 0), TIMEOUT)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    default void theBoundarySweepEndsOnlyTheRecordsPastTheirLeaseAndIsSafeToRepeat() {
        RunId runId = openedRun();
        CanonicalRecord.Projecting expired = projecting(runId, "call_expired");
        CanonicalRecord.Projecting leased = projecting(runId, "call_leased");
        CanonicalRecord.Projecting done = projecting(runId, "call_done");
        // passLease may pass every lease begun so far (a store's clock moved on), so the leased
        // record is begun after it.
        begun(expired);
        AttemptToken token = begun(done);
        CanonicalRecord.Ready ready = readyOf(done);
        assertAccepted(complete(ready, token));
        passLease(expired.key());
        begun(leased);
        ToolBoundary boundary = fittingBoundary();

        var first = boundary.abandonExpired(runId);

        assertThat(first.isRight()).as("sweep answered %s", first).isTrue();
        assertThat(first.get().lookedAt()).isEqualTo(3);
        assertThat(first.get().abandoned()).containsExactly(expired.key().toolCallId());
        assertThat(first.get().stillLeased()).containsExactly(leased.key().toolCallId());
        assertThat(first.get().errors()).isZero();
        assertThat(stored(expired.key()).get().errorCode()).isEqualTo(Option.some(ErrorCode.EXECUTION_ABANDONED));
        assertThat(stored(leased.key())).isEqualTo(Option.some(leased));
        assertThat(stored(done.key())).isEqualTo(Option.some(ready));

        var again = boundary.abandonExpired(runId);
        assertThat(again.get().lookedAt()).isEqualTo(3);
        assertThat(again.get().abandoned()).isEmpty();
        assertThat(again.get().stillLeased()).containsExactly(leased.key().toolCallId());
    }

    @Test
    default void theBoundarySweepReachesRecordsBeyondTheFirstPage() {
        RunId runId = openedRun();
        int records = 503;
        List<CanonicalRecord.Projecting> begun = IntStream.range(0, records)
                .mapToObj(i -> projecting(runId, String.format("call_%04d", i))).toList();
        CanonicalRecord.Projecting last = begun.get(records - 1);
        // Begun first: passLease may pass every lease begun so far.
        begun(last);
        passLease(last.key());
        begun.subList(0, records - 1).forEach(this::begun);

        var swept = fittingBoundary().abandonExpired(runId);

        assertThat(swept.get().lookedAt()).isEqualTo(records);
        assertThat(swept.get().abandoned()).containsExactly(last.key().toolCallId());
        assertThat(swept.get().stillLeased()).hasSize(records - 1);
    }

    @Test
    default void theBoundarySweepOfAnEmptyRunLooksAtNothing() {
        var swept = fittingBoundary().abandonExpired(openedRun());

        assertThat(swept.get().lookedAt()).isZero();
        assertThat(swept.get().abandoned()).isEmpty();
    }
}
