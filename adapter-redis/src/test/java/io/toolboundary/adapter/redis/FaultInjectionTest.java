package io.toolboundary.adapter.redis;

import static io.toolboundary.domain.ErrorCode.DUPLICATE_TOOL_CALL;
import static io.toolboundary.domain.ErrorCode.RECORD_EXPIRED;
import static io.toolboundary.domain.ErrorCode.RUN_STATE_LOST;
import static io.toolboundary.domain.ErrorCode.STORE_FULL;
import static io.toolboundary.domain.ErrorCode.STORE_OUTCOME_UNKNOWN;
import static io.toolboundary.domain.ErrorCode.STORE_UNAVAILABLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toolboundary.adapter.redis.FaultRig.Call;
import io.toolboundary.application.RunContext;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.testsupport.redis.RedisAdmin;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Real faults injected into a real {@code redis-server} process that each test starts for itself:
 * {@code kill -9}, {@code SIGSTOP}/{@code SIGCONT}, {@code CLIENT KILL} (under load, and exactly between a
 * script's execution and its reply), a restart without persistence, {@code FLUSHALL}, {@code maxmemory}
 * with {@code noeviction}, an evicting policy. Every call goes through
 * {@code ToolBoundary.invoke} over a store made by the factory with a 500 ms response timeout and one
 * retry. Each test prints one {@code RELIABILITY} line with its counts and asserts through
 * {@link FaultRig#checkAndReport} that the tool never ran without a confirmed PROJECTING record, never
 * ran twice while its record existed, that no record came back from the dead or lost its TTL, that the
 * agent saw only a code from the scenario's closed set, and that no call waited on stacked retries.
 *
 * <p>When Redis itself loses a run's records (a restart without persistence, a flush, an eviction), it loses
 * the run's state with them: every later call of that run, a replay of a call that ran included, is
 * refused with {@code RUN_STATE_LOST} and runs nothing, and a run opened afterwards works. What the
 * boundary still cannot promise: a record lost while its run's state survives (an eviction of that one
 * key) is not known to have run, and a call with the same key would run the tool again.
 *
 * <p>The line's fields: {@code calls} through the boundary; {@code faults} injected;
 * {@code duplicateExecutions} beyond the first while the key's record existed; {@code resurrected}
 * records that came back after Redis lost them, or hashes without their creation fields;
 * {@code keysWithoutTtl} under the test prefix; {@code leaks} of raw data, keys or addresses to the agent;
 * {@code unexpected} codes outside the scenario's set; then {@code reExecutedAfterLoss} (keys run again
 * after Redis lost their record, now none), {@code projectingLeft} (records a fault left PROJECTING, each with its
 * TTL), {@code unconfirmedExecutions} (tool runs that found no PROJECTING record), {@code maxStoreMillis}
 * (the store's share of the slowest call) and the {@code outcomes} the agent saw.
 */
class FaultInjectionTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void failsClosedAndRecreatesNothingWhenTheServerIsKilledWhileTheToolRuns() {
        try (FaultRig rig = FaultRig.start("kill-9-during-execution", 1)) {
            assertThat(rig.invoke("call-0").outcome().isRight()).isTrue();
            rig.tool.closeGate();
            Future<Call> running = rig.invokeAsync("call-1");
            await().atMost(WAIT).until(() -> rig.tool.entered() == 2);

            rig.redis.kill();
            rig.fault();
            rig.tool.openGate();
            Call killed = FaultRig.result(running);
            Call whileDown = rig.invoke("call-2");

            // The tool ran, so its record may be left PROJECTING: handed over, never "nothing happened".
            assertThat(killed.code().get()).isEqualTo(STORE_OUTCOME_UNKNOWN);
            // Nothing can have been written: a server that is down is the truth, and is said at once.
            assertThat(whileDown.code().get()).isEqualTo(STORE_UNAVAILABLE);
            assertThat(rig.tool.executions("call-2")).isZero();

            rig.redis.restart();
            rig.recordLost("call-0");
            rig.recordLost("call-1");
            rig.awaitStoreAnswers();
            assertThat(rig.stillGone("call-0")).isTrue();
            assertThat(rig.stillGone("call-1")).isTrue();
            assertThat(rig.redis.keys(FaultRig.PREFIX + ":*")).as("keys written by late retries").isEmpty();

            // Redis lost call-1's record with the process, and the run's state with it: the run runs nothing more.
            assertThat(rig.invoke("call-1").code()).isEqualTo(Option.of(RUN_STATE_LOST));
            assertThat(rig.invoke("call-1").code()).isEqualTo(Option.of(RUN_STATE_LOST));
            assertThat(rig.invoke("call-2").code()).isEqualTo(Option.of(RUN_STATE_LOST));
            assertThat(rig.tool.executions("call-1")).isEqualTo(1);
            assertThat(rig.tool.executions("call-2")).isZero();
            assertThat(rig.stillGone("call-1")).isTrue();
            // A run opened after the restart works.
            RunContext next = rig.openRun();
            assertThat(rig.invoke(next, "next-1").outcome().isRight()).isTrue();
            assertThat(rig.invoke(next, "next-1").code()).isEqualTo(Option.of(DUPLICATE_TOOL_CALL));
            assertThat(rig.executor.executions()).isEqualTo(3);
            FaultRig.Report report = rig.checkAndReport(EnumSet.of(STORE_UNAVAILABLE, STORE_OUTCOME_UNKNOWN,
                    RUN_STATE_LOST, DUPLICATE_TOOL_CALL));
            assertThat(report.reExecutedAfterLoss()).isZero();
        }
    }

    @Test
    void runsNothingWhenTheServerFreezesBeforeBeginAndKeepsTheKeyTakenAfterItThaws() {
        try (FaultRig rig = FaultRig.start("sigstop-during-begin", 1)) {
            assertThat(rig.invoke("call-0").outcome().isRight()).isTrue();

            rig.redis.freeze();
            rig.fault();
            Call frozen = rig.invoke("call-1");
            assertThat(rig.tool.executions("call-1")).isZero();
            rig.redis.thaw();
            rig.awaitStoreAnswers();

            assertThat(frozen.code()).isEqualTo(Option.of(STORE_OUTCOME_UNKNOWN));
            int handedOver = rig.endUnfinished();
            Option<String> status = rig.status("call-1");
            System.out.println("FAULT sigstop-during-begin: call-1 record after SIGCONT and " + handedOver
                    + " endUnfinished: " + status.getOrElse("none"));
            // The late begin is ended by token, by the boundary or by the harness: never left PROJECTING.
            assertThat(status.getOrElse("none")).isIn("none", "ERROR");
            Call again = rig.invoke("call-1");
            if (status.isDefined()) {
                assertThat(again.code()).isEqualTo(Option.of(DUPLICATE_TOOL_CALL));
                assertThat(rig.tool.executions("call-1")).isZero();
            } else {
                assertThat(again.outcome().isRight()).isTrue();
                assertThat(rig.tool.executions("call-1")).isEqualTo(1);
            }
            assertThat(rig.invoke("call-0").code()).isEqualTo(Option.of(DUPLICATE_TOOL_CALL));
            assertThat(rig.executor.executions()).isEqualTo(status.isDefined() ? 1 : 2);
            assertThat(rig.checkAndReport(EnumSet.of(STORE_OUTCOME_UNKNOWN, DUPLICATE_TOOL_CALL)).projectingLeft())
                    .isZero();
        }
    }

    @Test
    void reportsAnUnknownOutcomeWhenTheServerFreezesDuringCompleteAndNeverRunsTheToolAgain() {
        try (FaultRig rig = FaultRig.start("sigstop-during-complete", 1)) {
            assertThat(rig.invoke("call-0").outcome().isRight()).isTrue();
            rig.tool.closeGate();
            Future<Call> running = rig.invokeAsync("call-1");
            await().atMost(WAIT).until(() -> rig.tool.entered() == 2);

            rig.redis.freeze();
            rig.fault();
            rig.tool.openGate();
            Call frozen = FaultRig.result(running);
            rig.redis.thaw();
            rig.awaitStoreAnswers();

            assertThat(frozen.code()).isEqualTo(Option.of(STORE_OUTCOME_UNKNOWN));
            int handedOver = rig.endUnfinished();
            Option<String> status = rig.status("call-1");
            System.out.println("FAULT sigstop-during-complete: call-1 record after SIGCONT and " + handedOver
                    + " endUnfinished: " + status.getOrElse("none"));
            // The late completion landed (READY), or the harness ended the record first (ERROR): never PROJECTING.
            assertThat(status.getOrElse("none")).isIn("READY", "ERROR");
            assertThat(rig.invoke("call-1").code()).isEqualTo(Option.of(DUPLICATE_TOOL_CALL));
            assertThat(rig.tool.executions("call-1")).isEqualTo(1);
            assertThat(rig.executor.executions()).isEqualTo(2);
            assertThat(rig.checkAndReport(EnumSet.of(STORE_OUTCOME_UNKNOWN, DUPLICATE_TOOL_CALL)).projectingLeft())
                    .isZero();
        }
    }

    @Test
    void neverRunsAToolTwiceWhileTheStoresConnectionsAreKilledUnderLoad() {
        try (FaultRig rig = FaultRig.start("client-kill", 4)) {
            List<String> ids = new ArrayList<>();
            rig.tool.closeGate();
            List<Future<Call>> waiting = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                ids.add("call-a" + i);
                waiting.add(rig.invokeAsync("call-a" + i));
            }
            await().atMost(WAIT).until(() -> rig.tool.entered() == 4);
            assertThat(rig.killStoreConnections()).isPositive();
            rig.fault();
            rig.tool.openGate();
            waiting.forEach(FaultRig::result);

            rig.tool.onEntry(execution -> {
                if (execution % 2 == 0 && rig.killStoreConnections() > 0) {
                    rig.fault();
                }
            });
            List<Future<Call>> running = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                ids.add("call-b" + i);
                running.add(rig.invokeAsync("call-b" + i));
            }
            running.forEach(FaultRig::result);
            rig.tool.onEntry(execution -> { });
            rig.awaitStoreAnswers();

            for (String id : ids) {
                boolean recorded = rig.status(id).isDefined();
                Call again = rig.invoke(id);
                if (recorded) {
                    assertThat(again.code()).as(id).isEqualTo(Option.of(DUPLICATE_TOOL_CALL));
                }
                assertThat(rig.tool.executions(id)).as(id).isLessThanOrEqualTo(1);
            }
            rig.checkAndReport(EnumSet.of(STORE_UNAVAILABLE, STORE_OUTCOME_UNKNOWN, ErrorCode.RECORD_CONFLICT,
                    DUPLICATE_TOOL_CALL));
        }
    }

    @Test
    void repeatsAScriptWhoseReplyWasLostAfterItRanAndRunsTheToolOnce() {
        try (FaultRig rig = FaultRig.start("reply-lost-after-execution", 1, 2_000)) {
            assertThat(rig.invoke("call-0").outcome().isRight()).isTrue();

            long beforeBegin = rig.scriptRuns();
            Call lostBeginReply = killAfterTheScriptRan(rig, () -> rig.invokeAsync("call-1"));
            long beginRuns = rig.scriptRuns() - beforeBegin;

            rig.tool.closeGate();
            long beforeComplete = rig.scriptRuns();
            Future<Call> running = rig.invokeAsync("call-2");
            await().atMost(WAIT).until(() -> rig.tool.entered() == 3);
            Call lostCompleteReply = killAfterTheScriptRan(rig, () -> {
                rig.tool.openGate();
                return running;
            });
            long completeRuns = rig.scriptRuns() - beforeComplete;
            System.out.println("FAULT reply-lost-after-execution: scripts run for the lost begin reply=" + beginRuns
                    + ", for the lost complete reply=" + completeRuns);

            assertThat(lostBeginReply.outcome().isRight()).isTrue();
            assertThat(lostCompleteReply.outcome().isRight()).isTrue();
            assertThat(beginRuns).as("begin ran, its reply was lost, the retry found its own record; then complete")
                    .isEqualTo(3);
            assertThat(completeRuns).as("begin; complete ran, its reply was lost, the retry found it applied")
                    .isEqualTo(3);
            assertThat(rig.status("call-1")).isEqualTo(Option.of("READY"));
            assertThat(rig.status("call-2")).isEqualTo(Option.of("READY"));
            assertThat(rig.invoke("call-1").code()).isEqualTo(Option.of(DUPLICATE_TOOL_CALL));
            assertThat(rig.invoke("call-2").code()).isEqualTo(Option.of(DUPLICATE_TOOL_CALL));
            assertThat(rig.tool.executions("call-1")).isEqualTo(1);
            assertThat(rig.tool.executions("call-2")).isEqualTo(1);
            rig.checkAndReport(EnumSet.of(DUPLICATE_TOOL_CALL));
        }
    }

    @Test
    void endsACallWhoseRecordWasLostInARestartAsExpiredWithoutRecreatingIt() {
        try (FaultRig rig = FaultRig.start("restart-between-begin-and-complete", 1)) {
            assertThat(rig.invoke("call-0").outcome().isRight()).isTrue();
            rig.tool.closeGate();
            Future<Call> running = rig.invokeAsync("call-1");
            await().atMost(WAIT).until(() -> rig.tool.entered() == 2);

            rig.redis.restart();
            rig.fault();
            rig.recordLost("call-0");
            rig.recordLost("call-1");
            rig.awaitStoreAnswers();
            rig.tool.openGate();
            Call lost = FaultRig.result(running);

            assertThat(lost.code()).isEqualTo(Option.of(RECORD_EXPIRED));
            assertThat(rig.stillGone("call-1")).isTrue();
            assertThat(rig.redis.keys(FaultRig.PREFIX + ":*")).isEmpty();

            // Redis forgot call-1, and the run's state with it: the same key is refused and runs nothing again.
            assertThat(rig.invoke("call-1").code()).isEqualTo(Option.of(RUN_STATE_LOST));
            assertThat(rig.invoke("call-0").code()).isEqualTo(Option.of(RUN_STATE_LOST));
            assertThat(rig.tool.executions("call-1")).isEqualTo(1);
            assertThat(rig.tool.executions("call-0")).isEqualTo(1);
            assertThat(rig.stillGone("call-1")).isTrue();
            RunContext next = rig.openRun();
            assertThat(rig.invoke(next, "next-1").outcome().isRight()).isTrue();
            FaultRig.Report report = rig.checkAndReport(EnumSet.of(RECORD_EXPIRED, RUN_STATE_LOST));
            assertThat(report.reExecutedAfterLoss()).isZero();
        }
    }

    @Test
    void refusesEveryLaterCallOfARunWhoseStateAFlushallLostAndRunsNothingAgain() {
        try (FaultRig rig = FaultRig.start("flushall", 1)) {
            List<String> ran = List.of("call-0", "call-1", "call-2");
            for (String id : ran) {
                assertThat(rig.invoke(id).outcome().isRight()).as(id).isTrue();
            }
            rig.tool.closeGate();
            Future<Call> running = rig.invokeAsync("call-3");
            await().atMost(WAIT).until(() -> rig.tool.entered() == 4);

            rig.redis.call("FLUSHALL");
            rig.fault();
            for (String id : List.of("call-0", "call-1", "call-2", "call-3")) {
                rig.recordLost(id);
            }
            rig.tool.openGate();
            // Its tool ran before the flush; its record went with it: nothing to complete, nothing recreated.
            assertThat(FaultRig.result(running).code()).isEqualTo(Option.of(RECORD_EXPIRED));
            assertThat(rig.stillGone("call-3")).isTrue();

            // Every later call of the run: replays of calls that ran, twice, and calls never made.
            List<String> later = new ArrayList<>();
            for (int pass = 0; pass < 2; pass++) {
                later.addAll(List.of("call-0", "call-1", "call-2", "call-3", "call-4", "call-5"));
            }
            int refused = 0;
            int executionsBefore = rig.executor.executions();
            for (String id : later) {
                Call call = rig.invoke(id);
                assertThat(call.code()).as(id).isEqualTo(Option.of(RUN_STATE_LOST));
                refused += call.code().contains(RUN_STATE_LOST) ? 1 : 0;
            }
            int reexecutions = rig.executor.executions() - executionsBefore;
            System.out.println("RELIABILITY flushall: calls=" + later.size() + " refused=" + refused
                    + " reexecutions=" + reexecutions);
            assertThat(reexecutions).as("tool runs of the flushed run's later calls").isZero();
            for (String id : ran) {
                assertThat(rig.tool.executions(id)).as(id).isEqualTo(1);
                assertThat(rig.stillGone(id)).as(id).isTrue();
            }
            assertThat(rig.tool.executions("call-4")).isZero();
            assertThat(rig.status("call-4")).isEmpty();

            // A run opened after the flush works, replays included.
            RunContext next = rig.openRun();
            assertThat(rig.invoke(next, "next-0").outcome().isRight()).isTrue();
            assertThat(rig.invoke(next, "next-1").outcome().isRight()).isTrue();
            assertThat(rig.invoke(next, "next-0").code()).isEqualTo(Option.of(DUPLICATE_TOOL_CALL));
            assertThat(rig.tool.executions("next-0")).isEqualTo(1);
            assertThat(rig.executor.executions()).isEqualTo(6);
            FaultRig.Report report = rig.check(EnumSet.of(RECORD_EXPIRED, RUN_STATE_LOST, DUPLICATE_TOOL_CALL));
            assertThat(report.reExecutedAfterLoss()).isZero();
        }
    }

    @Test
    void refusesEveryCallAsStoreFullOnceMemoryIsExhaustedAndRunsNothingRefused() {
        try (FaultRig rig = FaultRig.start("maxmemory-noeviction", 1)) {
            assertThat(rig.invoke("call-0").outcome().isRight()).isTrue();
            rig.tool.padRawWith("x".repeat(16 * 1024));
            long used = usedMemory(rig.redis);
            rig.redis.call("CONFIG", "SET", "maxmemory", Long.toString(used + 256 * 1024));
            rig.fault();

            List<String> ids = new ArrayList<>(List.of("call-0"));
            List<String> refusedAtBegin = new ArrayList<>();
            for (int i = 1; i <= 200 && refusedAtBegin.size() < 3; i++) {
                String id = "call-" + i;
                ids.add(id);
                Call call = rig.invoke(id);
                assertThat(call.code().getOrElse(STORE_FULL)).as(id).isEqualTo(STORE_FULL);
                if (call.code().isDefined() && rig.tool.executions(id) == 0) {
                    refusedAtBegin.add(id);
                }
            }
            assertThat(refusedAtBegin).hasSize(3);
            for (String id : ids) {
                assertThat(rig.status(id).isDefined()).as(id + " has a record exactly when it ran")
                        .isEqualTo(rig.tool.executions(id) == 1);
            }

            rig.redis.call("CONFIG", "SET", "maxmemory", "0");
            for (String id : ids) {
                boolean ran = rig.tool.executions(id) == 1;
                Call again = rig.invoke(id);
                if (ran) {
                    assertThat(again.code()).as(id).isEqualTo(Option.of(DUPLICATE_TOOL_CALL));
                } else {
                    assertThat(again.outcome().isRight()).as(id + " was never begun, so it runs now").isTrue();
                }
            }
            rig.checkAndReport(EnumSet.of(STORE_FULL, DUPLICATE_TOOL_CALL));
        }
    }

    @Test
    void refusesAnEvictingServerAndShowsWhyWhenToldOnlyToWarn() {
        RedisServerProcess redis = RedisServerProcess.start();
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        FaultRig started = null;
        try {
            redis.call("CONFIG", "SET", "maxmemory-policy", "volatile-lru");
            assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.create(
                    FaultRig.config(redis.endpoint(), 1, FaultRig.TIMEOUT_MILLIS),
                    FaultRig.options(RedisStoreOptions.EvictionPolicyCheck.REFUSE)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("volatile-lru")
                    .hasMessageContaining("noeviction");
            await("the refused store's connections are closed").atMost(WAIT).until(() ->
                    !String.valueOf(redis.call("CLIENT", "LIST")).contains("name=" + FaultRig.CLIENT_NAME + " "));
            started = startCapturingWarnings(redis, warnings);
        } finally {
            if (started == null) {
                redis.close();
            }
        }
        try (FaultRig rig = started) {
            assertThat(warnings).anySatisfy(warning -> {
                assertThat(warning.getLevel()).isEqualTo(Level.WARNING);
                assertThat(warning.getMessage()).contains("volatile-lru");
            });
            assertThat(rig.invoke("call-0").outcome().isRight()).isTrue();
            rig.tool.closeGate();
            Future<Call> running = rig.invokeAsync("call-1");
            await().atMost(WAIT).until(() -> rig.tool.entered() == 2);

            rig.redis.call("CONFIG", "SET", "maxmemory", "1");
            await().atMost(WAIT).until(() -> rig.redis.keys(FaultRig.PREFIX + ":*").isEmpty());
            rig.redis.call("CONFIG", "SET", "maxmemory", "0");
            rig.fault();
            rig.recordLost("call-0");
            rig.recordLost("call-1");
            rig.tool.openGate();
            Call evicted = FaultRig.result(running);

            assertThat(evicted.code()).isEqualTo(Option.of(RECORD_EXPIRED));
            assertThat(rig.stillGone("call-1")).isTrue();
            // Eviction is a loss like a restart; here it took the run's state too, so the same key is refused.
            // An eviction of the record alone would let it run again: why the factory refuses by default.
            assertThat(rig.invoke("call-1").code()).isEqualTo(Option.of(RUN_STATE_LOST));
            assertThat(rig.tool.executions("call-1")).isEqualTo(1);
            FaultRig.Report report = rig.checkAndReport(EnumSet.of(RECORD_EXPIRED, RUN_STATE_LOST));
            assertThat(report.reExecutedAfterLoss()).isZero();
        }
    }

    /**
     * Freezes the server, starts the call, waits until its command sits unread in the server's socket,
     * queues a {@code CLIENT KILL} of the store's connection behind it, and thaws the server: the server
     * runs the command, then kills the connection before the reply leaves. Counts one fault.
     */
    private static Call killAfterTheScriptRan(FaultRig rig, Supplier<Future<Call>> call) {
        List<String> connections = rig.storeConnectionIds();
        assertThat(connections).hasSize(1);
        try (RedisAdmin killer = RedisAdmin.open(rig.redis.endpoint(), Duration.ofSeconds(10))) {
            rig.redis.freeze();
            rig.fault();
            Future<Call> started = call.get();
            await().atMost(WAIT).pollInterval(Duration.ofMillis(5))
                    .until(() -> rig.redis.connectionsWithUnreadInput() == 1);
            CompletableFuture<Object> kill = CompletableFuture.supplyAsync(
                    () -> killer.command("CLIENT", "KILL", "ID", connections.get(0)));
            await().atMost(WAIT).pollInterval(Duration.ofMillis(5))
                    .until(() -> rig.redis.connectionsWithUnreadInput() == 2);
            rig.redis.thaw();
            assertThat(kill.join()).isEqualTo(1L);
            return FaultRig.result(started);
        }
    }

    private static FaultRig startCapturingWarnings(RedisServerProcess redis, List<LogRecord> warnings) {
        Logger log = Logger.getLogger(RedisCanonicalInvocationStore.class.getName());
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                warnings.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(capture);
        try {
            return FaultRig.on(redis, "volatile-lru-eviction", 1, RedisStoreOptions.EvictionPolicyCheck.WARN,
                    FaultRig.TIMEOUT_MILLIS);
        } finally {
            log.removeHandler(capture);
        }
    }

    private static long usedMemory(RedisServerProcess redis) {
        for (String line : String.valueOf(redis.call("INFO", "memory")).split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("INFO memory has no used_memory");
    }
}
