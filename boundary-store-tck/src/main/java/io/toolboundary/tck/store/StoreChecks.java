package io.toolboundary.tck.store;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/** The store contracts' shared checks and race settings: refusals, acceptance, and racing threads released together. */
final class StoreChecks {

    /** Threads in each race. */
    static final int RACERS = 32;

    /** Each race is run this often: a store without atomicity loses a single race only now and then. */
    static final int ROUNDS = 50;

    /** Threads in each race through a {@link ToolBoundary}. */
    static final int BOUNDARY_RACERS = 64;

    /** The tool of the races through a {@link ToolBoundary}. */
    static final String RACE_TOOL = "race_tool";

    private StoreChecks() {
    }

    /**
     * Runs {@code task} once on each of {@code racers} threads of {@code pool} (which has at least that many), released
     * together; returns the results in racer order.
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

    /** Runs {@code task} on {@link #RACERS} threads of a pool of its own, released together; results in racer order. */
    static <T> List<T> race(IntFunction<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(RACERS);
        try {
            return raceOn(pool, RACERS, task);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Asserts that the store accepted the operation. */
    static void assertAccepted(Either<StoreFailure, ?> result) {
        assertThat(result.isRight()).as("expected acceptance, got %s", result).isTrue();
    }

    /** The store's refusal, as a store answers it. */
    static <T> Either<StoreFailure, T> refused(Refusal reason) {
        return Either.left(StoreFailure.refused(reason));
    }
}
