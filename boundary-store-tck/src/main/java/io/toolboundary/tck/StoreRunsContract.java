package io.toolboundary.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.RunToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The store contract's group on runs: opening them, and refusing every begin of a run the store does
 * not hold with the caller's token ({@code RUN_STATE_LOST}); run through {@link CanonicalInvocationStoreContract}.
 */
public abstract class StoreRunsContract extends StoreContractSupport {
    /** A run's state shorter-lived than the records begun in it, so that it can end while they live. */
    static final Duration SHORT_RUN_TTL = TTL.dividedBy(4);

    /** For the contract only. */
    StoreRunsContract() {
    }

    /**
     * Ends the life of the run's state now, as if its time to live had run out, leaving its records as
     * they are. The run was opened for {@link #SHORT_RUN_TTL}, shorter than its records' TTL.
     *
     * @param runId the run whose state is to end
     */
    protected abstract void expireRun(RunId runId);

    private RunId openedFor(Duration ttl, RunToken token) {
        RunId runId = freshRunId();
        assertThat(store().openRun(runId, token, ttl)).isEqualTo(Either.right(token));
        return runId;
    }

    @Nested
    class Runs {

        @Test
        void openingARunTheStoreHoldsChangesNothingAndAnswersItsToken() {
            RunId runId = openedFor(RUN_TTL, RUN_TOKEN);

            assertThat(store().openRun(runId, new RunToken("another-opening"), RUN_TTL)).isEqualTo(Either.right(RUN_TOKEN));
            assertThat(store().begin(start(projecting(runId, "call_1"), AttemptToken.random())).isRight()).isTrue();
        }

        @Test
        @DisplayName("A run never opened runs nothing")
        void aBeginInARunNeverOpenedIsRefusedAndStoresNothing() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");

            assertThat(store().begin(start(record, AttemptToken.random()))).isEqualTo(refused(ErrorCode.RUN_STATE_LOST));

            assertThat(stored(record.key())).isEmpty();
        }

        @Test
        void aBeginWithAnotherOpeningsTokenIsRefusedAndStoresNothing() {
            RunId runId = openedFor(RUN_TTL, new RunToken("the-first-opening"));
            CanonicalRecord.Projecting record = projecting(runId, "call_1");

            assertThat(store().begin(start(record, AttemptToken.random()))).isEqualTo(refused(ErrorCode.RUN_STATE_LOST));

            assertThat(stored(record.key())).isEmpty();
        }

        @Test
        @DisplayName("A run whose state was lost runs nothing again")
        void aRunWhoseStateEndedRefusesEveryBeginEvenOfAKeyItHolds() {
            RunId runId = openedFor(SHORT_RUN_TTL, RUN_TOKEN);
            CanonicalRecord.Projecting ran = projecting(runId, "call_1");
            AttemptToken token = AttemptToken.random();
            begin(ran, token);

            expireRun(runId);

            assertThat(store().begin(start(ran, token))).as("a retry of the same attempt")
                    .isEqualTo(refused(ErrorCode.RUN_STATE_LOST));
            assertThat(store().begin(start(ran, AttemptToken.random()))).as("a replay of the same call")
                    .isEqualTo(refused(ErrorCode.RUN_STATE_LOST));
            CanonicalRecord.Projecting next = projecting(runId, "call_2");
            assertThat(store().begin(start(next, AttemptToken.random()))).as("a new call")
                    .isEqualTo(refused(ErrorCode.RUN_STATE_LOST));
            assertThat(stored(next.key())).isEmpty();
            assertThat(stored(ran.key())).contains(ran);
        }

        @Test
        void aCallBegunBeforeItsRunsStateEndedStillCompletes() {
            RunId runId = openedFor(SHORT_RUN_TTL, RUN_TOKEN);
            CanonicalRecord.Projecting record = projecting(runId, "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            expireRun(runId);
            CanonicalRecord.Ready ready = readyOf(record, "raw", new AgentResult("hit", io.toolboundary.domain.EvidenceStatus.EVIDENCE_FOUND, Option.none()));

            assertThat(store().complete(ready.key(), token, ready.outcome())).isEqualTo(Either.right(ready.outcome()));
        }

        @Test
        void aRunOpenedAgainAfterItsStateEndedRefusesTheOldTokenAndCountsFromZero() {
            RunId runId = openedFor(SHORT_RUN_TTL, RUN_TOKEN);
            begin(projecting(runId, "call_1"), AttemptToken.random());
            expireRun(runId);
            RunToken reopened = new RunToken("opened-again");

            assertThat(store().openRun(runId, reopened, RUN_TTL)).isEqualTo(Either.right(reopened));

            CanonicalRecord.Projecting next = projecting(runId, "call_2");
            assertThat(store().begin(start(next, AttemptToken.random()))).isEqualTo(refused(ErrorCode.RUN_STATE_LOST));
            assertThat(store().begin(new io.toolboundary.application.InvocationStart(next, AttemptToken.random(),
                    reopened, TTL, LEASE, 1, 1, Long.MAX_VALUE))).isEqualTo(Either.right(next));
        }

        @Test
        void theRunsBudgetOutlivesItsRecords() {
            RunId runId = openedFor(RUN_TTL, RUN_TOKEN);
            CanonicalRecord.Projecting first = projecting(runId, "call_1");
            assertThat(store().begin(start(first, AttemptToken.random(), 1, 5)).isRight()).isTrue();

            expire(first.key());

            assertThat(store().begin(start(projecting(runId, "call_2"), AttemptToken.random(), 1, 5)))
                    .isEqualTo(refused(ErrorCode.RUN_BUDGET_EXHAUSTED));
        }

        @Test
        void refusesAnOpeningWithoutATimeToLive() {
            RunId runId = freshRunId();

            assertThatIllegalArgumentException().isThrownBy(() -> store().openRun(runId, RUN_TOKEN, Duration.ZERO));
            assertThatIllegalArgumentException().isThrownBy(() -> store().openRun(runId, RUN_TOKEN, Duration.ofSeconds(-1)));
            assertThatNullPointerException().isThrownBy(() -> store().openRun(null, RUN_TOKEN, RUN_TTL));
            assertThatNullPointerException().isThrownBy(() -> store().openRun(runId, null, RUN_TTL));
            assertThatNullPointerException().isThrownBy(() -> store().openRun(runId, RUN_TOKEN, null));
            assertThat(store().begin(start(projecting(runId, "call_1"), AttemptToken.random())))
                    .as("no refused opening opened the run").isEqualTo(refused(ErrorCode.RUN_STATE_LOST));
        }
    }
}
