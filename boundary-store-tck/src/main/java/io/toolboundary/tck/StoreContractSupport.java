package io.toolboundary.tck;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * What every group of the store contract shares: the hooks a store adapter implements and the test
 * steps (races, begins, reads); the records come from {@link StoreRecordFixtures}. The groups extend it
 * in a chain ({@link StoreCreatingContract}, {@link StoreCompletingContract}, {@link StoreAbandoningContract}),
 * and {@link CanonicalInvocationStoreContract}, the one class an adapter extends, runs them all.
 */
public abstract class StoreContractSupport extends StoreRecordFixtures {

    /** Threads in each race. */
    static final int RACERS = 32;

    /** Each race is run this often: a store without atomicity loses a single race only now and then. */
    static final int ROUNDS = 50;

    /** Threads in each race through a {@link ToolBoundary}. */
    static final int BOUNDARY_RACERS = 64;

    /** The tool of the races through a {@link ToolBoundary}. */
    static final String RACE_TOOL = "race_tool";

    // ---------------------------------------------------------------------------------------------
    // Hooks
    // ---------------------------------------------------------------------------------------------

    /**
     * The store under test; may be the same instance for every test.
     *
     * @return the store every case writes to and reads from
     */
    protected abstract CanonicalInvocationStore store();

    /**
     * The time the record under {@code key} has left, read without changing it.
     *
     * @param key the run and tool call whose record is read
     * @return none when there is no live record under the key
     */
    protected abstract Option<Duration> remainingTtl(InvocationKey key);

    /**
     * Ends the life of the record under {@code key} now, as if its time to live had run out.
     *
     * @param key the run and tool call whose record is to expire
     */
    protected abstract void expire(InvocationKey key);

    /**
     * The record limit, in UTF-8 bytes, that the store under test was built with.
     *
     * @return the largest {@link CanonicalRecord#byteSize()} the store accepts
     */
    protected abstract long maxRecordBytes();

    /**
     * Lets the store's own clock pass the execution lease of the record under {@code key}, as if the
     * process running its tool had stopped {@link #LEASE} ago: a store on a test clock moves that clock
     * by {@link #LEASE}; a store on a server's clock may move the stored lease's end to the past.
     *
     * @param key the run and tool call whose execution lease is to pass
     */
    protected abstract void passLease(InvocationKey key);

    /**
     * Rounds of the race of 64 threads calling one key through a {@link ToolBoundary}: 1,000. A store
     * whose round trips are slow may run fewer; at least one.
     *
     * @return how many times the same-key race is run; at least one
     */
    protected int sameKeyRaceRounds() {
        return 1_000;
    }

    /**
     * Rounds of the race of many runs spending their budgets at once through a {@link ToolBoundary}:
     * 100. A store whose round trips are slow may run fewer; at least one.
     *
     * @return how many times the budget race is run; at least one
     */
    protected int budgetRaceRounds() {
        return 100;
    }

    // ---------------------------------------------------------------------------------------------
    // The suite
    // ---------------------------------------------------------------------------------------------

    /** For the groups of the contract only. */
    StoreContractSupport() {
    }

    // ---------------------------------------------------------------------------------------------
    // Test steps
    // ---------------------------------------------------------------------------------------------

    /**
     * Runs {@code task} once on each of {@code racers} threads of {@code pool} (which has at least that
     * many), released together; returns the results in racer order.
     */
    static <T> List<T> raceOn(ExecutorService pool, int racers, IntFunction<T> task) throws Exception {
        CountDownLatch ready = new CountDownLatch(racers);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            int racer = i;
            Callable<T> call = () -> {
                ready.countDown();
                go.await();
                return task.apply(racer);
            };
            futures.add(pool.submit(call));
        }
        assertThat(ready.await(30, SECONDS)).as("all racers started").isTrue();
        go.countDown();
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(60, SECONDS));
        }
        return results;
    }

    /**
     * A run no other test uses, opened in the store with {@link #RUN_TOKEN} for {@link #RUN_TTL}, as every
     * helper start expects.
     *
     * @return the opened run's id
     */
    protected RunId openedRun() {
        return opened(freshRunId());
    }

    /**
     * Opens {@code runId}, which the store does not hold yet, with {@link #RUN_TOKEN} for {@link #RUN_TTL},
     * as every helper start expects.
     *
     * @param runId the run to open
     * @return the same run id, opened
     */
    protected RunId opened(RunId runId) {
        assertThat(store().openRun(runId, RUN_TOKEN, RUN_TTL)).as("open %s", runId).isEqualTo(Either.right(RUN_TOKEN));
        return runId;
    }

    /** Begins {@code record} with {@link #start(CanonicalRecord.Projecting, AttemptToken)}, asserting it is created. */
    void begin(CanonicalRecord.Projecting record, AttemptToken token) {
        assertThat(store().begin(start(record, token))).as("begin %s", record.key()).isEqualTo(Either.right(record));
    }

    /** What the store finds under {@code key}, asserting the read itself succeeded. */
    Option<CanonicalRecord> stored(InvocationKey key) {
        Either<BoundaryError, Option<CanonicalRecord>> found = store().find(key);
        assertThat(found.isRight()).as("find %s answered %s", key, found).isTrue();
        return found.get();
    }

    /** Asserts that the store accepted the operation. */
    static void assertAccepted(Either<BoundaryError, ?> result) {
        assertThat(result.isRight()).as("expected acceptance, got %s", result).isTrue();
    }

    static <T> Either<BoundaryError, T> refused(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }
}
