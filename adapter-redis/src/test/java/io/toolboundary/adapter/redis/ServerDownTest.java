package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.redis.AmbiguityRig.Call;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server that is down ({@code kill -9}, nothing listening on its port), with the shipped defaults:
 * {@link RedisStoreOptions#ofDefaults()} (only the key prefix changed) through {@code connectStandalone},
 * and {@link ToolBoundaryConfig#ofDefaults()}. Nothing can have been written, so every call must answer
 * {@code STORE_UNAVAILABLE} at once, run no tool and hand nothing over to the harness; calls made while
 * the store is known to be down are turned away without a connection attempt, but for one probe at a
 * time; once the server is back the next call reaches it. Prints a {@code RELIABILITY server-down} line
 * with the median and worst {@code invoke} time, one caller and eight.
 */
class ServerDownTest {

    /** The documented bound of one {@code invoke} against a server that is down. */
    static final Duration BOUND = Duration.ofSeconds(1);
    private static final int SEQUENTIAL_CALLS = 40;
    private static final int THREADS = 8;
    private static final int CALLS_PER_THREAD = 25;

    @Test
    void everyCallAgainstAKilledServerAnswersStoreUnavailableAtOnceRunsNothingAndHandsNothingOver() throws Exception {
        try (AmbiguityRig rig = AmbiguityRig.direct(RedisStoreOptions.custom())) {
            ToolBoundary boundary = rig.boundary(ToolBoundaryConfig.ofDefaults());
            assertThat(rig.invoke(boundary, rig.run, "warm-up").outcome().isRight()).isTrue();

            RedisOperatorView view = RedisOperatorView.of(rig.store, Duration.ofSeconds(1));
            assertThat(view.mastersAnswer()).as("the health probe of a server that is up").isTrue();

            rig.redis.kill();
            assertThat(view.mastersAnswer()).as("the health probe of a server that is down").isFalse();
            List<Call> calls = new ArrayList<>();
            for (int i = 0; i < SEQUENTIAL_CALLS; i++) {
                calls.add(rig.invoke(boundary, rig.run, "down-" + i));
            }
            List<Call> concurrent = Collections.synchronizedList(new ArrayList<>());
            ExecutorService callers = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int thread = t;
                    running.add(callers.submit(() -> {
                        for (int i = 0; i < CALLS_PER_THREAD; i++) {
                            concurrent.add(rig.invoke(boundary, rig.run, "down-" + thread + "-" + i));
                        }
                    }));
                }
                for (Future<?> caller : running) {
                    caller.get(60, TimeUnit.SECONDS);
                }
            } finally {
                callers.shutdownNow();
            }
            long started = System.nanoTime();
            Either<BoundaryError, RunContext> opening = boundary.openRun(Fixtures.anyRunContext());
            Duration openingTime = Duration.ofNanos(System.nanoTime() - started);

            List<Call> all = new ArrayList<>(calls);
            all.addAll(concurrent);
            System.out.println("RELIABILITY server-down calls=" + all.size() + " toolRuns=" + rig.executor.executions()
                    + " handedOver=" + rig.takeUnfinished().size()
                    + " turnedAwayUnsent=" + rig.store.turnedAwayWhileDown()
                    + " oneCaller(median/maxMillis)=" + median(calls) + "/" + worst(calls).toMillis()
                    + " eightCallers(median/maxMillis)=" + median(concurrent) + "/" + worst(concurrent).toMillis()
                    + " openRunMillis=" + openingTime.toMillis() + " boundMillis=" + BOUND.toMillis());

            assertThat(all).extracting(call -> call.code().getOrNull()).containsOnly(ErrorCode.STORE_UNAVAILABLE);
            assertThat(rig.executor.executions()).as("tool runs after the warm-up").isEqualTo(1);
            assertThat(rig.takeUnfinished()).as("pairs handed over to the harness").isEmpty();
            assertThat(worst(all)).as("the slowest invoke against a server that is down").isLessThan(BOUND);
            assertThat(opening.getLeft().code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
            assertThat(openingTime).isLessThan(BOUND);
            assertThat(rig.store.turnedAwayWhileDown()).as("calls answered without a connection attempt").isPositive();

            rig.redis.restart();
            // The first call after the restart reaches the server: it lost the run with the process.
            Call afterRestart = rig.invoke(boundary, rig.run, "after-restart");
            assertThat(afterRestart.code().getOrNull()).isEqualTo(ErrorCode.RUN_STATE_LOST);
            RunContext next = Fixtures.opened(boundary, Fixtures.anyRunContext());
            assertThat(rig.invoke(boundary, next, "next-1").outcome().isRight()).isTrue();
            assertThat(rig.executor.executions()).isEqualTo(2);
        }
    }

    private static long median(List<Call> calls) {
        List<Long> millis = new ArrayList<>();
        calls.forEach(call -> millis.add(call.elapsed().toMillis()));
        Collections.sort(millis);
        return millis.get(millis.size() / 2);
    }

    private static Duration worst(List<Call> calls) {
        return calls.stream().map(Call::elapsed).max(Duration::compareTo).orElse(Duration.ZERO);
    }
}
