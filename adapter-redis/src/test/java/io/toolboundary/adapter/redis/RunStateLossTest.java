package io.toolboundary.adapter.redis;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testsupport.redis.RedisAdmin;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import io.toolboundary.testsupport.redis.SentinelGroup;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When Redis loses data, calls fail closed instead of running again: on real {@code redis-server}
 * processes, a restart without persistence, an eviction of a run's keys, and a Sentinel failover that
 * loses unreplicated writes leave every later call of the affected run refused, with nothing run twice,
 * while runs opened afterwards work. With replica acknowledgement the failover loses no acknowledged call,
 * and a master left without replicas runs nothing.
 * Each fault prints a RELIABILITY line.
 */
class RunStateLossTest {

    private static final String PREFIX = RedisTestServers.PREFIX;
    private static final RedisStoreOptions OPTIONS = RedisStoreOptions.custom().keyPrefix(PREFIX).build();
    private static final Duration FAILOVER = Duration.ofSeconds(20);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(5);

    @Test
    void aRestartWithoutPersistenceRefusesEveryLaterCallOfTheRun() {
        try (RedisServerProcess server = RedisServerProcess.start(RedisServerProcess.Persistence.NONE);
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(
                        server.endpoint().uri(), OPTIONS)) {
            DataLoss loss = new DataLoss(store);
            RunContext run = loss.openRun();
            List<ToolCallEnvelope> ran = DataLoss.calls(run, 0, 5);
            loss.succeed(run, ran);

            server.restart();

            List<ToolCallEnvelope> later = new ArrayList<>(ran);
            later.addAll(DataLoss.calls(run, 5, 8));
            for (ToolCallEnvelope call : later) {
                assertThat(loss.invoke(run, call)).as("call %s after the restart", call.toolCallId())
                        .isEqualTo(refused(ErrorCode.RUN_STATE_LOST));
            }
            RunContext next = loss.openRun();
            loss.succeed(next, DataLoss.calls(next, 0, 3));

            assertThat(loss.reexecuted()).isEmpty();
            assertThat(loss.executions()).isEqualTo(5 + 3);
            assertEveryKeyHasATtl(server);
            loss.print("restart-without-persistence", "lostRunCalls=" + later.size());
        }
    }

    @Test
    void anEvictionOfARunsKeysRefusesItsCallsAndRunsNothingAgain() {
        RedisStoreOptions evicting = RedisStoreOptions.custom().keyPrefix(PREFIX)
                .evictionPolicyCheck(RedisStoreOptions.EvictionPolicyCheck.WARN).build();
        try (RedisServerProcess server = RedisServerProcess.start(RedisServerProcess.Persistence.NONE);
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(
                        server.endpoint().uri(), evicting)) {
            DataLoss loss = new DataLoss(store);
            RunContext run = loss.openRun();
            List<ToolCallEnvelope> ran = DataLoss.calls(run, 0, 20);
            loss.succeed(run, ran);
            long used = server.callLong("MEMORY", "USAGE", store.recordKey(keyOf(run, ran.get(0))));
            // A record lost on its own (as an eviction of that one key leaves it): the run's ledger has the call.
            server.call("DEL", store.recordKey(keyOf(run, ran.get(0))));
            assertThat(loss.invoke(run, ran.get(0))).as("a replay of a call whose record alone was lost")
                    .isEqualTo(refused(ErrorCode.DUPLICATE_TOOL_CALL));
            server.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            server.call("CONFIG", "SET", "maxmemory", Long.toString(usedMemory(server) + 64 * used));

            // Filler (with TTLs of its own) until a record of the run is evicted; the run's state may go first
            // or later (Redis's LRU clock counts seconds, and these keys were all used within one).
            int filler = fillUntil(server, 0, () -> records(server, run, ran) < ran.size() - 1);
            int recordsLeft = records(server, run, ran);
            for (ToolCallEnvelope call : ran) {
                Either<BoundaryError, AgentResult> replay = loss.invoke(run, call);
                assertThat(replay.isLeft()).as("replay of %s after an eviction", call.toolCallId()).isTrue();
                assertThat(replay.getLeft().code()).isIn(ErrorCode.DUPLICATE_TOOL_CALL, ErrorCode.RUN_STATE_LOST);
            }

            // Then until the run's state is evicted too.
            fillUntil(server, filler, () -> server.callLong("EXISTS", runKey(run)) == 0);
            for (ToolCallEnvelope call : DataLoss.calls(run, 0, 25)) {
                assertThat(loss.invoke(run, call)).as("call %s once the run's state is evicted", call.toolCallId())
                        .isEqualTo(refused(ErrorCode.RUN_STATE_LOST));
            }
            server.call("CONFIG", "SET", "maxmemory", "0");
            RunContext next = loss.openRun();
            loss.succeed(next, DataLoss.calls(next, 0, 3));

            assertThat(loss.reexecuted()).isEmpty();
            assertThat(loss.executions()).isEqualTo(20 + 3);
            assertEveryKeyHasATtl(server);
            loss.print("eviction", "recordsLeftAfterFirstEviction=" + recordsLeft + "/" + ran.size());
        }
    }

