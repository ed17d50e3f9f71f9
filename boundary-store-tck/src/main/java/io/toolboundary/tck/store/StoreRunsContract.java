package io.toolboundary.tck.store;

import static io.toolboundary.tck.store.StoreChecks.refused;
import static io.toolboundary.tck.store.StoreRecordFixtures.LEASE;
import static io.toolboundary.tck.store.StoreRecordFixtures.RUN_TOKEN;
import static io.toolboundary.tck.store.StoreRecordFixtures.RUN_TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static io.toolboundary.tck.store.StoreRecordFixtures.TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.evidenceFound;
import static io.toolboundary.tck.store.StoreRecordFixtures.freshRunId;
import static io.toolboundary.tck.store.StoreRecordFixtures.projecting;
import static io.toolboundary.tck.store.StoreRecordFixtures.readyOf;
import static io.toolboundary.tck.store.StoreRecordFixtures.start;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Proves how a store keeps runs: opening one, and refusing every begin of a run the store does not hold with the
 * caller's token ({@code RUN_STATE_LOST}), while records begun before stay. Calls {@link #store()}, {@link
 * #expire(InvocationKey)} and {@link #expireRun(RunId)}; the run is opened for {@link #SHORT_RUN_TTL}, shorter than its
 * records' TTL.
 */
public interface StoreRunsContract extends StoreFixture {
    /** A run's state shorter-lived than the records begun in it, so that it can end while they live. */
    Duration SHORT_RUN_TTL = TTL.dividedBy(4);

    private RunId openedFor(Duration ttl, RunToken token) {
        RunId runId = freshRunId();
        assertThat(store().openRun(new RunOpening(runId, token, ttl), TIMEOUT)).isEqualTo(Either.right(token));
        return runId;
    }

    @Test
    default void openingARunTheStoreHoldsChangesNothingAndAnswersItsToken() {
        RunId runId = openedFor(RUN_TTL, RUN_TOKEN);

        assertThat(store().openRun(new RunOpening(runId, new RunToken("another-opening"), RUN_TTL), TIMEOUT))
                .isEqualTo(Either.right(RUN_TOKEN));
        assertThat(beginAnew(projecting(runId, "call_1")).isRight()).isTrue();
    }

    @Test
    @DisplayName("A run never opened runs nothing")
    default void aBeginInARunNeverOpenedIsRefusedAndStoresNothing() {
        CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");

        assertThat(beginAnew(record)).isEqualTo(refused(Refusal.RUN_STATE_LOST));

        assertThat(stored(record.key())).isEmpty();
    }

    @Test
    default void aBeginWithAnotherOpeningsTokenIsRefusedAndStoresNothing() {
        RunId runId = openedFor(RUN_TTL, new RunToken("the-first-opening"));
        CanonicalRecord.Projecting record = projecting(runId, "call_1");

        assertThat(beginAnew(record)).isEqualTo(refused(Refusal.RUN_STATE_LOST));

        assertThat(stored(record.key())).isEmpty();
    }

    @Test
    @DisplayName("A run whose state was lost runs nothing again")
    default void aRunWhoseStateEndedRefusesEveryBeginEvenOfAKeyItHolds() {
        RunId runId = openedFor(SHORT_RUN_TTL, RUN_TOKEN);
        CanonicalRecord.Projecting ran = projecting(runId, "call_1");
        AttemptToken token = begun(ran);

        expireRun(runId);

        assertThat(store().begin(start(ran, token), TIMEOUT)).as("a retry of the same attempt")
                .isEqualTo(refused(Refusal.RUN_STATE_LOST));
        assertThat(beginAnew(ran)).as("a replay of the same call").isEqualTo(refused(Refusal.RUN_STATE_LOST));
        CanonicalRecord.Projecting next = projecting(runId, "call_2");
        assertThat(beginAnew(next)).as("a new call").isEqualTo(refused(Refusal.RUN_STATE_LOST));
        assertThat(stored(next.key())).isEmpty();
        assertThat(stored(ran.key())).contains(ran);
    }

    @Test
    default void aCallBegunBeforeItsRunsStateEndedStillCompletes() {
        RunId runId = openedFor(SHORT_RUN_TTL, RUN_TOKEN);
        CanonicalRecord.Projecting record = projecting(runId, "call_1");
        AttemptToken token = begun(record);
        expireRun(runId);
        CanonicalRecord.Ready ready = readyOf(record, "raw", evidenceFound("hit"));

        assertThat(complete(ready, token)).isEqualTo(Either.right(ready));
    }

    @Test
    default void aRunOpenedAgainAfterItsStateEndedRefusesTheOldTokenAndCountsFromZero() {
        RunId runId = openedFor(SHORT_RUN_TTL, RUN_TOKEN);
        begun(projecting(runId, "call_1"));
        expireRun(runId);
        RunToken reopened = new RunToken("opened-again");

        assertThat(store().openRun(new RunOpening(runId, reopened, RUN_TTL), TIMEOUT)).isEqualTo(Either.right(reopened));

        CanonicalRecord.Projecting next = projecting(runId, "call_2");
        assertThat(beginAnew(next)).isEqualTo(refused(Refusal.RUN_STATE_LOST));
        assertThat(store().begin(new io.toolboundary.application.spi.InvocationStart(next, AttemptToken.random(),
                reopened, TTL, LEASE, 1, 1, Long.MAX_VALUE), TIMEOUT)).isEqualTo(Either.right(next));
    }

    @Test
    default void theRunsBudgetOutlivesItsRecords() {
        RunId runId = openedFor(RUN_TTL, RUN_TOKEN);
        CanonicalRecord.Projecting first = projecting(runId, "call_1");
        assertThat(beginAnew(first, 1, 5).isRight()).isTrue();

        expire(first.key());

        assertThat(beginAnew(projecting(runId, "call_2"), 1, 5))
                .isEqualTo(refused(Refusal.RUN_BUDGET_EXHAUSTED));
    }

    @Test
    default void refusesAnOpeningWithoutATimeToLive() {
        RunId runId = freshRunId();

        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().openRun(new RunOpening(runId, RUN_TOKEN, Duration.ZERO), TIMEOUT));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store().openRun(new RunOpening(runId, RUN_TOKEN, Duration.ofSeconds(-1)), TIMEOUT));
        assertThatNullPointerException().isThrownBy(() -> store().openRun(new RunOpening(null, RUN_TOKEN, RUN_TTL), TIMEOUT));
        assertThatNullPointerException().isThrownBy(() -> store().openRun(new RunOpening(runId, null, RUN_TTL), TIMEOUT));
        assertThatNullPointerException().isThrownBy(() -> store().openRun(new RunOpening(runId, RUN_TOKEN, null), TIMEOUT));
        assertThat(beginAnew(projecting(runId, "call_1")))
                .as("no refused opening opened the run").isEqualTo(refused(Refusal.RUN_STATE_LOST));
    }
}
