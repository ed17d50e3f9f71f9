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
        }
        assertThat(deployment.call("HGET", store.recordKey(withScope.key()), RecordCodec.ARGUMENTS)).isEqualTo(request);
        assertThat((String) deployment.call("HGET", store.recordKey(withEmptyRaw.key()), RecordCodec.OUTCOME)).endsWith("|+");
        assertThat(deployment.call("EXISTS", store.keys().raw(failedWithoutRaw.key()))).isEqualTo(0L);
        assertThat(deployment.call("EXISTS", store.keys().raw(failedWithRaw.key()))).isEqualTo(1L);
        assertThat(deployment.call("GET", store.keys().raw(withEmptyRaw.key()))).isEqualTo("");
    }

    @Test
    void createsOneProjectingRecordWithTheTtlOfTheStart() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "call_1.a:b-c"), "{\"a\":1}");

        assertThat(store.begin(start(record, AttemptToken.random()), TIMEOUT)).isEqualTo(Either.right(record));

        String recordKey = store.recordKey(record.key());
        assertThat(recordKey).isEqualTo("tbtest:{" + record.key().runId().value() + "}:call:call_1.a:b-c");
        assertThat(life.remainingTtl(record.key()).get()).isPositive().isLessThanOrEqualTo(TTL);
        assertThat(StoredRecord.status(deployment.call("HMGET", recordKey, RecordCodec.HEAD, RecordCodec.OUTCOME)))
                .isEqualTo("PROJECTING");
        // Two fields: the packed head and the arguments; the ids live in the key alone.
        assertThat(hash(recordKey)).containsOnlyKeys(RecordCodec.HEAD, RecordCodec.ARGUMENTS);
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
        Map<String, String> ledger = Map.of("call:c1", projecting(key(run, "c1"), "tool_a", "{}").requestFingerprint(),
                "call:c2", projecting(key(run, "c2"), "tool_b", "{}").requestFingerprint(),
                "call:c3", projecting(key(run, "c3"), "tool_a", "{}").requestFingerprint());
        Map<String, String> expected = new java.util.HashMap<>(ledger);
        expected.putAll(Map.of("token", RUN_TOKEN.value(), "calls", "3", "tool:tool_a", "2", "tool:tool_b", "1"));
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
            deployment.call("HSET", runKey, "calls", "2", "tool:search_logs", "1");
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
            assertThat(deployment.call("HGET", store.recordKey(record.key()), RecordCodec.FAILURE))
                    .isEqualTo(Projector.utf8Length(reason.get(0)) + "|" + reason.get(0) + "|" + reason.get(1));
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
            assertThat(deployment.callLong("HEXISTS", store.recordKey(done.key()), RecordCodec.FAILURE)).isZero();
        }
        // A reason beside a READY record is not one this store writes.
        deployment.call("HSET", store.recordKey(readyOne.key()), RecordCodec.FAILURE, "1|a|b");
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
    void aCompletionWritesOnlyTheFinalFieldsAndLeavesWhatBeginWrote() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{\"q\":\"" + FOUR_BYTE_TEXT + "\"}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        String recordKey = store.recordKey(record.key());
        List<String> begun = List.of(RecordCodec.HEAD, RecordCodec.ARGUMENTS);
        List<Object> before = new ArrayList<>();
        for (String field : begun) {
            before.add(deployment.call("HGET", recordKey, field));
        }

        CanonicalRecord.Ready done = ready(record, "raw", "result");
        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));

        for (int i = 0; i < begun.size(); i++) {
            assertThat(deployment.call("HGET", recordKey, begun.get(i))).as(begun.get(i)).isEqualTo(before.get(i));
        }
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
    void reportsAHashItDidNotWriteAsInvalidData() {
        RunId run = openedRun();
        CanonicalRecord.Projecting record = projecting(key(run, "c1"), "{}");
        store.begin(start(record, AttemptToken.random()), TIMEOUT);
        String good = store.recordKey(record.key());

        String[] head = ((String) deployment.call("HGET", good, RecordCodec.HEAD)).split("\\|", 6);
        String at = record.createdAt().toString();
        List<List<String>> corruptions = List.of(
                List.of("HDEL", RecordCodec.HEAD),
                List.of("HDEL", RecordCodec.ARGUMENTS),
                List.of("HSET", RecordCodec.HEAD, headWith(head, 0, "3")),
                List.of("HSET", RecordCodec.HEAD, headWith(head, 0, "5")),
                List.of("HSET", RecordCodec.HEAD, headWith(head, 1, "not a token!")),
                List.of("HSET", RecordCodec.HEAD, headWith(head, 3, "yesterday")),
                List.of("HSET", RecordCodec.HEAD, headWith(head, 4, "")),
                List.of("HSET", RecordCodec.HEAD, String.join("|", head[0], head[1], head[2], head[3], head[4])),
                List.of("HSET", RecordCodec.OUTCOME, "DONE|" + at + "|EVIDENCE_FOUND|1|-"),
                // READY without its content and raw response; the raw response flagged but lost (evicted)
                List.of("HSET", RecordCodec.OUTCOME, "READY|" + at + "|EVIDENCE_FOUND|1|-"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|" + at + "|PROJECTION_FAILED|1|-"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|" + at + "|PROJECTION_FAILED|0"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|yesterday|PROJECTION_FAILED|0|-"),
                List.of("HSET", RecordCodec.RAW, "raw without an outcome"),
                // why it failed: beside a PROJECTING record, or not unpacking (the type's length must end it)
                List.of("HSET", RecordCodec.FAILURE, "1|a|b"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|" + at + "|EXECUTION_FAILED|0|-", RecordCodec.FAILURE, "a|b"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|" + at + "|EXECUTION_FAILED|0|-", RecordCodec.FAILURE, "|a|b"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|" + at + "|EXECUTION_FAILED|0|-", RecordCodec.FAILURE, "01|a|"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|" + at + "|EXECUTION_FAILED|0|-", RecordCodec.FAILURE, "2|a|b"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|" + at + "|EXECUTION_FAILED|0|-", RecordCodec.FAILURE, "2|ab"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|" + at + "|EXECUTION_FAILED|0|-", RecordCodec.FAILURE, "1|\u00e9|"),
                List.of("HSET", RecordCodec.OUTCOME, "ERROR|" + at + "|EXECUTION_FAILED|0|-", RecordCodec.FAILURE,
                        "9999999999|a|"),
                List.of("HSET", "unexpected", "field"),
                List.of("HSET", "status", "READY"),
                List.of("HSET", "toolCallId", "c1"));
        int n = 0;
        for (List<String> corruption : corruptions) {
            InvocationKey corruptKey = key(run, "corrupt-" + n++);
            String target = store.recordKey(corruptKey);
            copyHash(good, target, corruptKey);
            List<String> command = new ArrayList<>(List.of(corruption.get(0), target));
            command.addAll(corruption.subList(1, corruption.size()));
            deployment.call(command.toArray(String[]::new));

            assertThat(store.find(corruptKey, TIMEOUT)).as(corruption.toString())
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
        }
        InvocationKey stringKey = key(run, "a-string");
        deployment.call("SET", store.recordKey(stringKey), "not a hash", "PX", "60000");
        assertThat(store.find(stringKey, TIMEOUT)).isEqualTo(Either.left(StoreFailure.dataInvalid()));
    }

    @Test
    void aBeginOverAHashThatIsNotARecordOfThisStoreIsInvalidDataAndWritesNothing() {
        RunId run = openedRun();
        List<List<String>> foreign = List.of(
                List.of("status", "READY", "toolCallId", "c1"),
                List.of("x", "1"),
                List.of(RecordCodec.OUTCOME, "READY|2026-01-01T00:00:00Z|EVIDENCE_FOUND|0|-"),
                List.of(RecordCodec.HEAD, "not a head"),
                List.of(RecordCodec.HEAD, ""));
        int n = 0;
        for (List<String> fields : foreign) {
            CanonicalRecord.Projecting record = projecting(key(run, "foreign-" + n++), "{}");
            String recordKey = store.recordKey(record.key());
            List<String> command = new ArrayList<>(List.of("HSET", recordKey));
            command.addAll(fields);
            deployment.call(command.toArray(String[]::new));
            deployment.call("PEXPIRE", recordKey, "60000");
            List<?> before = (List<?>) deployment.call("HGETALL", recordKey);

            AttemptToken token = AttemptToken.random();
            assertThat(store.begin(start(record, token), TIMEOUT)).as(fields.toString())
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
            assertThat((List<?>) deployment.call("HGETALL", recordKey)).as("the hash as it was").isEqualTo(before);
            assertThat(deployment.callLong("EXISTS", store.keys().pendingRaw(record.key(), token)))
                    .as("no pending raw key").isZero();
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
        String mark = store.keys().endedAttempt(record.key().runId(), token);
        long markTtl = deployment.callLong("PTTL", mark);
        assertThat(markTtl).isPositive().isLessThanOrEqualTo(RedisCanonicalInvocationStore.ENDED_ATTEMPT_MARK_TTL.toMillis());

        // The late begin creates nothing and reserves nothing; a second end leaves the mark's TTL alone.
        assertThat(store.begin(start(record, token), TIMEOUT))
                .isEqualTo(Either.left(StoreFailure.refused(Refusal.CONFLICT)));
        assertThat(deployment.callLong("EXISTS", store.recordKey(record.key()))).isZero();
        assertThat(runField(record.key().runId(), "calls")).as("no budget reserved").isEqualTo("0");
        store.end(record.key(), token, ErrorCode.STORE_OUTCOME_UNKNOWN, record.createdAt(), Duration.ofSeconds(5));
        assertThat(deployment.callLong("PTTL", mark)).isPositive().isLessThanOrEqualTo(markTtl);

        // Another attempt at the same call is not affected.
        assertThat(store.begin(start(record, AttemptToken.random()), TIMEOUT)).isEqualTo(Either.right(record));
    }

    @Test
    void storesTheLeaseBesideTheRecordByTheServersClock() {
        CanonicalRecord.Projecting record = projecting(key(openedRun(), "c1"), "{}");
        Instant before = serverTime(store.recordKey(record.key()));
        store.begin(start(record, AttemptToken.random()), TIMEOUT);
        Instant after = serverTime(store.recordKey(record.key()));

        String stored = ((String) deployment.call("HGET", store.recordKey(record.key()), RecordCodec.HEAD)).split("\\|")[2];
        assertThat(stored).matches("[0-9]+:[0-9]{9}");
        String[] parts = stored.split(":");
        Instant lease = Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
        // The server's TIME at begin plus the lease, whatever the record's createdAt says.
        assertThat(lease).isBetween(before.plus(Records.LEASE), after.plus(Records.LEASE));
        assertThat((String) deployment.call("HGET", store.recordKey(record.key()), RecordCodec.HEAD)).startsWith("4|");
    }

    /** The TIME of the server that holds {@code key}. */
    private Instant serverTime(String key) {
        Object reply = deployment.call("EVAL", "return redis.call('TIME')", "1", key);
        List<?> time = (List<?>) reply;
        return Instant.ofEpochSecond(Long.parseLong(String.valueOf(time.get(0))),
                Long.parseLong(String.valueOf(time.get(1))) * 1_000);
    }

    @Test
    void reportsAMissingOrMalformedLeaseAsInvalidData() {
        RunId run = openedRun();
        CanonicalRecord.Projecting record = projecting(key(run, "c1"), "{}");
        store.begin(start(record, AttemptToken.random()), TIMEOUT);
        Instant late = record.createdAt().plus(Records.LEASE);
        String[] head = ((String) deployment.call("HGET", store.recordKey(record.key()), RecordCodec.HEAD)).split("\\|", 6);
        List<List<String>> corruptions = List.of(
                List.of("HSET", RecordCodec.HEAD, headWith(head, 2, "")),
                List.of("HSET", RecordCodec.HEAD, headWith(head, 2, "soon")),
                List.of("HSET", RecordCodec.HEAD, headWith(head, 2, "12:34")),
                List.of("HSET", RecordCodec.HEAD, headWith(head, 2, "12:000000034 ")));
        int n = 0;
        for (List<String> corruption : corruptions) {
            InvocationKey corruptKey = key(run, "corrupt-" + n++);
            String target = store.recordKey(corruptKey);
            copyHash(store.recordKey(record.key()), target, corruptKey);
            List<String> command = new ArrayList<>(List.of(corruption.get(0), target));
            command.addAll(corruption.subList(1, corruption.size()));
            deployment.call(command.toArray(String[]::new));

            assertThat(store.find(corruptKey, TIMEOUT)).as(corruption.toString())
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
            assertThat(store.abandon(corruptKey, late, TIMEOUT)).as(corruption.toString())
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
            assertThat(StoredRecord.status(deployment.call("HMGET", target, RecordCodec.HEAD, RecordCodec.OUTCOME)))
                    .as(corruption.toString()).isEqualTo("PROJECTING");
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

        // a raw key planted beside a record whose completion had none is not read: only the link is
        CanonicalRecord.Projecting unlinked = projecting(key(run, "unlinked"), "{}");
        AttemptToken unlinkedToken = AttemptToken.random();
        store.begin(start(unlinked, unlinkedToken), TIMEOUT);
        CanonicalRecord.Failed withoutRaw = failed(unlinked, ErrorCode.EXECUTION_FAILED, Option.none());
        store.complete(unlinkedToken, withoutRaw, TIMEOUT);
        deployment.call("SET", store.keys().raw(unlinked.key()), "planted raw", "PX", "60000");
        assertThat(store.find(unlinked.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(withoutRaw)));

        // no attempt's key is left, and no refused raw response is stored anywhere
        List<String> keys = runKeys(run);
        assertThat(keys).noneMatch(key -> key.contains(":pending:"));
        assertThat(keys).filteredOn(key -> key.contains(":raw:"))
                .containsExactlyInAnyOrder(store.keys().raw(contested.key()), store.keys().raw(unlinked.key()));
        for (String key : keys) {
            if ("string".equals(deployment.call("TYPE", key))) {
                assertThat(deployment.call("GET", key)).as(key).isIn("winning raw", "planted raw");
            }
            assertThat(deployment.callLong("PTTL", key)).as("PTTL of %s", key).isPositive();
        }
    }

    @Test
    void aReadyRecordWhoseRawResponseIsGoneIsDataLossNeverARecordWithoutOne() {
        RunId run = openedRun();
        CanonicalRecord.Projecting record = projecting(key(run, "evicted"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        CanonicalRecord.Ready done = ready(record, "raw", "result");
        store.complete(token, done, TIMEOUT);

        // as an eviction under a volatile-* policy would: the raw response alone is gone
        deployment.call("DEL", store.keys().raw(record.key()));

        StoreFailure invalid = StoreFailure.dataInvalid();
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.left(invalid));
        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.left(invalid));
        assertThat(store.end(record.key(), token, ErrorCode.STORE_OUTCOME_UNKNOWN, UPDATED, Duration.ofSeconds(5)))
                .isEqualTo(Either.left(invalid));

        // the attempt's pending key gone before its completion: the raw response was not kept, nothing is linked
        CanonicalRecord.Projecting pending = projecting(key(run, "pending-evicted"), "{}");
        AttemptToken pendingToken = AttemptToken.random();
        store.begin(start(pending, pendingToken), TIMEOUT);
        deployment.call("DEL", store.keys().pendingRaw(pending.key(), pendingToken));
        assertThat(store.complete(pendingToken, ready(pending, "raw", "result"), TIMEOUT))
                .isEqualTo(Either.left(invalid));
        assertThat(store.find(pending.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(pending)));
        assertThat(deployment.callLong("EXISTS", store.keys().raw(pending.key()),
                store.keys().pendingRaw(pending.key(), pendingToken))).isZero();
    }

    @Test
    void aPendingKeyThatDoesNotHoldTheRawResponseIsNeverLinked() {
        // The raw response's SET and complete.lua share a pipeline, not a transaction: the SET may be refused
        // (OOM, a redirection) while the script runs. Sent so, the script finds the empty placeholder.
        RunId run = openedRun();
        CanonicalRecord.Projecting record = projecting(key(run, "set-refused"), "{}");
        AttemptToken token = AttemptToken.random();
        store.begin(start(record, token), TIMEOUT);
        CanonicalRecord.Ready done = ready(record, "raw \uD83D\uDE00", "result");
        long rawBytes = Projector.utf8Length(done.raw());
        String pending = store.keys().pendingRaw(record.key(), token);
        ScriptArgs.Complete args = new ScriptArgs.Complete(store.recordKey(record.key()), pending,
                store.keys().raw(record.key()), token.value(), "READY", Option.none(), Option.some(rawBytes),
                RecordCodec.outcome(done), RecordCodec.detail(done));
        List<String> eval = new ArrayList<>(List.of("EVAL", LuaScripts.COMPLETE.source(), "3"));
        args.keys().forEach(key -> eval.add((String) key));
        args.argv().forEach(value -> eval.add(String.valueOf(value)));

        assertThat(rawBytes).isEqualTo(8);
        assertThat(deployment.call(eval.toArray(String[]::new))).isEqualTo(List.of("RAW_NOT_WRITTEN"));
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(record)));
        assertThat(deployment.call("GET", pending)).isEqualTo("");
        assertThat(deployment.callLong("EXISTS", store.keys().raw(record.key()))).isZero();

        // seven bytes where the raw response has eight are not the raw response either
        deployment.call("SET", pending, "1234567", "XX", "KEEPTTL");
        assertThat(deployment.call(eval.toArray(String[]::new))).isEqualTo(List.of("RAW_NOT_WRITTEN"));
        assertThat(store.find(record.key(), TIMEOUT)).isEqualTo(Either.right(Option.of(record)));

        // the placeholder stays for the attempt's next try, which links the raw response whole
        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));
        assertThat(deployment.call("GET", store.keys().raw(record.key()))).isEqualTo("raw \uD83D\uDE00");
    }

    /** Every key of the run, through the operator view's SCAN. */
    private List<String> runKeys(RunId run) {
        String start = store.keys().run(run) + ":";
        return RedisOperatorView.of(store, Duration.ofSeconds(5)).scan("0", 100_000).get().keys().stream()
                .filter(key -> key.startsWith(start)).toList();
    }

    /** A record's head with its value at {@code index} replaced. */
    private static String headWith(String[] head, int index, String value) {
        String[] changed = head.clone();
        changed[index] = value;
        return String.join("|", changed);
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

    /** Copies a record's hash under another key (same run, so the same slot), naming the new tool call. */
    @SuppressWarnings("unchecked")
    private void copyHash(String from, String to, InvocationKey toKey) {
        List<Object> fields = (List<Object>) deployment.call("HGETALL", from);
        List<String> command = new ArrayList<>(List.of("HSET", to));
        for (int i = 0; i < fields.size(); i += 2) {
            command.add((String) fields.get(i));
            command.add("toolCallId".equals(fields.get(i)) ? toKey.toolCallId().value() : (String) fields.get(i + 1));
        }
        deployment.call(command.toArray(String[]::new));
        deployment.call("PEXPIRE", to, "60000");
    }

}