    @Test
    void aFailoverThatLosesUnreplicatedWritesRefusesTheRunsLaterCalls() {
        try (SentinelGroup group = SentinelGroup.start();
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectSentinel(
                        group.masterName(), group.sentinelUrls(), OPTIONS)) {
            DataLoss loss = new DataLoss(store);
            RunContext run = loss.openRun();
            List<ToolCallEnvelope> replicated = DataLoss.calls(run, 0, 3);
            loss.succeed(run, replicated);
            awaitOnReplica(group, store, run, replicated);

            group.cutReplicationLink();
            List<ToolCallEnvelope> unreplicated = DataLoss.calls(run, 3, 6);
            loss.succeed(run, unreplicated);
            group.killMaster();
            io.toolboundary.testsupport.redis.RedisEndpoint promoted = group.awaitFailover(FAILOVER);
            awaitTheStoreOnThePromotedReplica(store, keyOf(run, replicated.get(0)));

            List<ToolCallEnvelope> later = new ArrayList<>(replicated);
            later.addAll(unreplicated);
            later.addAll(DataLoss.calls(run, 6, 8));
            for (ToolCallEnvelope call : later) {
                Either<BoundaryError, AgentResult> answer = loss.invoke(run, call);
                assertThat(answer).as("call %s after the failover", call.toolCallId())
                        .isEqualTo(refused(ErrorCode.RUN_STATE_LOST));
            }
            // The harness opens the run again (say, after a restart of its own): the older copy answers the
            // run's token, the same token, and the run still runs nothing.
            RunContext unopened = new RunContext(run.runId(), true, run.deadline(), run.callBudget(), Option.none());
            Either<BoundaryError, RunContext> reopened = loss.boundary.openRun(unopened);
            assertThat(reopened.map(RunContext::runToken)).isEqualTo(Either.right(run.runToken()));
            assertThat(loss.invoke(reopened.get(), DataLoss.calls(run, 8, 9).get(0)))
                    .as("a call of the run opened again on the older copy").isEqualTo(refused(ErrorCode.RUN_STATE_LOST));
            RunContext next = loss.openRun();
            loss.succeed(next, DataLoss.calls(next, 0, 3));

            assertThat(loss.reexecuted()).isEmpty();
            assertThat(loss.executions()).isEqualTo(6 + 3);
            try (RedisAdmin master = RedisAdmin.open(promoted, ADMIN_TIMEOUT)) {
                for (String key : master.scan(PREFIX + ":*")) {
                    assertThat(master.commandLong("PTTL", key)).as("the TTL of %s", key).isPositive();
                }
            }
            loss.print("sentinel-failover", "answeredThenLost=" + unreplicated.size());
        }
    }

