package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.RUN_TOKEN;
import static io.toolboundary.adapter.redis.Records.RUN_TTL;
import static io.toolboundary.adapter.redis.Records.TTL;
import static io.toolboundary.adapter.redis.Records.UPDATED;
import static io.toolboundary.adapter.redis.Records.failed;
import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.newRun;
import static io.toolboundary.adapter.redis.Records.open;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static io.toolboundary.adapter.redis.Records.start;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.Projector;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Redis store's semantics on a real server; run on a standalone server and on a 3-master cluster
 * by the subclasses. Each test opens runs of its own ({@link #openedRun()}) before it begins records in
 * them, as the store requires.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RedisStoreBehaviourTest {

    private static final String FOUR_BYTE_TEXT = "\uD83D\uDE00 grinning, \uD834\uDD1E clef, \uD83C\uDDE9\uD83C\uDDEA flag, é ß 漢字";

    private RedisDeployment deployment;
    private RedisCanonicalInvocationStore store;
    private RecordLife life;

    /** The Redis the subclass tests on. */
    abstract RedisDeployment deployment();

    @BeforeAll
    void createStore() {
        deployment = deployment();
        store = RedisCanonicalInvocationStoreFactory.create(RedisTestServers.client(deployment),
                RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).build());
        life = new RecordLife(deployment, store);
    }

    @AfterAll
    void closeStore() {
        store.close();
    }

    @Test
    void roundTripsEveryValueByteForByte() {
        RunId run = openedRun();
        String request = "{\"q\":\"" + FOUR_BYTE_TEXT + "\",\"empty\":\"\"}";
        CanonicalRecord.Projecting withScope = projecting(key(run, "call-1"), request);
        CanonicalRecord.Projecting withEmptyRaw = projecting(key(run, "call-2"), "{}");
        CanonicalRecord.Projecting failedWithRaw = projecting(key(run, "call-3"), "{\"x\":\"\uD83D\uDE00\"}");
        CanonicalRecord.Projecting failedWithoutRaw = projecting(key(run, "call-4"), "{}");
        List<CanonicalRecord.Final> outcomes = List.of(
                ready(withScope, FOUR_BYTE_TEXT + "\r\n\u0000 raw", new AgentResult(FOUR_BYTE_TEXT,
                        EvidenceStatus.NO_EVIDENCE, Option.of("scope " + FOUR_BYTE_TEXT))),
                ready(withEmptyRaw, "", new AgentResult("", EvidenceStatus.EVIDENCE_FOUND, Option.of(""))),
                failed(failedWithRaw, ErrorCode.PROJECTION_FAILED, Option.of("")),
                failed(failedWithoutRaw, ErrorCode.EXECUTION_FAILED, Option.none()));

        for (CanonicalRecord.Final outcome : outcomes) {
            CanonicalRecord.Projecting begun = new CanonicalRecord.Projecting(outcome.key(), outcome.tool(),
                    outcome.arguments(), outcome.requestFingerprint(), outcome.createdAt());
            AttemptToken token = AttemptToken.random();
            assertThat(store.begin(start(begun, token), TIMEOUT)).isEqualTo(Either.right(begun));
            assertThat(store.find(begun.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(begun)));
            assertThat(store.complete(token, outcome, TIMEOUT)).isEqualTo(Either.right(outcome));
            assertThat(store.find(begun.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(outcome)));
            assertThat(deployment.callLong("EXISTS", store.keys().pending(begun.key(), token)))
                    .as("the pending key became the record").isZero();
        }
        assertThat(value(store.recordKey(withScope.key()))).contains(request);
        // an empty scope, content and raw response are there, with no bytes; a missing raw response is not
        assertThat(head(value(store.recordKey(withEmptyRaw.key())))).endsWith("0", "0", "0", "-", "-");
        assertThat(head(value(store.recordKey(failedWithoutRaw.key())))).endsWith("-", "-", "-", "-", "-");
        assertThat(head(value(store.recordKey(failedWithRaw.key())))).endsWith("-", "-", "0", "-", "-");
        assertThat(runKeys(run)).as("one key per record, and the run's state").hasSize(outcomes.size() + 1);
    }

    @Test
    void createsOneProjectingRecordWithTheTtlOfTheStart() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "call_1.a:b-c"), "{\"a\":1}");

        assertThat(store.begin(start(record, AttemptToken.random()), TIMEOUT)).isEqualTo(Either.right(record));

        String recordKey = store.recordKey(record.key());
        assertThat(recordKey).isEqualTo("tbtest:{" + record.key().runId().value() + "}:call:call_1.a:b-c");
        assertThat(life.remainingTtl(record.key()).get()).isPositive().isLessThanOrEqualTo(TTL);
        assertThat(StoredRecord.status(deployment.call("GET", recordKey)))
                .isEqualTo("PROJECTING");
        // One string, its head and its request; the ids live in the key alone.
        assertThat(deployment.call("TYPE", recordKey)).isEqualTo("string");
        assertThat(value(recordKey)).endsWith("\n" + RecordCodec.packedFingerprint(record.requestFingerprint())
                + record.arguments()).doesNotContain("call_1.a:b-c");
    }

    @Test
    void refusesADuplicateToolCallWithoutTouchingTheRecordOrTheBudget() {
        CanonicalRecord.Projecting first = projecting(key(openedRun(), "call-1"), "{\"a\":1}");
        store.begin(start(first, AttemptToken.random()), TIMEOUT);
        CanonicalRecord.Projecting again = new CanonicalRecord.Projecting(first.key(), first.tool(), "{ \"a\" : 1 }",
                first.requestFingerprint(), Records.UPDATED);

        assertThat(store.begin(start(again, AttemptToken.random()), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.DUPLICATE)));
        assertThat(store.find(first.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(first)));
        assertThat(runField(first.key().runId(), "calls")).isEqualTo("1");
    }

    @Test
    void refusesAReusedToolCallIdWithOtherArguments() {
        CanonicalRecord.Projecting first = projecting(key(openedRun(), "call-1"), "{\"a\":1}");
        store.begin(start(first, AttemptToken.random()), TIMEOUT);

        assertThat(store.begin(start(projecting(first.key(), "{\"a\":2}"), AttemptToken.random()), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.ID_REUSED)));
        assertThat(store.find(first.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(first)));
    }

    @Test
    void answersARetriedBeginWithTheStoredRecordAndReservesNothingMore() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "call-1"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);

        assertThat(store.begin(start(record, token), TIMEOUT)).isEqualTo(Either.right(record));
        assertThat(runField(record.key().runId(), "calls")).isEqualTo("1");
        assertThat(runField(record.key().runId(), RedisKeys.toolCounterField(record.tool()))).isEqualTo("1");
    }

    @Test
    void refusesABeginOnceTheRunBudgetIsUsedUp() {
        RunId run = openedRun();
        assertThat(store.begin(start(projecting(key(run, "c1"), "tool_a", "{}"), AttemptToken.random(), 2, 10), TIMEOUT).isRight()).isTrue();
        assertThat(store.begin(start(projecting(key(run, "c2"), "tool_b", "{}"), AttemptToken.random(), 2, 10), TIMEOUT).isRight()).isTrue();

        CanonicalRecord.Projecting third = projecting(key(run, "c3"), "tool_c", "{}");
        assertThat(store.begin(start(third, AttemptToken.random(), 2, 10), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.RUN_BUDGET_EXHAUSTED)));
        assertThat(store.find(third.key(), TIMEOUT)).isEqualTo(Either.right(Option.none()));
        assertThat(runField(run, "calls")).isEqualTo("2");
        assertThat(runField(run, RedisKeys.toolCounterField(third.tool()))).as("tool_c's counter, never created").isEqualTo("");
    }

    @Test
    void refusesABeginOnceTheToolBudgetIsUsedUp() {
        RunId run = openedRun();
        assertThat(store.begin(start(projecting(key(run, "c1"), "{}"), AttemptToken.random(), 10, 1), TIMEOUT).isRight()).isTrue();

        CanonicalRecord.Projecting second = projecting(key(run, "c2"), "{}");
        assertThat(store.begin(start(second, AttemptToken.random(), 10, 1), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.TOOL_BUDGET_EXHAUSTED)));
        assertThat(store.find(second.key(), TIMEOUT)).isEqualTo(Either.right(Option.none()));
        assertThat(runField(run, "calls")).isEqualTo("1");
        assertThat(runField(run, RedisKeys.toolCounterField(second.tool()))).isEqualTo("1");
        assertThat(store.begin(start(projecting(key(run, "c3"), "other_tool", "{}"), AttemptToken.random(), 10, 1), TIMEOUT)
                .isRight()).isTrue();
    }

    @Test
    void keepsTheRunsTokenAndCountersInOneHashWhoseTtlIsSetOnceWhenTheRunIsOpened() {
        RunId run = newRun();
        String runKey = store.runKey(run);
        assertThat(runKey).isEqualTo("tbtest:{" + run.value() + "}:run");

        open(store, run);

        assertThat(hash(runKey)).isEqualTo(Map.of("token", RUN_TOKEN.value(), "calls", "0"));
        long opened = pttl(runKey);
        assertThat(opened).isPositive().isLessThanOrEqualTo(RUN_TTL.toMillis());
        for (String[] call : new String[][] {{"c1", "tool_a"}, {"c2", "tool_b"}, {"c3", "tool_a"}}) {
            assertThat(store.begin(start(projecting(key(run, call[0]), call[1], "{}"), AttemptToken.random()), TIMEOUT).isRight())
                    .isTrue();
        }
        Map<String, String> ledger = Map.of(
                "c:c1", RecordCodec.packedFingerprint(projecting(key(run, "c1"), "tool_a", "{}").requestFingerprint()),
                "c:c2", RecordCodec.packedFingerprint(projecting(key(run, "c2"), "tool_b", "{}").requestFingerprint()),
                "c:c3", RecordCodec.packedFingerprint(projecting(key(run, "c3"), "tool_a", "{}").requestFingerprint()));
        Map<String, String> expected = new java.util.HashMap<>(ledger);
        expected.putAll(Map.of("token", RUN_TOKEN.value(), "calls", "3", "t:tool_a", "2", "t:tool_b", "1"));
        assertThat(hash(runKey)).isEqualTo(expected);
        assertThat(pttl(runKey)).as("no begin touches the run's TTL").isPositive().isLessThanOrEqualTo(opened);
        assertThat(pttl(store.recordKey(key(run, "c1")))).isPositive().isLessThanOrEqualTo(TTL.toMillis());

        // Opening the run again, even for longer and with another token, changes nothing.
        assertThat(store.openRun(new RunOpening(run, new RunToken("another-opening"), RUN_TTL.multipliedBy(2)), TIMEOUT))
                .isEqualTo(Either.right(RUN_TOKEN));
        assertThat(hash(runKey)).containsEntry("token", RUN_TOKEN.value()).containsEntry("calls", "3");
        assertThat(pttl(runKey)).isPositive().isLessThanOrEqualTo(opened);
        assertThat(deployment.callLong("EXISTS", "tbtest:{" + run.value() + "}:budget:run")).as("no counter key").isZero();
    }

    @Test
    void anOpeningOverARunKeyThatIsAHashWithoutATokenIsInvalidDataAndChangesNothing() {
        for (boolean withTtl : List.of(true, false)) {
            RunId run = newRun();
            String runKey = store.runKey(run);
            deployment.call("HSET", runKey, "calls", "2", "t:search_logs", "1");
            if (withTtl) {
                deployment.call("PEXPIRE", runKey, "60000");
            }
            try {
                Map<String, String> before = hash(runKey);
                long ttlBefore = pttl(runKey);
                String as = withTtl ? "a hash with a TTL" : "a hash without a TTL";

                assertThat(store.openRun(new RunOpening(run, RUN_TOKEN, RUN_TTL), TIMEOUT)).as(as)
                        .isEqualTo(Either.left(StoreFailure.dataInvalid()));

                assertThat(hash(runKey)).as(as).isEqualTo(before);
                if (withTtl) {
                    assertThat(pttl(runKey)).as(as).isPositive().isLessThanOrEqualTo(ttlBefore);
                } else {
                    assertThat(pttl(runKey)).as(as + ": the refused opening set no TTL").isEqualTo(-1L);
                }
                // Nothing runs in a run whose state holds no token.
                CanonicalRecord.Projecting record = projecting(key(run, "c1"), "{}");
                assertThat(store.begin(start(record, AttemptToken.random()), TIMEOUT)).as(as)
                        .isEqualTo(Either.left(StoreFailure.refused(Refusal.RUN_STATE_LOST)));
                assertThat(deployment.callLong("EXISTS", store.recordKey(record.key()))).as(as).isZero();
                assertThat(hash(runKey)).as(as).isEqualTo(before);
            } finally {
                deployment.call("DEL", runKey);
            }
        }
    }

    @Test
    void aRunKeyOfAnotherTypeFailsOpeningAndBeginClosedAtOnceAndCreatesNothing() {
        Duration patience = Duration.ofSeconds(10);
        for (String type : List.of("string", "list")) {
            RunId run = newRun();
            String runKey = store.runKey(run);
            if (type.equals("string")) {
                deployment.call("SET", runKey, "not a hash", "PX", "60000");
            } else {
                deployment.call("RPUSH", runKey, "not", "a", "hash");
                deployment.call("PEXPIRE", runKey, "60000");
            }
            CanonicalRecord.Projecting record = projecting(key(run, "c1"), "{}");

            long started = System.nanoTime();
            Either<StoreFailure, RunToken> opened = store.openRun(new RunOpening(run, RUN_TOKEN, RUN_TTL), patience);
            Either<StoreFailure, CanonicalRecord.Projecting> begun = store.begin(start(record, AttemptToken.random()),
                    patience);
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            // WRONGTYPE is a definite failure: one try each, no retries until the timeout, no write.
            assertThat(opened).as(type).isEqualTo(Either.left(StoreFailure.dataInvalid()));
            assertThat(begun).as(type).isEqualTo(Either.left(StoreFailure.dataInvalid()));
            assertThat(took).as(type + ": both calls, against a patience of " + patience).isLessThan(Duration.ofSeconds(2));
            assertThat(deployment.call("TYPE", runKey)).as(type).isEqualTo(type);
            assertThat(pttl(runKey)).as(type).isPositive().isLessThanOrEqualTo(60_000L);
            assertThat(deployment.callLong("EXISTS", store.recordKey(record.key()))).as(type).isZero();
        }
    }

    @Test
    void refusesARecordOverTheRecordLimitAndCreatesNothing() {
        RedisCanonicalInvocationStore small = RedisCanonicalInvocationStoreFactory.create(
                RedisTestServers.client(deployment),
                RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).recordCapBytes(200).build());
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{\"q\":\"" + "\uD83D\uDE00".repeat(40) + "\"}");

        assertThat(small.begin(start(record, AttemptToken.random()), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.TOO_LARGE)));
        assertThat(small.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.none()));
        assertThat(runField(record.key().runId(), "calls")).isEqualTo("0");
    }

    @Test
    void completesToReadyAndKeepsTheRemainingTtl() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        String recordKey = store.recordKey(record.key());
        long before = pttl(recordKey);

        CanonicalRecord.Ready done = ready(record, "raw", "result");
        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));

        assertThat(pttl(recordKey)).isPositive().isLessThanOrEqualTo(before);
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(done)));
    }

    @Test
    void answersARepeatedCompletionWithTheStoredRecord() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        CanonicalRecord.Failed done = failed(record, ErrorCode.EXECUTION_FAILED, Option.none());
        store.complete(token, done, TIMEOUT);

        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));
    }

    @Test
    void keepsWhyARecordFailedInOneFieldByteForByteAndOnlyWhenItSays() {
        RunId run = openedRun();
        List<List<String>> reasons = List.of(
                List.of("java.net.SocketTimeoutException", "Read timed out | after 30000 ms " + FOUR_BYTE_TEXT),
                List.of("a|b " + FOUR_BYTE_TEXT + "|", "|"),
                List.of("java.lang.NullPointerException", ""),
                List.of("", "12|x|y"));
        int n = 0;
        for (List<String> reason : reasons) {
            CanonicalRecord.Projecting record = projecting(key(run, "why-" + n++), "{}");
            AttemptToken token = AttemptToken.random();
            store.begin(start(record, token), TIMEOUT);
            CanonicalRecord.Failed plain = failed(record, ErrorCode.EXECUTION_FAILED, Option.of("partial"));
            CanonicalRecord.Failed done = plain.because(reason.get(0), reason.get(1));

            assertThat(store.complete(token, done, TIMEOUT)).as(reason.toString()).isEqualTo(Either.right(done));
            assertThat(store.complete(token, done, TIMEOUT)).as("a retry").isEqualTo(Either.right(done));
            assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(done)));
            assertThat(store.end(record.key(), token, ErrorCode.STORE_OUTCOME_UNKNOWN, Instant.now(), TIMEOUT))
                    .as("the attempt's end finds it final").isEqualTo(Either.right(done));
            assertThat(value(store.recordKey(record.key()))).endsWith("partial" + reason.get(0) + reason.get(1));
            assertThat(head(value(store.recordKey(record.key())))).endsWith(
                    Long.toString(Projector.utf8Length(reason.get(0))), Long.toString(Projector.utf8Length(reason.get(1))));
            // The same status with another reason, or none, is another outcome.
            assertThat(store.complete(token, plain.because(reason.get(0), reason.get(1) + "."), TIMEOUT))
                    .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
            assertThat(store.complete(token, plain, TIMEOUT))
                    .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        }

        CanonicalRecord.Projecting withoutReason = projecting(key(run, "no-reason"), "{}");
        CanonicalRecord.Projecting readyOne = projecting(key(run, "ready"), "{}");
        for (CanonicalRecord.Final done : List.of(failed(withoutReason, ErrorCode.EXECUTION_FAILED, Option.none()),
                ready(readyOne, "raw", "result"))) {
            AttemptToken token = AttemptToken.random();
            store.begin(start(done.begun(), token), TIMEOUT);
            assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));
            assertThat(head(value(store.recordKey(done.key())))).endsWith("-", "-");
        }
        // A reason beside a READY record is not one this store writes.
        String readyValue = value(store.recordKey(readyOne.key()));
        deployment.call("SET", store.recordKey(readyOne.key()), withHead(withHead(readyValue, 13, "1"), 14, "1") + "ab",
                "XX", "KEEPTTL");
        assertThat(store.find(readyOne.key(), TIMEOUT)).isEqualTo(Either.left(StoreFailure.dataInvalid()));
    }

    @Test
    void countsWhyARecordFailedInTheRecordCapAsTheRecordCountsIt() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{}");
        CanonicalRecord.Failed plain = failed(record, ErrorCode.EXECUTION_FAILED, Option.none());
        String type = "java.io.IOException";
        CanonicalRecord.Failed fits = plain.because(type, "\uD83D\uDE00".repeat(10));
        RedisCanonicalInvocationStore capped = RedisCanonicalInvocationStoreFactory.create(
                RedisTestServers.client(deployment), RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX)
                        .recordCapBytes(fits.byteSize()).build());
        AttemptToken token = AttemptToken.random();
        capped.begin(start(record, token), TIMEOUT);

        assertThat(capped.complete(token, plain.because(type, "\uD83D\uDE00".repeat(10) + "x"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.TOO_LARGE)));
        assertThat(capped.complete(token, fits, TIMEOUT)).isEqualTo(Either.right(fits));
    }

    @Test
    void refusesACompletionWithAnotherAttemptsToken() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{}");
        store.begin(start(record, AttemptToken.random()), TIMEOUT);

        assertThat(store.complete(AttemptToken.random(), ready(record, "raw", "result"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(record)));
    }

    @Test
    void refusesToChangeAFinalRecord() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        CanonicalRecord.Ready done = ready(record, "raw", "result");
        store.complete(token, done, TIMEOUT);

        assertThat(store.complete(token, failed(record, ErrorCode.PROJECTION_FAILED, Option.none()), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        assertThat(store.complete(token, ready(record, "other raw", "result"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(done)));
    }

    @Test
    void aCompletionKeepsWhatBeginWroteAndTheRecordsExpiry() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{\"q\":\"" + FOUR_BYTE_TEXT + "\"}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        String recordKey = store.recordKey(record.key());
        String[] before = head(value(recordKey));
        long expiry = deployment.callLong("PEXPIRETIME", recordKey);
        long pendingExpiry = deployment.callLong("PEXPIRETIME", store.keys().pending(record.key(), token));

        CanonicalRecord.Ready done = ready(record, "raw", "result");
        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));

        String[] after = head(value(recordKey));
        for (int i : new int[] {0, 2, 4, 7, 8, 9}) {
            assertThat(after[i]).as("head value %s", i).isEqualTo(before[i]);
        }
        // the final record has the pending key's expiry, set in the same script a moment before the record's
        assertThat(deployment.callLong("PEXPIRETIME", recordKey)).isEqualTo(pendingExpiry)
                .isBetween(expiry - 5, expiry);
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(done)));
    }

    @Test
    void reportsAnExpiredRecordAndNeverRecreatesIt() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        String recordKey = store.recordKey(record.key());
        life.expire(record.key());

        assertThat(store.complete(token, ready(record, "raw", "result"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.EXPIRED)));
        assertThat(deployment.callLong("EXISTS", recordKey)).isZero();
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.none()));
    }

    @Test
    void reportsAValueItDidNotWriteAsInvalidData() {
        RunId run = openedRun();
        CanonicalRecord.Projecting record = projecting(key(run, "c1"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        String projecting = value(store.recordKey(record.key()));
        CanonicalRecord.Projecting other = projecting(key(run, "c2"), "{}");
        AttemptToken otherToken = AttemptToken.random();
        store.begin(start(other, otherToken), TIMEOUT);
        store.complete(otherToken, failed(other, ErrorCode.EXECUTION_FAILED, Option.of("raw")).because("T", "m"),
                TIMEOUT);
        String failedValue = value(store.recordKey(other.key()));
        String body = projecting.substring(projecting.indexOf('\n'));
        List<String> corruptions = List.of(
                "",
                "not a record",
                projecting.substring(0, projecting.indexOf('\n')),
                withHead(projecting, 0, "4"),
                withHead(projecting, 0, "6"),
                withHead(projecting, 1, "X"),
                withHead(projecting, 2, "not a token!"),
                withHead(projecting, 3, ""),
                withHead(projecting, 3, "-5"),
                withHead(projecting, 4, "yesterday"),
                withHead(projecting, 4, "1.5"),
                withHead(projecting, 5, "12"),
                withHead(projecting, 6, "F"),
                withHead(projecting, 7, "not a tool"),
                withHead(projecting, 8, "1"),
                withHead(projecting, 9, "99"),
                withHead(projecting, 9, "01"),
                withHead(projecting, 10, "0"),
                withHead(projecting, 12, "0"),
                projecting + "x",
                projecting.substring(0, projecting.length() - 1),
                String.join("|", java.util.Arrays.copyOf(head(projecting), 14)) + body,
                String.join("|", head(projecting)) + "|" + body,
                // a fingerprint that does not unpack
                projecting.replace("\nt", "\nx"),
                // ERROR without its reason's message, with an unknown code, READY without a raw response
                withHead(failedValue, 14, "-"),
                withHead(failedValue, 6, "NO_SUCH_CODE"),
                withHead(withHead(failedValue, 1, "R"), 6, "F"),
                withHead(failedValue, 1, "P"));
        int n = 0;
        for (String corruption : corruptions) {
            InvocationKey corruptKey = key(run, "corrupt-" + n++);
            plant(store.recordKey(corruptKey), corruption);

            assertThat(store.find(corruptKey, TIMEOUT)).as(corruption)
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
        }
        InvocationKey multiByte = key(run, "multi-byte");
        plant(store.recordKey(multiByte), withHead(withHead(failedValue, 13, "1"), 14, "1") .replace("Tm", "\u00e9"));
        assertThat(store.find(multiByte, TIMEOUT)).isEqualTo(Either.left(StoreFailure.dataInvalid()));
        InvocationKey hashKey = key(run, "a-hash");
        deployment.call("HSET", store.recordKey(hashKey), "status", "READY");
        deployment.call("PEXPIRE", store.recordKey(hashKey), "60000");
        assertThat(store.find(hashKey, TIMEOUT)).isEqualTo(Either.left(StoreFailure.dataInvalid()));
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(record)));
    }

    @Test
    void aRecordTheEarlierLayoutWroteIsRefusedAsInvalidDataNeverMisreadAndLeftAsItWas() {
        // schema 4: a hash of a packed head, the arguments, a packed outcome and the content, its raw
        // response in a key of its own
        RunId run = openedRun();
        CanonicalRecord.Projecting record = projecting(key(run, "schema-4"), "{}");
        AttemptToken token = AttemptToken.random();
        String recordKey = store.recordKey(record.key());
        deployment.call("HSET", recordKey, "h", "4|" + token.value() + "|1900000000:000000000|" + Records.CREATED + "|"
                + Records.TOOL + "|" + record.requestFingerprint(), "a", "{}", "o", "READY|" + UPDATED + "|EVIDENCE_FOUND|1|-",
                "c", "result");
        deployment.call("PEXPIRE", recordKey, "60000");
        Object before = deployment.call("HGETALL", recordKey);

        StoreFailure invalid = StoreFailure.dataInvalid();
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.left(invalid));
        assertThat(store.complete(token, ready(record, "raw", "result"), TIMEOUT)).isEqualTo(Either.left(invalid));
        assertThat(store.end(record.key(), token, ErrorCode.STORE_OUTCOME_UNKNOWN, UPDATED, TIMEOUT))
                .isEqualTo(Either.left(invalid));
        assertThat(store.abandon(record.key(), UPDATED, TIMEOUT)).isEqualTo(Either.left(invalid));
        assertThat(deployment.call("HGETALL", recordKey)).as("left as it was").isEqualTo(before);
        assertThat(deployment.callLong("PTTL", recordKey)).isPositive().isLessThanOrEqualTo(60_000L);
    }

    @Test
    void aBeginOverAKeyThatIsNotARecordOfThisStoreIsInvalidDataAndWritesNothing() {
        RunId run = openedRun();
        int n = 0;
        for (boolean asHash : new boolean[] {true, false}) {
            CanonicalRecord.Projecting record = projecting(key(run, "foreign-" + n++), "{}");
            String recordKey = store.recordKey(record.key());
            if (asHash) {
                deployment.call("HSET", recordKey, "status", "READY");
                deployment.call("PEXPIRE", recordKey, "60000");
            } else {
                plant(recordKey, "not a record");
            }
            Object before = asHash ? deployment.call("HGETALL", recordKey) : value(recordKey);

            AttemptToken token = AttemptToken.random();
            assertThat(store.begin(start(record, token), TIMEOUT)).as("as hash: %s", asHash)
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
            assertThat(asHash ? deployment.call("HGETALL", recordKey) : value(recordKey)).as("as it was")
                    .isEqualTo(before);
            assertThat(deployment.callLong("EXISTS", store.keys().pending(record.key(), token)))
                    .as("no pending key").isZero();
        }
        assertThat(runField(run, "calls")).as("no budget reserved").isEqualTo("0");
    }

    @Test
    void aBeginThatArrivesAfterItsAttemptWasEndedCreatesNothing() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "late"), "{}");
        AttemptToken token = AttemptToken.random();

        // The boundary gave up on this begin and ended the attempt by token before the begin arrived.
        assertThat(store.end(record.key(), token, ErrorCode.STORE_OUTCOME_UNKNOWN, record.createdAt(),
                Duration.ofSeconds(5))).isEqualTo(Either.left(StoreFailure.refused(Refusal.EXPIRED)));
        String mark = RedisKeys.endMarkField(record.key().toolCallId());
        assertThat(runField(record.key().runId(), mark)).as("the end mark, in the run's state").isEqualTo(token.value());

        // The late begin creates nothing and reserves nothing; a second end leaves the mark's TTL alone.
        assertThat(store.begin(start(record, token), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        assertThat(deployment.callLong("EXISTS", store.recordKey(record.key()))).isZero();
        assertThat(runField(record.key().runId(), "calls")).as("no budget reserved").isEqualTo("0");
        store.end(record.key(), token, ErrorCode.STORE_OUTCOME_UNKNOWN, record.createdAt(), Duration.ofSeconds(5));
        assertThat(runField(record.key().runId(), mark)).isEqualTo(token.value());

        // Another attempt at the same call is not affected.
        assertThat(store.begin(start(record, AttemptToken.random()), TIMEOUT)).isEqualTo(Either.right(record));
    }

    @Test
    void storesTheLeaseAsTheRemainingTtlAtWhichItEnds() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{}");
        store.begin(start(record, AttemptToken.random()), TIMEOUT);

        // the lease ends when the record's remaining TTL, counted down by the server, is TTL - LEASE
        assertThat(head(value(store.recordKey(record.key())))[3])
                .isEqualTo(Long.toString(Records.TTL.minus(Records.LEASE).toMillis()));
        assertThat(head(value(store.recordKey(record.key())))[0]).isEqualTo(RecordCodec.SCHEMA_VERSION);
        assertThat(store.abandon(record.key(), UPDATED, TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.LEASE_NOT_EXPIRED)));
    }

    @Test
    void reportsAMalformedLeaseAsInvalidData() {
        RunId run = openedRun();
        CanonicalRecord.Projecting record = projecting(key(run, "c1"), "{}");
        store.begin(start(record, AttemptToken.random()), TIMEOUT);
        Instant late = record.createdAt().plus(Records.LEASE);
        String projecting = value(store.recordKey(record.key()));
        List<String> corruptions = List.of(withHead(projecting, 3, ""), withHead(projecting, 3, "soon"),
                withHead(projecting, 3, "12:34"), withHead(projecting, 3, " 12"), withHead(projecting, 3, "1e3"),
                withHead(projecting, 3, "1x2"));
        int n = 0;
        for (String corruption : corruptions) {
            InvocationKey corruptKey = key(run, "corrupt-" + n++);
            String target = store.recordKey(corruptKey);
            plant(target, corruption);

            assertThat(store.find(corruptKey, TIMEOUT)).as(corruption)
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
            assertThat(store.abandon(corruptKey, late, TIMEOUT)).as(corruption)
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
            assertThat(value(target)).as(corruption).isEqualTo(corruption);
        }
    }

    @Test
    void letsExactlyOneOf64RacingBeginsWinEachOf200Rounds() throws Exception {
        int threads = 64;
        int rounds = 200;
        RunId run = openedRun();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < rounds; round++) {
                CanonicalRecord.Projecting record = projecting(key(run, "race-" + round), "{}");
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Either<StoreFailure, CanonicalRecord.Projecting>>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    AttemptToken token = AttemptToken.random();
                    results.add(pool.submit(() -> {
                        go.await();
                        return store.begin(start(record, token, 100_000, 100_000), TIMEOUT);
                    }));
                }
                go.countDown();
                int wins = 0;
                for (Future<Either<StoreFailure, CanonicalRecord.Projecting>> result : results) {
                    Either<StoreFailure, CanonicalRecord.Projecting> outcome = result.get(30, TimeUnit.SECONDS);
                    if (outcome.isRight()) {
                        wins++;
                    } else {
                        assertThat(outcome.mapLeft(StoreFailure::code).getLeft()).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
                    }
                }
                assertThat(wins).as("winners of round %d", round).isEqualTo(1);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(runField(run, "calls")).isEqualTo(Integer.toString(rounds));
    }

    @Test
    void refusesABeginOverACounterThatIsNotANumberAndWritesNothing() {
        String toolCounter = RedisKeys.toolCounterField(new ToolName(Records.TOOL));
        List<Map<String, String>> corruptions = List.of(
                Map.of("calls", "not a number"),
                Map.of("calls", "not a number", toolCounter, "3"),
                Map.of("calls", ""),
                Map.of(toolCounter, "not a number"),
                Map.of("calls", "3", toolCounter, "12abc"),
                // Numbers to Lua, but not counters: no count of the store can be one.
                Map.of(toolCounter, "1.5"),
                Map.of("calls", " 1"),
                Map.of("calls", "1e3"),
                Map.of(toolCounter, "-1"));
        for (Map<String, String> corruption : corruptions) {
            RunId run = openedRun();
            CanonicalRecord.Projecting record = projecting(key(run, "c1"), "{}");
            String runKey = store.runKey(run);
            List<String> command = new ArrayList<>(List.of("HSET", runKey));
            corruption.forEach((field, value) -> {
                command.add(field);
                command.add(value);
            });
            deployment.call(command.toArray(String[]::new));
            Map<String, String> before = hash(runKey);
            String as = corruption.toString();

            for (int budget : List.of(1000, 0)) {
                assertThat(store.begin(start(record, AttemptToken.random(), budget, budget), TIMEOUT)).as(as)
                        .isEqualTo(Either.left(StoreFailure.dataInvalid()));
            }
            assertThat(deployment.callLong("EXISTS", store.recordKey(record.key()))).as(as).isZero();
            assertThat(hash(runKey)).as(as).isEqualTo(before);
        }
    }

    private long pttl(String key) {
        return deployment.callLong("PTTL", key);
    }

    /** The run's state opened by {@link Records#RUN_TOKEN}: a run of this test's own. */
    private RunId openedRun() {
        return Records.openedRun(store);
    }

    @Test
    void aRawResponseWhoseCompletionLostIsNeverReadAndLeftNowhere() {
        RunId run = openedRun();
        Duration timeout = Duration.ofSeconds(5);

        // another attempt's completion, before and after the owner's: refused, its raw response kept nowhere
        CanonicalRecord.Projecting contested = projecting(key(run, "contested"), "{}");
        AttemptToken owner = AttemptToken.random();
        AttemptToken stale = AttemptToken.random();
        store.begin(start(contested, owner), TIMEOUT);
        assertThat(store.complete(stale, ready(contested, "stale raw", "r"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        CanonicalRecord.Ready won = ready(contested, "winning raw", "r");
        assertThat(store.complete(owner, won, TIMEOUT)).isEqualTo(Either.right(won));
        assertThat(store.complete(stale, ready(contested, "stale raw", "r"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        // the same attempt once more with another raw response: refused, the linked one unchanged
        assertThat(store.complete(owner, ready(contested, "second raw", "r"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        assertThat(store.find(contested.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(won)));

        // ended by token, then its completion arrives
        CanonicalRecord.Projecting ended = projecting(key(run, "ended"), "{}");
        AttemptToken endedToken = AttemptToken.random();
        store.begin(start(ended, endedToken), TIMEOUT);
        assertThat(store.end(ended.key(), endedToken, ErrorCode.STORE_OUTCOME_UNKNOWN, UPDATED, timeout).isRight())
                .isTrue();
        assertThat(store.complete(endedToken, ready(ended, "late raw", "r"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        assertThat(store.find(ended.key(), TIMEOUT).get().get().rawResponse()).isEqualTo(Option.none());

        // abandoned past its lease, then its completion arrives (an ERROR with a raw response)
        CanonicalRecord.Projecting abandoned = projecting(key(run, "abandoned"), "{}");
        AttemptToken abandonedToken = AttemptToken.random();
        store.begin(start(abandoned, abandonedToken), TIMEOUT);
        life.passLease(abandoned.key());
        assertThat(store.abandon(abandoned.key(), UPDATED, TIMEOUT).isRight()).isTrue();
        assertThat(store.complete(abandonedToken,
                failed(abandoned, ErrorCode.PROJECTION_FAILED, Option.of("late raw")), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        assertThat(store.find(abandoned.key(), TIMEOUT).get().get().rawResponse()).isEqualTo(Option.none());

        // the record expired before its completion: nothing is re-created, the attempt's key is gone too
        CanonicalRecord.Projecting expired = projecting(key(run, "expired"), "{}");
        AttemptToken expiredToken = AttemptToken.random();
        store.begin(start(expired, expiredToken), TIMEOUT);
        life.expire(expired.key());
        assertThat(store.complete(expiredToken, ready(expired, "late raw", "r"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.EXPIRED)));


        // no attempt's key is left, and no refused raw response is stored anywhere
        List<String> keys = runKeys(run);
        assertThat(keys).noneMatch(key -> key.contains(":pending:"));
        for (String key : keys) {
            if ("string".equals(deployment.call("TYPE", key))) {
                assertThat(value(key)).as(key).doesNotContain("stale raw", "second raw", "late raw");
            }
            assertThat(deployment.callLong("PTTL", key)).as("PTTL of %s", key).isPositive();
        }
    }

    @Test
    void aPendingKeyGoneBeforeItsCompletionIsDataLossNeverARecordWithoutItsRawResponse() {
        // as an eviction under a volatile-* policy would: the attempt's pending key alone is gone
        CanonicalRecord.Projecting pending = projecting(key(openedRun(), "pending-evicted"), "{}");
        AttemptToken pendingToken = AttemptToken.random();
        store.begin(start(pending, pendingToken), TIMEOUT);
        deployment.call("DEL", store.keys().pending(pending.key(), pendingToken));
        assertThat(store.complete(pendingToken, ready(pending, "raw", "result"), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.dataInvalid()));
        assertThat(store.find(pending.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(pending)));
        assertThat(deployment.callLong("EXISTS", store.keys().pending(pending.key(), pendingToken))).isZero();
    }

    @Test
    void aPendingKeyThatDoesNotHoldTheFinalRecordIsNeverRenamed() {
        // The final record's SET and complete.lua share a pipeline, not a transaction: the SET may be refused
        // (OOM, a redirection) while the script runs. Sent so, the script finds the empty pending key.
        RunId run = openedRun();
        CanonicalRecord.Projecting record = projecting(key(run, "set-refused"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        CanonicalRecord.Ready done = ready(record, "raw \uD83D\uDE00", "result");
        byte[] finalRecord = RecordCodec.completed(done, token);
        String pending = store.keys().pending(record.key(), token);
        ScriptArgs.Complete args = new ScriptArgs.Complete(store.recordKey(record.key()), pending, token.value(),
                finalRecord.length);
        List<String> eval = new ArrayList<>(List.of("EVAL", LuaScripts.COMPLETE.source(), "2"));
        args.keys().forEach(key -> eval.add((String) key));
        args.argv().forEach(value -> eval.add(String.valueOf(value)));

        assertThat(deployment.call(eval.toArray(String[]::new))).isEqualTo(List.of("NOT_WRITTEN"));
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(record)));
        assertThat(deployment.call("GET", pending)).isEqualTo("");

        // one byte short of the final record is not the final record either
        deployment.call("SET", pending, new String(finalRecord, 0, finalRecord.length - 1,
                java.nio.charset.StandardCharsets.UTF_8), "XX", "KEEPTTL");
        assertThat(deployment.call(eval.toArray(String[]::new))).isEqualTo(List.of("NOT_WRITTEN"));
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(record)));

        // the pending key stays for the attempt's next try, which renames the final record whole
        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(done)));
        assertThat(deployment.callLong("EXISTS", pending)).isZero();
    }

    /** Every key of the run, through the operator view's SCAN. */
    private List<String> runKeys(RunId run) {
        String start = store.keys().run(run) + ":";
        return RedisOperatorView.of(store, Duration.ofSeconds(5)).scan("0", 100_000).get().keys().stream()
                .filter(key -> key.startsWith(start)).toList();
    }

    /** The record under {@code key} as Redis holds it; null when there is none. */
    private String value(String key) {
        return (String) deployment.call("GET", key);
    }

    /** The fifteen values of a record's head. */
    private static String[] head(String value) {
        return value.substring(0, value.indexOf('\n')).split("\\|", -1);
    }

    /** {@code value} with its head's value at {@code index} replaced. */
    private static String withHead(String value, int index, String replacement) {
        String[] changed = head(value);
        changed[index] = replacement;
        return String.join("|", changed) + value.substring(value.indexOf('\n'));
    }

    /** Writes {@code value} under {@code key} for a minute. */
    private void plant(String key, String value) {
        deployment.call("SET", key, value, "PX", "60000");
    }

    /** A field of the run's state; empty when it is missing. */
    private String runField(RunId run, String field) {
        Object value = deployment.call("HGET", store.runKey(run), field);
        return value instanceof String text ? text : "";
    }

    /** A hash as Redis holds it; empty when the key is missing. */
    private Map<String, String> hash(String key) {
        List<?> flat = (List<?>) deployment.call("HGETALL", key);
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            fields.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
        }
        return fields;
    }
}
