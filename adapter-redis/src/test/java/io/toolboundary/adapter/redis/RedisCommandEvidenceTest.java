package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.newRun;
import static io.toolboundary.adapter.redis.Records.open;
import static io.toolboundary.adapter.redis.Records.openedRun;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static io.toolboundary.adapter.redis.Records.start;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.redisson.config.Config;

/**
 * Proof from Redis's own {@code INFO commandstats} (which counts the commands run inside scripts too)
 * that TTLs are set only at creation and never touched again, that a run costs one script when it is
 * opened and a call two scripts, and that a run's keys are its records and its one state hash.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisCommandEvidenceTest {

    private static final String PREFIX = "tbproof";
    /**
     * Commands that set, refresh or remove a TTL, none of which may ever be sent (PEXPIRE and SET are
     * counted apart: PEXPIRE once per run opened; SET once per record and once per pending key created,
     * with PX, and once per final record, with XX KEEPTTL).
     */
    private static final Set<String> NEVER_SENT = Set.of("expire", "expireat", "pexpireat", "getex", "persist",
            "setex", "psetex", "getset", "setrange", "append");
    /** What the scripts call inside, and the completion's SET beside its script; XADD only with export on. */
    private static final Set<String> SCRIPT_INNER_COMMANDS = Set.of("exists", "hmget", "hget", "pexpire", "hset",
            "set", "get", "del", "rename", "strlen", "pttl", "xadd");
    /** Not inner commands: the scripts themselves, and the test's own reset and read of the statistics. */
    private static final Set<String> OUTER_COMMANDS = Set.of("evalsha", "eval", "script", "config", "info");

    /**
     * What one call costs inside Redis: begin.lua's HMGET (the run), SET ... NX PX (the pending key),
     * SET ... NX PX (the record), HSET (the run's and the tool's counters and the run's ledger); then, in one
     * pipeline, SET ... XX KEEPTTL (the final record, into the pending key) and complete.lua's STRLEN (the
     * pending key holds it) and RENAME (over the record): six commands in the scripts, one beside them.
     */
    private static final Map<String, Long> CALL_COMMANDS = Map.of("hmget", 1L, "hset", 1L, "set", 3L,
            "strlen", 1L, "rename", 1L);

    private RedisDeployment redis;
    private RedisCanonicalInvocationStore store;

    @BeforeAll
    void createStoreAndWarmTheScriptCache() {
        redis = RedisServerFixture.standalone();
        store = RedisCanonicalInvocationStoreFactory.create(RedisTestServers.standaloneClient(),
                RedisStoreOptions.custom().keyPrefix(PREFIX).build());
        CanonicalRecord.Projecting warmUp = projecting(key(openedRun(store), "warm-up"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(warmUp, token), TIMEOUT);
        store.find(warmUp.key(), TIMEOUT);
        store.complete(token, ready(warmUp, "raw", "result"), TIMEOUT);
        CanonicalRecord.Projecting abandonedWarmUp = projecting(key(openedRun(store), "warm-up-abandoned"), "{}");
        store.begin(start(abandonedWarmUp, AttemptToken.random()), TIMEOUT);
        new RecordLife(redis, store).passLease(abandonedWarmUp.key());
        store.abandon(abandonedWarmUp.key(), abandonedWarmUp.createdAt(), TIMEOUT);
    }

    @AfterAll
    void closeStore() {
        store.close();
    }

    @Test
    @DisplayName("Read does not renew TTL")
    void readsAndCompletionsNeverSetOrRefreshATtl() {
        RunId run = newRun();
        List<CanonicalRecord.Projecting> records = new ArrayList<>();
        List<AttemptToken> tokens = new ArrayList<>();
        resetStats();

        open(store, run);
        long opened = pttl(store.runKey(run));
        for (int i = 0; i < 6; i++) {
            CanonicalRecord.Projecting record = projecting(key(run, "call-" + i), i % 2 == 0 ? "tool_a" : "tool_b", "{\"i\":" + i + "}");
            AttemptToken token = AttemptToken.random();
            assertThat(store.begin(start(record, token), TIMEOUT).isRight()).isTrue();
            records.add(record);
            tokens.add(token);
        }
        assertThat(store.begin(start(records.get(0), AttemptToken.random()), TIMEOUT).mapLeft(StoreFailure::code).getLeft())
                .isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(store.begin(start(projecting(key(run, "over-budget"), "{}"), AttemptToken.random(), 6, 100), TIMEOUT)
                .mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.RUN_BUDGET_EXHAUSTED);

        String watched = store.recordKey(records.get(0).key());
        long beforeReads = pttl(watched);
        for (int read = 0; read < 100; read++) {
            assertThat(store.find(records.get(0).key(), TIMEOUT).get()).isEqualTo(Option.of(records.get(0)));
        }
        long afterReads = pttl(watched);
        for (int i = 0; i < records.size(); i++) {
            assertThat(store.complete(tokens.get(i), ready(records.get(i), "raw " + i, "result " + i), TIMEOUT).isRight()).isTrue();
        }
        long afterCompletion = pttl(watched);
        long runAfterAll = pttl(store.runKey(run));

        Map<String, Long> calls = commandCalls();
        int recordsCreated = 6;
        int runsOpened = 1; // one hash holds the run's token and the counters of the run, tool_a and tool_b
        assertThat(calls.keySet()).doesNotContainAnyElementsOf(NEVER_SENT);
        // each begin creates two keys with SET ... PX, the pending key and the record; the run's PEXPIRE, once
        assertThat(calls.getOrDefault("pexpire", 0L)).isEqualTo(runsOpened);
        // each completion's final record is a SET ... XX KEEPTTL into the pending key, which complete.lua
        // renames over the record
        assertThat(calls.getOrDefault("set", 0L)).isEqualTo(3L * recordsCreated);
        assertThat(calls.getOrDefault("rename", 0L)).isEqualTo(recordsCreated);
        assertThat(calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L))
                .as("one opening, 6 begins, 2 refused begins, 100 reads, 6 completions").isEqualTo(1 + 6 + 2 + 100 + 6);
        assertThat(afterReads).isPositive().isLessThanOrEqualTo(beforeReads);
        assertThat(afterCompletion).isPositive().isLessThanOrEqualTo(afterReads);
        assertThat(runAfterAll).as("the run's TTL, set once when it was opened").isPositive().isLessThanOrEqualTo(opened);
        assertThat(keysMatching(PREFIX + ":{" + run.value() + "}:*")).hasSize(recordsCreated + runsOpened)
                .contains(store.runKey(run)).contains(store.recordKey(records.get(0).key()))
                .noneMatch(key -> key.contains(":pending:"));
        assertThat(keysMatching(PREFIX + ":*")).isNotEmpty()
                .allSatisfy(key -> assertThat(pttl(key)).as("PTTL of %s", key).isPositive());
        assertThat(store.find(records.get(0).key(), TIMEOUT).get()).isEqualTo(Option.of(ready(records.get(0), "raw 0", "result 0")));
    }

    @Test
    @DisplayName("Every key gets its TTL when it is created, once")
    void everyKeyHasItsTtlAfterEveryStepAndEachKeyCreatedGotOnePexpire() {
        RunId run = newRun();
        java.time.Duration timeout = java.time.Duration.ofSeconds(5);
        String runKeys = PREFIX + ":{" + run.value() + "}:*";
        Runnable everyKeyHasATtl = () -> assertThat(keysMatching(runKeys)).isNotEmpty()
                .allSatisfy(key -> assertThat(pttl(key)).as("PTTL of %s", key).isPositive());
        resetStats();

        open(store, run);
        everyKeyHasATtl.run();
        List<CanonicalRecord.Projecting> records = new ArrayList<>();
        List<AttemptToken> tokens = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            records.add(projecting(key(run, "call-" + i), "{}"));
            tokens.add(AttemptToken.random());
            assertThat(store.begin(start(records.get(i), tokens.get(i)), TIMEOUT).isRight()).isTrue();
            everyKeyHasATtl.run();
        }
        CanonicalRecord.Ready done = ready(records.get(0), "raw 0", "result 0");
        assertThat(store.complete(tokens.get(0), done, TIMEOUT).isRight()).isTrue();
        everyKeyHasATtl.run();
        // a refused completion, by another attempt, with a raw response: its transaction's SET finds no key
        assertThat(store.complete(AttemptToken.random(), ready(records.get(1), "stale", "r"), TIMEOUT).mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.RECORD_CONFLICT);
        everyKeyHasATtl.run();
        assertThat(store.complete(tokens.get(2), io.toolboundary.adapter.redis.Records
                .failed(records.get(2), ErrorCode.EXECUTION_FAILED, Option.none()), TIMEOUT).isRight()).isTrue();
        everyKeyHasATtl.run();
        assertThat(store.end(records.get(3).key(), tokens.get(3), ErrorCode.STORE_OUTCOME_UNKNOWN, Records.UPDATED,
                timeout).isRight()).isTrue();
        everyKeyHasATtl.run();
        new RecordLife(redis, store).passLease(records.get(4).key());
        assertThat(store.abandon(records.get(4).key(), Records.UPDATED, TIMEOUT).isRight()).isTrue();
        everyKeyHasATtl.run();
        // a late completion of the abandoned attempt finds no pending key to write into, and is refused
        assertThat(store.complete(tokens.get(4), ready(records.get(4), "late", "r"), TIMEOUT)
                .mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.RECORD_CONFLICT);
        everyKeyHasATtl.run();
        // an attempt ended before its record existed: its end mark
        assertThat(store.end(key(run, "never-begun"), AttemptToken.random(), ErrorCode.STORE_OUTCOME_UNKNOWN,
                Records.UPDATED, timeout).mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.RECORD_EXPIRED);
        everyKeyHasATtl.run();
        assertThat(store.complete(tokens.get(0), done, TIMEOUT).isRight()).isTrue();
        for (CanonicalRecord.Projecting record : records) {
            assertThat(store.find(record.key(), TIMEOUT).isRight()).isTrue();
        }
        everyKeyHasATtl.run();

        Map<String, Long> calls = commandCalls();
        int runs = 1;
        int recordsCreated = records.size();
        assertThat(calls.keySet()).doesNotContainAnyElementsOf(NEVER_SENT);
        // records and pending keys get their TTL from the SET ... PX that creates them
        assertThat(calls.get("pexpire")).as("one PEXPIRE per run opened").isEqualTo(runs);
        assertThat(calls.get("set")).as("a record and a pending key per begin, a SET per completion, one per end and abandonment, and the"
                + " test's own lease rewrite")
                .isEqualTo(2L * recordsCreated + 5 + 2 + 1);
        // what is left: the run, with the end mark among its fields, the five records, and the empty pending
        // key of call-1, still PROJECTING (the refused completion was another attempt's, whose own pending key
        // never existed); every other attempt's pending key was renamed or deleted
        List<String> left = keysMatching(runKeys);
        assertThat(left).hasSize(runs + records.size() + 1);
        assertThat(left).filteredOn(key -> key.contains(":pending:"))
                .containsExactly(store.keys().pending(records.get(1).key(), tokens.get(1)));
        assertThat(redis.call("GET", store.keys().pending(records.get(1).key(), tokens.get(1)))).isEqualTo("");
        assertThat(redis.call("HLEN", store.runKey(run))).as("token, calls, t:search_logs, five ledger entries, "
                + "an end mark").isEqualTo(2L + 1 + records.size() + 1);
    }

    @Test
    @DisplayName("A successful call costs exactly two store round trips")
    void costsExactlyTwoScriptCallsForABeginAndACompletion() {
        RunId run = newRun();
        resetStats();

        open(store, run);

        Map<String, Long> calls = commandCalls();
        assertThat(calls).containsEntry("evalsha", 1L).doesNotContainKeys("eval", "script");
        // the run's opening, once per run: HGET (is it held?), EXISTS (a hash without a token?), HSET, PEXPIRE
        assertThat(innerCommands(calls)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "hget", 1L, "exists", 1L, "hset", 1L, "pexpire", 1L));

        CanonicalRecord.Projecting first = projecting(key(run, "call-1"), "{}");
        AttemptToken token = AttemptToken.random();
        resetStats();

        assertThat(store.begin(start(first, token), TIMEOUT).isRight()).isTrue();
        assertThat(store.complete(token, ready(first, "raw", "result"), TIMEOUT).isRight()).isTrue();

        calls = commandCalls();
        assertThat(calls).containsEntry("evalsha", 2L).doesNotContainKeys("eval", "script");
        // the run's first call costs what every call costs: its counters are fields of the run's state
        assertThat(innerCommands(calls)).containsExactlyInAnyOrderEntriesOf(CALL_COMMANDS);
        assertThat(calls).doesNotContainKeys("multi", "exec");

        CanonicalRecord.Projecting second = projecting(key(run, "call-2"), "{\"q\":\"" + "x".repeat(1024) + "\"}");
        AttemptToken secondToken = AttemptToken.random();
        resetStats();

        assertThat(store.begin(start(second, secondToken), TIMEOUT).isRight()).isTrue();
        assertThat(store.complete(secondToken, ready(second, "r".repeat(1024), "result"), TIMEOUT).isRight()).isTrue();

        calls = commandCalls();
        assertThat(calls).containsEntry("evalsha", 2L).doesNotContainKeys("eval", "script");
        // the same, whatever the size of the raw response: it is one SET, never an argument of a script
        assertThat(innerCommands(calls)).containsExactlyInAnyOrderEntriesOf(CALL_COMMANDS);
        assertThat(calls).doesNotContainKeys("multi", "exec");
    }

    @Test
    @DisplayName("A run's TTL is set once, when it is opened")
    void openingARunAgainAndABeginInARunNotHeldReadOnlyAndWriteNothing() {
        RunId run = openedRun(store);
        String runKey = store.runKey(run);
        long opened = pttl(runKey);
        CanonicalRecord.Projecting unheld = projecting(key(newRun(), "call-1"), "{}");
        resetStats();

        assertThat(store.openRun(new RunOpening(run, new RunToken("another-opening"), Records.RUN_TTL), TIMEOUT))
                .isEqualTo(Either.right(Records.RUN_TOKEN));
        Map<String, Long> reopening = commandCalls();
        resetStats();
        assertThat(store.begin(start(unheld, AttemptToken.random()), TIMEOUT).mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.RUN_STATE_LOST);
        Map<String, Long> refusedBegin = commandCalls();

        // opening a held run: HGET finds its token, nothing more
        assertThat(reopening).containsEntry("evalsha", 1L);
        assertThat(innerCommands(reopening)).containsExactlyInAnyOrderEntriesOf(Map.of("hget", 1L));
        // a begin in a run the store does not hold: HMGET of the run's state, nothing more
        assertThat(refusedBegin).containsEntry("evalsha", 1L);
        assertThat(innerCommands(refusedBegin)).containsExactlyInAnyOrderEntriesOf(Map.of("hmget", 1L));
        assertThat(pttl(runKey)).isPositive().isLessThanOrEqualTo(opened);
        assertThat(redis.callLong("EXISTS", store.runKey(unheld.key().runId()), store.recordKey(unheld.key()))).isZero();
    }

    @Test
    void loadsAScriptTheServerLostAndRunsItOnceMore() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(store), "call-1"), "{}");
        AttemptToken token = AttemptToken.random();
        redis.callOnEveryNode("SCRIPT", "FLUSH");
        resetStats();

        assertThat(store.begin(start(record, token), TIMEOUT)).isEqualTo(Either.right(record));
        assertThat(store.complete(token, ready(record, "raw", "result"), TIMEOUT).isRight()).isTrue();

        Map<String, Long> calls = commandCalls();
        // begin: EVALSHA refused with NOSCRIPT, then the script by its source, which Redisson with its script
        // cache on sends as EVALSHA (NOSCRIPT), SCRIPT LOAD to the node that answered, EVALSHA; complete: its
        // pipeline (SET, EVALSHA refused with NOSCRIPT), then apart: the SET alone, and the script by source
        // as begin's was (EVALSHA, NOSCRIPT, SCRIPT LOAD, EVALSHA)
        assertThat(calls).containsEntry("evalsha", 6L).containsEntry("script", 2L).containsEntry("set", 4L)
                .doesNotContainKeys("eval", "multi");
        assertThat(store.find(record.key(), TIMEOUT).get().get().status()).isEqualTo(InvocationStatus.READY);
    }

    @Test
    void runsAScriptTheServerLostByItsSourceOnAClientWithItsScriptCacheOff() {
        Config config = RedisTestServers.config(redis).setUseScriptCache(false);
        try (RedisCanonicalInvocationStore uncached = RedisCanonicalInvocationStoreFactory.create(config,
                RedisStoreOptions.custom().keyPrefix(PREFIX).build())) {
            CanonicalRecord.Projecting record = projecting(key(openedRun(uncached), "call-1"), "{}");
            AttemptToken token = AttemptToken.random();
            redis.callOnEveryNode("SCRIPT", "FLUSH");
            resetStats();

            assertThat(uncached.begin(start(record, token), TIMEOUT)).isEqualTo(Either.right(record));
            assertThat(uncached.complete(token, ready(record, "raw", "result"), TIMEOUT).isRight()).isTrue();

            // begin: EVALSHA refused with NOSCRIPT, EVAL; complete: its pipeline (SET, EVALSHA refused with
            // NOSCRIPT), then apart: the SET alone, and EVAL
            assertThat(commandCalls()).containsEntry("evalsha", 2L).containsEntry("eval", 2L).containsEntry("set", 4L)
                    .doesNotContainKeys("script", "multi");
            assertThat(uncached.find(record.key(), TIMEOUT).get().get().status()).isEqualTo(InvocationStatus.READY);
        }
    }

    @Test
    void runsScriptsBySha1EvenOnAClientWithItsScriptCacheOff() {
        Config config = RedisTestServers.config(redis).setUseScriptCache(false);
        try (RedisCanonicalInvocationStore uncached = RedisCanonicalInvocationStoreFactory.create(config,
                RedisStoreOptions.custom().keyPrefix(PREFIX).build())) {
            CanonicalRecord.Projecting record = projecting(key(openedRun(uncached), "call-1"), "{}");
            AttemptToken token = AttemptToken.random();
            resetStats();

            assertThat(uncached.begin(start(record, token), TIMEOUT)).isEqualTo(Either.right(record));
            assertThat(uncached.complete(token, ready(record, "raw", "result"), TIMEOUT).isRight()).isTrue();

            assertThat(commandCalls()).containsEntry("evalsha", 2L).doesNotContainKeys("eval", "script");
        }
    }

    @Test
    void abandoningSendsOneScriptAndNoTtlCommand() {
        CanonicalRecord.Projecting running = projecting(key(openedRun(store), "call-0"), "{}");
        store.begin(start(running, AttemptToken.random()), TIMEOUT);
        CanonicalRecord.Projecting record = projecting(key(openedRun(store), "call-1"), "{}");
        store.begin(start(record, AttemptToken.random()), TIMEOUT);
        new RecordLife(redis, store).passLease(record.key());
        String recordKey = store.recordKey(record.key());
        long before = pttl(recordKey);
        resetStats();

        Instant now = record.createdAt();
        assertThat(store.abandon(running.key(), now, TIMEOUT).mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.LEASE_NOT_EXPIRED);
        assertThat(store.abandon(record.key(), now, TIMEOUT).get().code()).isEqualTo(ErrorCode.EXECUTION_ABANDONED);
        assertThat(store.abandon(record.key(), now, TIMEOUT).get().code()).isEqualTo(ErrorCode.EXECUTION_ABANDONED);
        InvocationKey missing = key(newRun(), "missing");
        assertThat(store.abandon(missing, now, TIMEOUT).mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.RECORD_EXPIRED);

        Map<String, Long> calls = commandCalls();
        // each abandonment reads the record first (find.lua); the two PROJECTING ones then run abandon.lua
        assertThat(calls.getOrDefault("evalsha", 0L) + calls.getOrDefault("eval", 0L)).isEqualTo(6);
        Set<String> others = new TreeSet<>(calls.keySet());
        others.removeAll(OUTER_COMMANDS);
        assertThat(others).isSubsetOf(SCRIPT_INNER_COMMANDS).doesNotContainAnyElementsOf(NEVER_SENT)
                .doesNotContain("pexpire");
        // a GET per read and per abandon.lua, PTTL (the server's clock) for the two PROJECTING records; the
        // ERROR record written once, with SET ... XX KEEPTTL, and the attempt's pending key deleted
        assertThat(innerCommands(calls)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "get", 6L, "pttl", 2L, "set", 1L, "del", 1L));
        assertThat(pttl(recordKey)).isPositive().isLessThanOrEqualTo(before);
        assertThat(redis.callLong("EXISTS", store.recordKey(missing))).isZero();
    }



    @Test
    @DisplayName("With export on, a record made final costs one command more: XADD (and GET with records)")
    void withExportOnEachRecordMadeFinalCostsOneCommandMoreWithKeysAndTwoWithRecordsAtItsCompletion() {
        Map<String, Map<String, Long>> off = finalRecordCommands(store);
        assertThat(off.get("complete")).as("export off: what every completion costs, unchanged")
                .containsExactlyInAnyOrderEntriesOf(Map.of("evalsha", 1L, "set", 1L, "strlen", 1L, "rename", 1L));
        assertThat(off.values()).allSatisfy(commands -> assertThat(commands).doesNotContainKey("xadd"));
        for (RedisStoreOptions.Outbox mode : List.of(RedisStoreOptions.Outbox.KEYS, RedisStoreOptions.Outbox.RECORDS)) {
            try (RedisCanonicalInvocationStore exporting = RedisCanonicalInvocationStoreFactory.create(
                    RedisTestServers.standaloneClient(),
                    RedisStoreOptions.custom().keyPrefix(PREFIX + "x" + mode.name().toLowerCase(java.util.Locale.ROOT))
                            .outbox(mode).build())) {
                Map<String, Map<String, Long>> on = finalRecordCommands(exporting);

                Map<String, Long> completion = new HashMap<>(off.get("complete"));
                completion.put("xadd", 1L);
                if (mode == RedisStoreOptions.Outbox.RECORDS) {
                    completion.merge("get", 1L, Long::sum);
                }
                assertThat(on.get("begin")).as("%s: a begin", mode).isEqualTo(off.get("begin"));
                assertThat(on.get("complete")).as("%s: a completion", mode).containsExactlyInAnyOrderEntriesOf(completion);
                for (String step : List.of("end", "abandon")) {
                    Map<String, Long> ended = new HashMap<>(off.get(step));
                    ended.put("xadd", 1L);
                    assertThat(on.get(step)).as("%s: %s", mode, step).containsExactlyInAnyOrderEntriesOf(ended);
                }
                assertThat(on.get("refused")).as("%s: a refused and a repeated completion", mode)
                        .isEqualTo(off.get("refused"));
                assertThat(redis.callLong("XLEN", exporting.keys().outbox())).isEqualTo(3 * 2);
            }
        }
    }

    /**
     * The commands inside the scripts of each step that makes a record final, and of a begin, and of a
     * refused plus a repeated completion, each counted alone, twice over (so every script is warm), the last time
     * counting.
     */
    private Map<String, Map<String, Long>> finalRecordCommands(RedisCanonicalInvocationStore measured) {
        Map<String, Map<String, Long>> steps = new HashMap<>();
        for (int round = 0; round < 2; round++) {
            RunId run = openedRun(measured);
            CanonicalRecord.Projecting completed = projecting(key(run, "completed"), "{}");
            AttemptToken token = AttemptToken.random();
            resetStats();
            assertThat(measured.begin(start(completed, token), TIMEOUT).isRight()).isTrue();
            steps.put("begin", scriptsAndInnerCommands());
            CanonicalRecord.Ready done = ready(completed, "raw", "result");
            resetStats();
            assertThat(measured.complete(token, done, TIMEOUT).isRight()).isTrue();
            steps.put("complete", scriptsAndInnerCommands());
            resetStats();
            assertThat(measured.complete(AttemptToken.random(), done, TIMEOUT).isLeft()).isTrue();
            assertThat(measured.complete(token, done, TIMEOUT).isRight()).isTrue();
            steps.put("refused", scriptsAndInnerCommands());

            CanonicalRecord.Projecting ended = projecting(key(run, "ended"), "{}");
            AttemptToken endedToken = AttemptToken.random();
            measured.begin(start(ended, endedToken), TIMEOUT);
            resetStats();
            assertThat(measured.end(ended.key(), endedToken, ErrorCode.STORE_OUTCOME_UNKNOWN, Records.UPDATED, TIMEOUT)
                    .isRight()).isTrue();
            steps.put("end", scriptsAndInnerCommands());

            CanonicalRecord.Projecting abandoned = projecting(key(run, "abandoned"), "{}");
            measured.begin(start(abandoned, AttemptToken.random()), TIMEOUT);
            new RecordLife(redis, measured).passLease(abandoned.key());
            resetStats();
            assertThat(measured.abandon(abandoned.key(), Records.UPDATED, TIMEOUT).isRight()).isTrue();
            steps.put("abandon", scriptsAndInnerCommands());
        }
        return steps;
    }

    /** The scripts sent ({@code evalsha}, {@code eval}) and the commands they ran inside, with their counts. */
    private Map<String, Long> scriptsAndInnerCommands() {
        Map<String, Long> calls = commandCalls();
        Map<String, Long> counted = new HashMap<>(innerCommands(calls));
        for (String script : List.of("evalsha", "eval")) {
            if (calls.containsKey(script)) {
                counted.put(script, calls.get(script));
            }
        }
        return counted;
    }

    /** The commands the scripts ran inside, checked to be among the known ones, with their counts. */
    private static Map<String, Long> innerCommands(Map<String, Long> calls) {
        Map<String, Long> inner = new HashMap<>(calls);
        inner.keySet().removeAll(OUTER_COMMANDS);
        assertThat(inner.keySet()).isSubsetOf(SCRIPT_INNER_COMMANDS).doesNotContainAnyElementsOf(NEVER_SENT);
        return inner;
    }

    private void resetStats() {
        redis.callOnEveryNode("CONFIG", "RESETSTAT");
    }

    private long pttl(String key) {
        return redis.callLong("PTTL", key);
    }

    /** {@code cmdstat_<name>:calls=N,...} per command, subcommands folded into their command, summed over nodes. */
    private Map<String, Long> commandCalls() {
        Map<String, Long> calls = new HashMap<>();
        for (Object reply : redis.callOnEveryNode("INFO", "commandstats")) {
            for (String line : ((String) reply).split("\r\n")) {
                if (!line.startsWith("cmdstat_")) {
                    continue;
                }
                String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                String command = name.contains("|") ? name.substring(0, name.indexOf('|')) : name;
                String count = line.substring(line.indexOf("calls=") + 6, line.indexOf(',', line.indexOf("calls=")));
                calls.merge(command, Long.parseLong(count), Long::sum);
            }
        }
        return calls;
    }

    @SuppressWarnings("unchecked")
    private List<String> keysMatching(String pattern) {
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            List<Object> page = (List<Object>) redis.call("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = (String) page.get(0);
            ((List<Object>) page.get(1)).forEach(key -> keys.add((String) key));
        } while (!"0".equals(cursor));
        return keys;
    }
}