    @Test
    void withReplicaAcknowledgementAFailoverLosesNoAcknowledgedCall() {
        RedisStoreOptions acknowledged = RedisStoreOptions.custom().keyPrefix(PREFIX)
                .replicaAcknowledgement(1, Duration.ofMillis(500)).build();
        try (SentinelGroup group = SentinelGroup.start();
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectSentinel(
                        group.masterName(), group.sentinelUrls(), acknowledged)) {
            DataLoss loss = new DataLoss(store);
            RunContext run = loss.openRun();
            List<ToolCallEnvelope> before = DataLoss.calls(run, 0, 3);
            loss.succeed(run, before);

            group.cutReplicationLink();
            List<ToolCallEnvelope> during = DataLoss.calls(run, 3, 6);
            for (ToolCallEnvelope call : during) {
                assertThat(loss.invoke(run, call)).as("call %s while no replica acknowledges", call.toolCallId())
                        .isEqualTo(refused(ErrorCode.STORE_OUTCOME_UNKNOWN));
            }
            int executedDuringCut = loss.executions() - before.size();
            group.killMaster();
            group.awaitFailover(FAILOVER);
            awaitTheStoreOnThePromotedReplica(store, keyOf(run, before.get(0)));

            for (ToolCallEnvelope call : before) {
                assertThat(loss.invoke(run, call)).as("replay of acknowledged %s", call.toolCallId())
                        .isEqualTo(refused(ErrorCode.DUPLICATE_TOOL_CALL));
                assertThat(store.find(keyOf(run, call), TIMEOUT).get().map(r -> r.status().name()))
                        .as("the acknowledged record of %s on the promoted replica", call.toolCallId())
                        .contains("READY");
            }
            // The promoted replica has no replica of its own: no write can be acknowledged, so nothing runs.
            int executed = loss.executions();
            for (ToolCallEnvelope call : DataLoss.calls(run, 6, 8)) {
                assertThat(loss.invoke(run, call)).as("call %s on a master without replicas", call.toolCallId())
                        .isEqualTo(refused(ErrorCode.STORE_OUTCOME_UNKNOWN));
            }

            assertThat(loss.executions()).as("tools run without an acknowledged begin").isEqualTo(executed);
            assertThat(executedDuringCut).as("tools run on an unacknowledged begin").isZero();
            assertThat(loss.reexecuted()).isEmpty();
            loss.print("sentinel-failover-acknowledged", "unacknowledgedNotRun=" + during.size());
        }
    }

    private static <T> Either<BoundaryError, T> refused(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }

    private static InvocationKey keyOf(RunContext run, ToolCallEnvelope call) {
        return InvocationKey.of(run.runId(), new ToolCallId(call.toolCallId()));
    }

    private static String runKey(RunContext run) {
        return PREFIX + ":{" + run.runId().value() + "}:run";
    }

    private static int records(RedisServerProcess server, RunContext run, List<ToolCallEnvelope> calls) {
        int held = 0;
        for (ToolCallEnvelope call : calls) {
            held += (int) server.callLong("EXISTS", PREFIX + ":{" + run.runId().value() + "}:call:" + call.toolCallId());
        }
        return held;
    }

    private static long usedMemory(RedisServerProcess server) {
        String info = String.valueOf(server.call("INFO", "memory"));
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new AssertionError("no used_memory in INFO memory");
    }

    /** Writes 4 KiB filler keys, each with a TTL, one at a time from {@code from} on until {@code done}; at most 20,000. */
    private static int fillUntil(RedisServerProcess server, int from, java.util.function.BooleanSupplier done) {
        String value = "f".repeat(4096);
        int i = from;
        while (!done.getAsBoolean()) {
            assertThat(i - from).as("filler keys written before the eviction came").isLessThan(20_000);
            server.call("SET", "filler:" + i, value, "PX", "3600000");
            i++;
        }
        return i;
    }

    private static void awaitOnReplica(SentinelGroup group, RedisCanonicalInvocationStore store, RunContext run,
            List<ToolCallEnvelope> calls) {
        try (RedisAdmin replica = RedisAdmin.open(group.replica(), ADMIN_TIMEOUT)) {
            await("the replica to hold the run's records").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(20))
                    .until(() -> calls.stream().allMatch(call ->
                            "READY".equals(StoredRecord.status(replica.command("GET", store.recordKey(keyOf(run, call)))))));
        }
    }

    /** Waits (bounded) until the store reads {@code replicated}'s READY record from the promoted replica. */
    private static void awaitTheStoreOnThePromotedReplica(RedisCanonicalInvocationStore store, InvocationKey replicated) {
        await("the store to read from the promoted replica").atMost(FAILOVER).pollInterval(Duration.ofMillis(100))
                .until(() -> store.find(replicated, TIMEOUT).map(found -> found.exists(r -> r.status().name().equals("READY")))
                        .getOrElse(false));
    }

    private static void assertEveryKeyHasATtl(RedisServerProcess server) {
        for (String key : server.keys(PREFIX + ":*")) {
            assertThat(server.callLong("PTTL", key)).as("the TTL of %s", key).isPositive();
        }
    }
}
