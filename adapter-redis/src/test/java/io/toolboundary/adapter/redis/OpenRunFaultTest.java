package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.FaultProxy;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Faults while a run is opened ({@code ToolBoundary.openRun}, one {@code open.lua}), on real
 * {@code redis-server} processes with the shipped defaults but where a fault needs a shorter budget: a
 * frozen server, a lost reply, a master that refuses writes for want of replicas
 * ({@code min-replicas-to-write}), and replica acknowledgement with no replica to acknowledge. Each
 * answers a safe code; a retry of the same run gets the token of the opening that reached the server;
 * a context that was never opened runs nothing. Each prints a {@code RELIABILITY open-run/...} line. The
 * server that is down is {@link ServerDownTest}'s; the failover that left an older copy of the run is
 * {@link RunStateLossTest}'s.
 */
class OpenRunFaultTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void aFrozenServerAnswersOutcomeUnknownWithinTheStoreBudgetAndARetryAfterTheThawGetsTheStoredToken() {
        try (AmbiguityRig rig = AmbiguityRig.direct(RedisStoreOptions.custom())) {
            ToolBoundary boundary = rig.boundary(ToolBoundaryConfig.ofDefaults());
            RunContext run = Fixtures.anyRunContext();
            rig.redis.freeze();
            long started = System.nanoTime();
            Either<BoundaryError, RunContext> frozen = boundary.openRun(run);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            rig.redis.thaw();
            await().atMost(WAIT).until(() -> rig.redis.connectionsWithUnreadInput() == 0);

            Either<BoundaryError, RunContext> retried = boundary.openRun(run);
            Option<RunToken> stored = storedToken(rig.redis, rig.store, run);
            print("frozen", frozen, retried, elapsed, rig);

            assertThat(frozen.getLeft().code()).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
            assertThat(elapsed).isLessThanOrEqualTo(ToolBoundaryConfig.DEFAULT_STORE_TIMEOUT.plusSeconds(1));
            assertThat(stored.isDefined()).as("the late opening reached the server").isTrue();
            assertThat(retried.get().runToken()).isEqualTo(stored);
            assertThat(runsNothingUnopened(rig, boundary, run)).isTrue();
            assertThat(rig.invoke(boundary, retried.get(), "after-retry").outcome().isRight()).isTrue();
        }
    }

    @Test
    void aLostReplyAnswersOutcomeUnknownAndARetryGetsTheTokenOfTheOpeningThatRan() {
        try (AmbiguityRig rig = AmbiguityRig.throughProxy(RedisStoreOptions.custom())) {
            ToolBoundary boundary = rig.boundary(ToolBoundaryConfig.custom().storeTimeout(Duration.ofMillis(800)).build());
            RunContext run = Fixtures.anyRunContext();
            rig.proxy().mode(FaultProxy.Mode.DROP_REPLIES);
            long started = System.nanoTime();
            Either<BoundaryError, RunContext> lost = boundary.openRun(run);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            rig.proxy().mode(FaultProxy.Mode.PASS);
            rig.proxy().resetAll();
            Option<RunToken> stored = storedToken(rig.redis, rig.store, run);

            Either<BoundaryError, RunContext> retried = awaitOpened(boundary, run);
            Either<BoundaryError, RunContext> again = boundary.openRun(run);
            print("lost-reply", lost, retried, elapsed, rig);

            assertThat(lost.getLeft().code()).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
            assertThat(stored.isDefined()).as("the opening ran; only its reply was lost").isTrue();
            assertThat(retried.get().runToken()).isEqualTo(stored);
            assertThat(again.get().runToken()).isEqualTo(stored);
            assertThat(runsNothingUnopened(rig, boundary, run)).isTrue();
        }
    }

    @Test
    void aMasterRefusingWritesForWantOfReplicasAnswersStoreUnavailableAndWritesNothing() {
        try (AmbiguityRig rig = AmbiguityRig.direct(RedisStoreOptions.custom())) {
            ToolBoundary boundary = rig.boundary(ToolBoundaryConfig.ofDefaults());
            RunContext run = Fixtures.anyRunContext();
            rig.redis.call("CONFIG", "SET", "min-replicas-to-write", "1");
            long started = System.nanoTime();
            Either<BoundaryError, RunContext> refused = boundary.openRun(run);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            Option<RunToken> stored = storedToken(rig.redis, rig.store, run);
            rig.redis.call("CONFIG", "SET", "min-replicas-to-write", "0");
            Either<BoundaryError, RunContext> retried = boundary.openRun(run);
            print("min-replicas-to-write", refused, retried, elapsed, rig);

            assertThat(refused.getLeft().code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
            // The refusal lasts as long as the replicas stay away: answered on the first try, not retried
            // through the store timeout.
            assertThat(elapsed).isLessThan(ToolBoundaryConfig.DEFAULT_STORE_TIMEOUT.dividedBy(2));
            assertThat(stored.isEmpty()).as("nothing written").isTrue();
            assertThat(runsNothingUnopened(rig, boundary, run)).isTrue();
            assertThat(retried.get().runToken()).isEqualTo(storedToken(rig.redis, rig.store, run));
        }
    }

    @Test
    void withReplicaAcknowledgementAndNoReplicaAnOpeningIsUnknownUntilAReplicaAcknowledgesTheSameToken() {
        RedisStoreOptions acknowledged = RedisStoreOptions.custom().keyPrefix(AmbiguityRig.PREFIX)
                .replicaAcknowledgement(1, Duration.ofMillis(200)).build();
        try (RedisServerProcess master = RedisServerProcess.start();
                RedisServerProcess replica = RedisServerProcess.start();
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(
                        master.endpoint().uri(), acknowledged)) {
            DataLoss harness = new DataLoss(store);
            RunContext run = Fixtures.anyRunContext();
            long started = System.nanoTime();
            Either<BoundaryError, RunContext> unacknowledged = harness.boundary.openRun(run);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            Option<RunToken> stored = storedToken(master, store, run);
            Either<BoundaryError, RunContext> stillAlone = harness.boundary.openRun(run);
            Either<BoundaryError, ?> unopened = harness.invoke(run, Fixtures.envelope(run).build());

            MasterAndReplica.follow(replica, master);
            Either<BoundaryError, RunContext> retried = awaitOpened(harness.boundary, run);
            System.out.println("RELIABILITY open-run/replica-acknowledgement first="
                    + unacknowledged.fold(e -> e.code().name(), r -> "opened") + " firstMillis=" + elapsed.toMillis()
                    + " retryAlone=" + stillAlone.fold(e -> e.code().name(), r -> "opened")
                    + " retryWithReplica=" + retried.fold(e -> e.code().name(), r -> "opened")
                    + " toolRuns=" + harness.executions());

            assertThat(unacknowledged.getLeft().code()).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
            assertThat(stillAlone.getLeft().code()).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
            assertThat(stored.isDefined()).as("written on the master, not acknowledged").isTrue();
            assertThat(unopened.getLeft().code()).isEqualTo(ErrorCode.RUN_NOT_OPENED);
            assertThat(harness.executions()).isZero();
            assertThat(retried.get().runToken()).isEqualTo(stored);
            assertThat(storedToken(replica, store, run)).isEqualTo(stored);
        }
    }

    /** A context the harness never got back from {@code openRun} is refused before anything runs. */
    private static boolean runsNothingUnopened(AmbiguityRig rig, ToolBoundary boundary, RunContext unopened) {
        int before = rig.executor.executions();
        AmbiguityRig.Call call = rig.invoke(boundary, unopened, "unopened");
        return call.code().contains(ErrorCode.RUN_NOT_OPENED) && rig.executor.executions() == before;
    }

    private static Either<BoundaryError, RunContext> awaitOpened(ToolBoundary boundary, RunContext run) {
        java.util.concurrent.atomic.AtomicReference<Either<BoundaryError, RunContext>> opened =
                new java.util.concurrent.atomic.AtomicReference<>();
        await("the run opens").atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> {
            opened.set(boundary.openRun(run));
            return opened.get().isRight();
        });
        return opened.get();
    }

    private static Option<RunToken> storedToken(RedisServerProcess server, RedisCanonicalInvocationStore store,
            RunContext run) {
        return Option.of(server.call("HGET", store.runKey(run.runId()), "token"))
                .filter(String.class::isInstance)
                .map(token -> new RunToken((String) token));
    }

    private static void print(String fault, Either<BoundaryError, RunContext> first,
            Either<BoundaryError, RunContext> retried, Duration elapsed, AmbiguityRig rig) {
        System.out.println("RELIABILITY open-run/" + fault + " first=" + first.fold(e -> e.code().name(), r -> "opened")
                + " firstMillis=" + elapsed.toMillis() + " retry=" + retried.fold(e -> e.code().name(), r -> "opened")
                + " toolRuns=" + rig.executor.executions());
    }
}
