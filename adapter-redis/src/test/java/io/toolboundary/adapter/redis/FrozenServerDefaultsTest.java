package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toolboundary.adapter.redis.AmbiguityRig.Call;
import io.toolboundary.adapter.redis.AmbiguityRig.Tally;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.tck.store.ForwardingStore;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A frozen server ({@code SIGSTOP}) with the shipped defaults: {@link RedisStoreOptions#ofDefaults()}
 * (only the key prefix changed) through {@code connectStandalone}, and
 * {@link ToolBoundaryConfig#ofDefaults()}. {@code invoke} must return a safe store error within the store
 * budget ({@value #BUDGET_MILLIS} ms) plus one second, whether the server froze before begin or while
 * the tool ran; after {@code SIGCONT} and {@code endUnfinished} of every handed-over pair no record is
 * PROJECTING, and a call frozen at begin never ran its tool. With a run deadline 300 ms away, begin is
 * given no more than the time to the deadline. Each case prints a {@code RELIABILITY frozen-defaults/...}
 * line with the worst {@code invoke} time.
 *
 * <p>Rounds per case: {@value #DEFAULT_ROUNDS}, or {@code -Dtoolboundary.frozen.rounds=N}
 * ({@code -Psoak} sets 10).
 */
class FrozenServerDefaultsTest {

    static final int DEFAULT_ROUNDS = 2;
    static final int ROUNDS = Integer.getInteger("toolboundary.frozen.rounds", DEFAULT_ROUNDS);
    static final long BUDGET_MILLIS = 4_000;
    /** The documented promise: the store budget plus a small margin for scheduling on a loaded machine. */
    static final Duration BOUND = ToolBoundaryConfig.DEFAULT_STORE_TIMEOUT.plusSeconds(1);
    /** What a call may take beyond the run's deadline on a loaded machine. */
    static final Duration SCHEDULING_NOISE = Duration.ofMillis(300);

    @Test
    void aServerFrozenBeforeBeginIsGivenUpWithinTheStoreBudgetAndTheToolNeverRuns() {
        assertThat(ToolBoundaryConfig.ofDefaults().storeTimeout()).isEqualTo(Duration.ofMillis(BUDGET_MILLIS));
        try (AmbiguityRig rig = AmbiguityRig.direct(RedisStoreOptions.custom())) {
            ToolBoundary boundary = rig.boundary(ToolBoundaryConfig.ofDefaults());
            warmUp(rig, boundary);
            Tally tally = tally("frozen-defaults/begin");
            for (int round = 0; round < ROUNDS; round++) {
                String id = "frozen-begin-" + round;
                rig.redis.freeze();
                tally.faults++;
                Call call = rig.invoke(boundary, rig.run, id);
                thaw(rig);

                assertThat(call.code().getOrNull()).as(id).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
                assertThat(call.elapsed()).as(id + ": invoke against a frozen server").isLessThanOrEqualTo(BOUND);
                assertThat(rig.tool.executions(id)).isZero();
                rig.settle(boundary, call, tally);
                tally.rounds++;
            }
            tally.check(rig);
        }
    }

    @Test
    void aServerFrozenWhileTheToolRunsIsGivenUpWithinTheStoreBudgetAndNoRecordStaysProjecting() {
        try (AmbiguityRig rig = AmbiguityRig.direct(RedisStoreOptions.custom())) {
            ToolBoundary boundary = rig.boundary(ToolBoundaryConfig.ofDefaults());
            warmUp(rig, boundary);
            Tally tally = tally("frozen-defaults/complete");
            for (int round = 0; round < ROUNDS; round++) {
                String id = "frozen-complete-" + round;
                rig.tool.closeGate();
                int entered = rig.tool.entered();
                Future<Call> running = rig.invokeAsync(boundary, id);
                await().atMost(Duration.ofSeconds(20)).until(() -> rig.tool.entered() == entered + 1);
                rig.redis.freeze();
                tally.faults++;
                rig.tool.openGate();
                Call call = AmbiguityRig.result(running);
                thaw(rig);

                assertThat(call.code().getOrNull()).as(id).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
                assertThat(call.storeTime()).as(id + ": the store's share of invoke against a frozen server")
                        .isLessThanOrEqualTo(BOUND);
                assertThat(rig.tool.executions(id)).isEqualTo(1);
                rig.settle(boundary, call, tally);
                tally.rounds++;
            }
            tally.check(rig);
        }
    }

    @Test
    void beginNeverWaitsPastTheRunsDeadline() {
        try (AmbiguityRig rig = AmbiguityRig.direct(RedisStoreOptions.custom())) {
            TimedStore timed = new TimedStore(rig.store);
            ToolBoundary boundary = rig.boundary(ToolBoundaryConfig.ofDefaults(), timed);
            warmUp(rig, boundary);
            Tally tally = tally("frozen-defaults/begin-deadline-300ms");
            Duration worstBegin = Duration.ZERO;
            for (int round = 0; round < ROUNDS; round++) {
                String id = "frozen-deadline-" + round;
                Duration toDeadline = Duration.ofMillis(300);
                // The rig's opened run, with a deadline 300 ms away.
                RunContext run = new RunContext(rig.run.runId(), true, Instant.now().plus(toDeadline),
                        RunContext.UNLIMITED, rig.run.runToken());
                timed.begins.clear();
                rig.redis.freeze();
                tally.faults++;
                Call call = rig.invoke(boundary, run, id);
                thaw(rig);

                assertThat(call.code().getOrNull()).as(id).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
                assertThat(timed.begins).as("one begin").hasSize(1);
                Timed begin = timed.begins.get(0);
                assertThat(begin.timeout()).as("begin's timeout").isLessThanOrEqualTo(toDeadline);
                assertThat(begin.elapsed()).as("begin's time against a frozen server")
                        .isLessThanOrEqualTo(toDeadline.plusSeconds(1));
                assertThat(call.elapsed()).isLessThanOrEqualTo(BOUND);
                assertThat(rig.tool.executions(id)).isZero();
                worstBegin = begin.elapsed().compareTo(worstBegin) > 0 ? begin.elapsed() : worstBegin;
                rig.settle(boundary, call, tally);
                tally.rounds++;
            }
            tally.check(rig);
            System.out.println("RELIABILITY frozen-defaults/begin-deadline-300ms maxBeginMillis=" + worstBegin.toMillis());
        }
    }

    @Test
    void neitherBeginNorItsCleanUpWaitsPastTheRunsDeadlineAndWhatIsLeftIsHandedOverAtOnce() {
        try (AmbiguityRig rig = AmbiguityRig.direct(RedisStoreOptions.custom())) {
            ToolBoundary boundary = rig.boundary(ToolBoundaryConfig.ofDefaults());
            warmUp(rig, boundary);
            Tally tally = tally("frozen-defaults/deadline-2s");
            Duration toDeadline = Duration.ofSeconds(2);
            Duration worst = Duration.ZERO;
            for (int round = 0; round < ROUNDS; round++) {
                String id = "frozen-deadline-2s-" + round;
                RunContext run = new RunContext(rig.run.runId(), true, Instant.now().plus(toDeadline),
                        RunContext.UNLIMITED, rig.run.runToken());
                rig.redis.freeze();
                tally.faults++;
                Call call = rig.invoke(boundary, run, id);
                List<AmbiguityRig.Unfinished> handedOver = rig.takeUnfinished();
                thaw(rig);

                assertThat(call.code().getOrNull()).as(id).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
                assertThat(call.elapsed()).as(id + ": invoke with the run's deadline 2 s away")
                        .isLessThanOrEqualTo(toDeadline.plus(SCHEDULING_NOISE));
                assertThat(handedOver).as("the unconfirmed begin, handed over at the deadline").hasSize(1);
                assertThat(rig.tool.executions(id)).isZero();
                worst = call.elapsed().compareTo(worst) > 0 ? call.elapsed() : worst;
                handedOver.forEach(pair -> rig.endUnfinished(boundary, pair));
                rig.settle(boundary, call, tally);
                tally.rounds++;
            }
            tally.check(rig);
            System.out.println("RELIABILITY frozen-defaults/deadline-2s maxInvokeMillis=" + worst.toMillis());
        }
    }

    @Test
    void aThawedServerRunsTheCleanUpAfterTheLateBeginEvenWithoutTheScriptInItsCache() {
        try (AmbiguityRig rig = AmbiguityRig.direct(RedisStoreOptions.custom())) {
            ToolBoundary boundary = rig.boundary(ToolBoundaryConfig.ofDefaults());
            Tally tally = tally("frozen-defaults/clean-up-without-script-cache");
            for (int round = 0; round < ROUNDS; round++) {
                String id = "frozen-no-cache-" + round;
                // A server that has run begin.lua but never end.lua (as after a restart or a failover).
                rig.redis.call("SCRIPT", "FLUSH");
                assertThat(rig.invoke(boundary, rig.run, id + "-warm-up").outcome().isRight()).isTrue();
                rig.redis.freeze();
                tally.faults++;
                Call call = rig.invoke(boundary, rig.run, id);
                thaw(rig);

                assertThat(call.code().getOrNull()).as(id).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
                assertThat(rig.tool.executions(id)).isZero();
                String status = rig.record(id).getOrDefault("status", "none");
                assertThat(status).as(id + ": the late begin's record before any endUnfinished").isIn("none", "ERROR");
                rig.settle(boundary, call, tally);
                tally.rounds++;
            }
            tally.check(rig);
            assertThat(tally.projectingBeforeEnd).as("records PROJECTING when the harness came").isZero();
        }
    }

    private static Tally tally(String scenario) {
        Tally tally = new Tally(scenario);
        tally.bound = Option.of(BOUND);
        return tally;
    }

    private static void warmUp(AmbiguityRig rig, ToolBoundary boundary) {
        assertThat(rig.invoke(boundary, rig.run, "warm-up").outcome().isRight()).isTrue();
        assertThat(boundary.endUnfinished(rig.key("warm-up-absent"), AttemptToken.random()).getLeft().code())
                .isEqualTo(ErrorCode.RECORD_EXPIRED);
    }

    /** Thaws the server and waits until it has read every command that waited in its sockets. */
    private static void thaw(AmbiguityRig rig) {
        rig.redis.thaw();
        await("the thawed server reads what waited").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
                .until(() -> rig.redis.connectionsWithUnreadInput() == 0);
    }

    /** One store call's timeout and how long it took. */
    record Timed(Duration timeout, Duration elapsed) {
    }

    /** Passes every call on to the Redis store and notes each begin's timeout and duration. */
    static final class TimedStore extends ForwardingStore {
        final List<Timed> begins = new CopyOnWriteArrayList<>();

        TimedStore(CanonicalInvocationStore store) {
            super(store);
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
            long started = System.nanoTime();
            try {
                return delegate().begin(start, timeout);
            } finally {
                begins.add(new Timed(timeout, Duration.ofNanos(System.nanoTime() - started)));
            }
        }
    }
}
