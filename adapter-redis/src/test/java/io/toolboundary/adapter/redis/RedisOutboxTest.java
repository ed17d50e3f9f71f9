package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.UPDATED;
import static io.toolboundary.adapter.redis.Records.failed;
import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.openedRun;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static io.toolboundary.adapter.redis.Records.start;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.OutboxBacklog;
import io.toolboundary.application.spi.OutboxEntry;
import io.toolboundary.application.spi.RecordOutbox;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Redis store's outbox on real servers: with export on, each record made final (a completion, an end by
 * token, an abandonment) appends exactly one entry, in the same script, and nothing else appends any; with
 * export off no outbox key exists. Exporters share it through the consumer group: a new entry goes to one
 * consumer only, an entry a consumer left unacknowledged goes to another once idle for {@code claimIdle} and
 * not before, an acknowledgement removes once and counts lost records once, and the backlog says what is
 * left. Carried records equal the stored ones. With AOF the entries and the group's pending entries survive a
 * restart; without persistence the next poll creates the group again. Redis Cluster is refused.
 */
class RedisOutboxTest {

    private static final Duration CLAIM_IDLE = Duration.ofMillis(200);
    private static final Duration NEVER_IDLE = Duration.ofMinutes(10);

    private final RedisDeployment redis = RedisServerFixture.standalone();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeStores() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }

    @Test
    void eachRecordMadeFinalAppendsOneEntryAndNothingElseAppendsAny() {
        RedisCanonicalInvocationStore store = store(RedisStoreOptions.Outbox.KEYS);
        String outbox = store.keys().outbox();
        RunId run = openedRun(store);
        RecordLife life = new RecordLife(redis, store);

        CanonicalRecord.Projecting completed = projecting(key(run, "completed"), "{}");
        AttemptToken completedToken = AttemptToken.random();
        assertThat(store.begin(start(completed, completedToken), TIMEOUT).isRight()).isTrue();
        assertThat(redis.callLong("EXISTS", outbox)).as("a begin appends nothing").isZero();
        CanonicalRecord.Ready done = ready(completed, "raw", "result");
        assertThat(store.complete(completedToken, done, TIMEOUT)).isEqualTo(Either.right(done));
        assertThat(length(outbox)).as("a completion that made the record READY").isEqualTo(1);

        assertThat(store.complete(completedToken, done, TIMEOUT)).as("a repeated completion").isEqualTo(Either.right(done));
        assertThat(store.begin(start(completed, AttemptToken.random()), TIMEOUT).mapLeft(StoreFailure::code))
                .as("a duplicate begin").isEqualTo(Either.left(ErrorCode.DUPLICATE_TOOL_CALL));
        assertThat(store.begin(start(projecting(key(run, "completed"), "{\"other\":1}"), AttemptToken.random()),
                TIMEOUT).mapLeft(StoreFailure::code)).as("a begin that reuses the id")
                .isEqualTo(Either.left(ErrorCode.TOOL_CALL_ID_REUSED));
        assertThat(store.end(completed.key(), completedToken, ErrorCode.STORE_OUTCOME_UNKNOWN, UPDATED, TIMEOUT))
                .as("an end of a record already final").isEqualTo(Either.right(done));
        assertThat(length(outbox)).isEqualTo(1);

        CanonicalRecord.Projecting ended = projecting(key(run, "ended"), "{}");
        AttemptToken endedToken = AttemptToken.random();
        store.begin(start(ended, endedToken), TIMEOUT);
        assertThat(store.complete(AttemptToken.random(), ready(ended, "stale", "r"), TIMEOUT).mapLeft(StoreFailure::code))
                .as("another attempt's completion").isEqualTo(Either.left(ErrorCode.RECORD_CONFLICT));
        assertThat(store.end(ended.key(), AttemptToken.random(), ErrorCode.STORE_OUTCOME_UNKNOWN, UPDATED, TIMEOUT)
                .mapLeft(StoreFailure::code)).as("another attempt's end").isEqualTo(Either.left(ErrorCode.RECORD_CONFLICT));
        assertThat(length(outbox)).as("refusals append nothing").isEqualTo(1);
        assertThat(store.end(ended.key(), endedToken, ErrorCode.STORE_OUTCOME_UNKNOWN, UPDATED, TIMEOUT).isRight()).isTrue();
        assertThat(length(outbox)).as("an end by token").isEqualTo(2);
        assertThat(store.end(ended.key(), endedToken, ErrorCode.STORE_OUTCOME_UNKNOWN, UPDATED, TIMEOUT).isRight()).isTrue();
        assertThat(store.complete(endedToken, ready(ended, "late", "r"), TIMEOUT).mapLeft(StoreFailure::code))
                .as("a late completion of the ended attempt").isEqualTo(Either.left(ErrorCode.RECORD_CONFLICT));
        assertThat(length(outbox)).as("a repeated end, a late completion").isEqualTo(2);

        CanonicalRecord.Projecting abandoned = projecting(key(run, "abandoned"), "{}");
        store.begin(start(abandoned, AttemptToken.random()), TIMEOUT);
        assertThat(store.abandon(abandoned.key(), UPDATED, TIMEOUT).mapLeft(StoreFailure::code))
                .as("an abandonment within the lease").isEqualTo(Either.left(ErrorCode.LEASE_NOT_EXPIRED));
        life.passLease(abandoned.key());
        assertThat(store.abandon(abandoned.key(), UPDATED, TIMEOUT).isRight()).isTrue();
        assertThat(length(outbox)).as("an abandonment").isEqualTo(3);
        assertThat(store.abandon(abandoned.key(), UPDATED, TIMEOUT).isRight()).isTrue();
        assertThat(length(outbox)).as("a repeated abandonment").isEqualTo(3);

        CanonicalRecord.Projecting failedCall = projecting(key(run, "failed"), "{}");
        AttemptToken failedToken = AttemptToken.random();
        store.begin(start(failedCall, failedToken), TIMEOUT);
        assertThat(store.complete(failedToken, failed(failedCall, ErrorCode.EXECUTION_FAILED, Option.some("raw")),
                TIMEOUT).isRight()).isTrue();
        CanonicalRecord.Projecting expired = projecting(key(run, "expired"), "{}");
        AttemptToken expiredToken = AttemptToken.random();
        store.begin(start(expired, expiredToken), TIMEOUT);
        life.expire(expired.key());
        assertThat(store.complete(expiredToken, ready(expired, "late", "r"), TIMEOUT).mapLeft(StoreFailure::code))
                .as("a completion of an expired record").isEqualTo(Either.left(ErrorCode.RECORD_EXPIRED));
        assertThat(store.end(key(run, "never-begun"), AttemptToken.random(), ErrorCode.STORE_OUTCOME_UNKNOWN,
                UPDATED, TIMEOUT).mapLeft(StoreFailure::code)).isEqualTo(Either.left(ErrorCode.RECORD_EXPIRED));

        // exactly the four records made final, in order, as r <runId> c <toolCallId>, nothing carried
        assertThat(rawEntries(outbox)).extracting(entry -> entry.get(1)).containsExactly(
                List.of("r", run.value(), "c", "completed"), List.of("r", run.value(), "c", "ended"),
                List.of("r", run.value(), "c", "abandoned"), List.of("r", run.value(), "c", "failed"));
        List<OutboxEntry> polled = store.outbox().get().poll("exporter-1", 10, NEVER_IDLE, TIMEOUT).get();
        assertThat(polled).extracting(OutboxEntry::key).containsExactly(completed.key(), ended.key(),
                abandoned.key(), failedCall.key());
        assertThat(polled).allSatisfy(entry -> assertThat(entry.record().isEmpty()).isTrue());
        // every key has its TTL, but the outbox's, which has none by design
        assertThat(keys(store)).contains(outbox).allSatisfy(key -> {
            if (key.equals(outbox)) {
                assertThat(redis.callLong("PTTL", key)).as("PTTL of the outbox").isEqualTo(-1);
            } else {
                assertThat(redis.callLong("PTTL", key)).as("PTTL of %s", key).isPositive();
            }
        });
    }

    @Test
    void withExportOffTheScriptsAppendNothingAndNoOutboxKeyExists() {
        RedisCanonicalInvocationStore store = store(RedisStoreOptions.Outbox.NONE);
        assertThat(store.outbox().isEmpty()).isTrue();
        RunId run = openedRun(store);
        finalRecords(store, run);

        assertThat(keys(store)).isNotEmpty().noneMatch(key -> key.contains("outbox"));
        assertThat(redis.callLong("EXISTS", store.keys().outbox(), store.keys().outboxLost())).isZero();
    }

    @Test
    void carriedRecordsEqualTheStoredOnesAndOutliveTheirTtl() {
        RedisCanonicalInvocationStore store = store(RedisStoreOptions.Outbox.RECORDS);
        RunId run = openedRun(store);
        List<InvocationKey> made = finalRecords(store, run);

        List<OutboxEntry> entries = store.outbox().get().poll("exporter-1", 10, NEVER_IDLE, TIMEOUT).get();

        assertThat(entries).extracting(OutboxEntry::key).containsExactlyElementsOf(made);
        for (OutboxEntry entry : entries) {
            Option<CanonicalRecord> stored = store.find(entry.key(), TIMEOUT).get();
            assertThat(entry.record().map(CanonicalRecord.class::cast)).as("%s", entry.key()).isEqualTo(stored)
                    .isNotEmpty();
            assertThat(entry.appendedAt()).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(60));
        }
        CanonicalRecord carried = entries.get(0).record().get();
        new RecordLife(redis, store).expire(entries.get(0).key());
        assertThat(store.find(entries.get(0).key(), TIMEOUT)).isEqualTo(Either.right(Option.none()));

        List<OutboxEntry> again = store.outbox().get().poll("exporter-2", 10, Duration.ZERO, TIMEOUT).get();
        assertThat(again).extracting(OutboxEntry::id).containsExactlyElementsOf(
                entries.stream().map(OutboxEntry::id).toList());
        assertThat(again.get(0).record()).as("the carried record, after its TTL ended").contains(
                (CanonicalRecord.Final) carried);
    }

    @Test
    void twoConsumersNeverGetTheSameNewEntry() throws Exception {
        RedisCanonicalInvocationStore store = store(RedisStoreOptions.Outbox.KEYS);
        RunId run = openedRun(store);
        int records = 40;
        for (int i = 0; i < records; i++) {
            complete(store, run, "call-" + i);
        }
        RecordOutbox outbox = store.outbox().get();
        // taking turns: each poll takes entries no poll took before
        List<OutboxEntry> a = outbox.poll("exporter-a", 3, NEVER_IDLE, TIMEOUT).get();
        List<OutboxEntry> b = outbox.poll("exporter-b", 3, NEVER_IDLE, TIMEOUT).get();
        List<OutboxEntry> a2 = outbox.poll("exporter-a", 3, NEVER_IDLE, TIMEOUT).get();
        assertThat(ids(a)).hasSize(3).doesNotContainAnyElementsOf(ids(b)).doesNotContainAnyElementsOf(ids(a2));
        assertThat(ids(b)).hasSize(3).doesNotContainAnyElementsOf(ids(a2));
        assertThat(a2).hasSize(3);
        Map<String, String> takenBy = new ConcurrentHashMap<>();
        for (List<OutboxEntry> taken : List.of(a, b, a2)) {
            taken.forEach(entry -> takenBy.put(entry.id(), "taking turns"));
        }
        List<String> twice = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService exporters = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> polls = new ArrayList<>();
            for (String consumer : List.of("exporter-a", "exporter-b")) {
                polls.add(exporters.submit((Callable<Integer>) () -> {
                    go.await();
                    int taken = 0;
                    while (true) {
                        List<OutboxEntry> entries = outbox.poll(consumer, 3, NEVER_IDLE, TIMEOUT).get();
                        if (entries.isEmpty()) {
                            return taken;
                        }
                        for (OutboxEntry entry : entries) {
                            if (takenBy.putIfAbsent(entry.id(), consumer) != null) {
                                synchronized (twice) {
                                    twice.add(entry.id());
                                }
                            }
                        }
                        taken += entries.size();
                    }
                }));
            }
            go.countDown();
            int taken = 0;
            for (Future<Integer> poll : polls) {
                taken += poll.get();
            }
            assertThat(twice).as("entries delivered to two consumers").isEmpty();
            assertThat(taken).isEqualTo(records - 9);
            assertThat(takenBy).hasSize(records);
        } finally {
            exporters.shutdownNow();
        }
        assertThat(outbox.poll("exporter-c", 100, NEVER_IDLE, TIMEOUT).get()).as("nothing new, nothing idle").isEmpty();
    }

    @Test
    void anEntryAConsumerLeftUnacknowledgedGoesToAnotherOnceIdleForClaimIdleAndNotBefore() throws Exception {
        RedisCanonicalInvocationStore store = store(RedisStoreOptions.Outbox.KEYS);
        RecordOutbox outbox = store.outbox().get();
        RunId run = openedRun(store);
        InvocationKey first = complete(store, run, "first");

        long delivering = System.nanoTime();
        List<OutboxEntry> dead = outbox.poll("exporter-that-dies", 10, CLAIM_IDLE, TIMEOUT).get();
        assertThat(dead).extracting(OutboxEntry::key).containsExactly(first);
        List<OutboxEntry> tooSoon = outbox.poll("exporter-alive", 10, CLAIM_IDLE, TIMEOUT).get();
        long idleAtMost = System.nanoTime() - delivering;
        if (idleAtMost < CLAIM_IDLE.toNanos()) {
            // (a pause of the test's own longer than claimIdle would let it be claimed, rightly)
            assertThat(tooSoon).as("idle for less than claimIdle: not delivered again").isEmpty();
        }
        InvocationKey second = complete(store, run, "second");
        idleForClaimIdle(store, "exporter-that-dies", dead);

        List<OutboxEntry> fresh = outbox.poll("exporter-alive", 10, NEVER_IDLE, TIMEOUT).get();
        assertThat(fresh).as("with a claimIdle longer than the entry was idle: only the new entry")
                .extracting(OutboxEntry::key).containsExactly(second);
        List<OutboxEntry> claimed = outbox.poll("exporter-alive", 10, CLAIM_IDLE, TIMEOUT).get();
        assertThat(claimed).as("idle for claimIdle: the dead exporter's entry, delivered again")
                .containsExactlyElementsOf(dead);
        assertThat(outbox.poll("exporter-that-dies", 10, CLAIM_IDLE, TIMEOUT).get())
                .as("claimed a moment ago, so not idle").isEmpty();

        assertThat(outbox.acknowledge(claimed, List.of(), TIMEOUT)).isEqualTo(Either.right(1));
        assertThat(outbox.acknowledge(dead, List.of(), TIMEOUT)).as("acknowledged by the other").isEqualTo(Either.right(0));
        idleForClaimIdle(store, "exporter-alive", fresh);
        idleForClaimIdle(store, "exporter-alive", claimed);
        assertThat(outbox.poll("exporter-3", 10, CLAIM_IDLE, TIMEOUT).get()).as("acknowledged entries never come back")
                .extracting(OutboxEntry::key).containsExactly(second);
    }

    @Test
    void anAcknowledgementRemovesOnceCountsLostRecordsOnceAndTheBacklogSaysWhatIsLeft() {
        RedisCanonicalInvocationStore store = store(RedisStoreOptions.Outbox.KEYS);
        RecordOutbox outbox = store.outbox().get();
        assertThat(outbox.backlog(TIMEOUT)).as("before anything was appended")
                .isEqualTo(Either.right(new OutboxBacklog(0, Option.none(), 0)));
        RunId run = openedRun(store);
        for (String id : List.of("a", "b", "c", "d")) {
            complete(store, run, id);
        }
        List<OutboxEntry> entries = outbox.poll("exporter-1", 10, NEVER_IDLE, TIMEOUT).get();
        assertThat(entries).hasSize(4);
        assertThat(entries.get(0).appendedAt()).isBeforeOrEqualTo(entries.get(3).appendedAt());
        assertThat(outbox.backlog(TIMEOUT)).as("delivered, not acknowledged")
                .isEqualTo(Either.right(new OutboxBacklog(4, Option.of(entries.get(0).appendedAt()), 0)));

        List<OutboxEntry> firstTwo = entries.subList(0, 2);
        assertThat(outbox.acknowledge(firstTwo, List.of(entries.get(1)), TIMEOUT)).isEqualTo(Either.right(2));
        assertThat(outbox.acknowledge(firstTwo, List.of(entries.get(1)), TIMEOUT)).as("again").isEqualTo(Either.right(0));
        assertThat(outbox.backlog(TIMEOUT)).isEqualTo(Either.right(
                new OutboxBacklog(2, Option.of(entries.get(2).appendedAt()), 1)));
        assertThat(length(store.keys().outbox())).as("acknowledged entries are deleted").isEqualTo(2);

        // duplicates within one call count once; a lost entry that is not among the entries counts nothing
        List<OutboxEntry> rest = List.of(entries.get(2), entries.get(3), entries.get(3));
        assertThat(outbox.acknowledge(rest, List.of(entries.get(3), entries.get(3), entries.get(0)), TIMEOUT))
                .isEqualTo(Either.right(2));
        assertThat(outbox.backlog(TIMEOUT)).isEqualTo(Either.right(new OutboxBacklog(0, Option.none(), 2)));
        assertThat(outbox.acknowledge(entries, entries, TIMEOUT)).isEqualTo(Either.right(0));
        assertThat(outbox.acknowledge(List.of(), List.of(), TIMEOUT)).isEqualTo(Either.right(0));
        assertThat(outbox.backlog(TIMEOUT)).isEqualTo(Either.right(new OutboxBacklog(0, Option.none(), 2)));
        assertThat(redis.call("GET", store.keys().outboxLost())).isEqualTo("2");
        assertThat(redis.callLong("PTTL", store.keys().outboxLost())).as("the tally has no TTL").isEqualTo(-1);
    }

    @Test
    void entriesAppendedBeforeTheFirstPollAreDeliveredByIt() {
        RedisCanonicalInvocationStore store = store(RedisStoreOptions.Outbox.KEYS);
        RunId run = openedRun(store);
        InvocationKey first = complete(store, run, "before-1");
        InvocationKey second = complete(store, run, "before-2");
        assertThat((List<?>) redis.call("XINFO", "GROUPS", store.keys().outbox())).as("no group yet").isEmpty();

        assertThat(store.outbox().get().poll("exporter-1", 10, NEVER_IDLE, TIMEOUT).get())
                .extracting(OutboxEntry::key).containsExactly(first, second);
        assertThat(groups(redis.call("XINFO", "GROUPS", store.keys().outbox()))).containsExactly(RedisKeys.OUTBOX_GROUP);
    }

    @Test
    void anEntryThatDoesNotParseIsInvalidDataUntilItIsRemoved() {
        RedisCanonicalInvocationStore store = store(RedisStoreOptions.Outbox.RECORDS);
        RecordOutbox outbox = store.outbox().get();
        String stream = store.keys().outbox();
        RunId run = openedRun(store);
        for (List<String> fields : List.of(List.of("r", run.value()), List.of("r", run.value(), "c", "x", "z", "1"),
                List.of("r", "bad run id!", "c", "x"), List.of("r", run.value(), "c", "x", "c", "y"),
                List.of("r", run.value(), "c", "x", "v", "not a record"))) {
            List<String> command = new ArrayList<>(List.of("XADD", stream, "*"));
            command.addAll(fields);
            String id = (String) redis.call(command.toArray(String[]::new));

            assertThat(outbox.poll("exporter-1", 10, Duration.ZERO, TIMEOUT)).as("%s", fields)
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
            assertThat(outbox.poll("exporter-1", 10, Duration.ZERO, TIMEOUT)).as("again: it stays due")
                    .isEqualTo(Either.left(StoreFailure.dataInvalid()));
            redis.call("XACK", stream, RedisKeys.OUTBOX_GROUP, id);
            redis.call("XDEL", stream, id);
        }
        InvocationKey made = complete(store, run, "after");
        assertThat(outbox.poll("exporter-1", 10, Duration.ZERO, TIMEOUT).get()).extracting(OutboxEntry::key)
                .containsExactly(made);

        redis.call("SET", store.keys().outboxLost(), "not a count");
        List<OutboxEntry> none = List.of();
        assertThat(outbox.backlog(TIMEOUT)).isEqualTo(Either.left(StoreFailure.dataInvalid()));
        OutboxEntry entry = outbox.poll("exporter-1", 10, Duration.ZERO, TIMEOUT).get().get(0);
        assertThat(outbox.acknowledge(List.of(entry), List.of(entry), TIMEOUT))
                .as("a tally that is not a count: refused before anything is written")
                .isEqualTo(Either.left(StoreFailure.dataInvalid()));
        assertThat(length(stream)).isEqualTo(1);
        assertThat(outbox.acknowledge(List.of(entry), none, TIMEOUT)).isEqualTo(Either.right(1));
    }

    @Test
    void pollRefusesAnInvalidConsumerMaxOrClaimIdle() {
        RecordOutbox outbox = store(RedisStoreOptions.Outbox.KEYS).outbox().get();
        for (String consumer : List.of("", "with space", "x".repeat(65), "a{b}", "é")) {
            assertThatThrownBy(() -> outbox.poll(consumer, 1, CLAIM_IDLE, TIMEOUT)).as(consumer)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> outbox.poll("ok", 0, CLAIM_IDLE, TIMEOUT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> outbox.poll("ok", 1, Duration.ofMillis(-1), TIMEOUT))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(outbox.poll("A-z_0.9:x", 1, Duration.ofDays(365_000), TIMEOUT)).isEqualTo(Either.right(List.of()));
    }

    @Test
    void entriesAndTheGroupsPendingEntriesSurviveARestartWithAof() {
        try (RedisServerProcess server = RedisServerProcess.start(RedisServerProcess.Persistence.AOF);
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(
                        server.endpoint().uri(), options(RedisStoreOptions.Outbox.KEYS))) {
            RecordOutbox outbox = store.outbox().get();
            RunId run = openedRun(store);
            List<InvocationKey> made = new ArrayList<>();
            for (String id : List.of("a", "b", "c")) {
                made.add(complete(store, run, id));
            }
            List<OutboxEntry> taken = outbox.poll("exporter-that-dies", 2, NEVER_IDLE, TIMEOUT).get();
            assertThat(taken).extracting(OutboxEntry::key).containsExactlyElementsOf(made.subList(0, 2));

            server.restart();

            assertThat(server.callLong("XLEN", store.keys().outbox())).isEqualTo(3);
            List<?> pending = (List<?>) server.call("XPENDING", store.keys().outbox(), RedisKeys.OUTBOX_GROUP);
            assertThat(pending.get(0)).as("the group's pending entries").isEqualTo(2L);
            assertThat(String.valueOf(pending.get(3))).contains("exporter-that-dies");
            List<OutboxEntry> after = awaitPoll(outbox, "exporter-2", Duration.ZERO);
            assertThat(after).extracting(OutboxEntry::key).as("the two pending, claimed, then the new one")
                    .containsExactlyElementsOf(made);
            assertThat(after.subList(0, 2)).isEqualTo(taken);
            assertThat(outbox.acknowledge(after, List.of(), TIMEOUT)).isEqualTo(Either.right(3));
        }
    }

    @Test
    void afterARestartWithoutPersistenceThePollCreatesTheGroupAgainAndWorks() {
        try (RedisServerProcess server = RedisServerProcess.start(RedisServerProcess.Persistence.NONE);
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(
                        server.endpoint().uri(), options(RedisStoreOptions.Outbox.KEYS))) {
            RecordOutbox outbox = store.outbox().get();
            complete(store, openedRun(store), "before");
            assertThat(outbox.poll("exporter-1", 10, NEVER_IDLE, TIMEOUT).get()).hasSize(1);

            server.restart();

            assertThat(server.callLong("EXISTS", store.keys().outbox())).isZero();
            assertThat(awaitPoll(outbox, "exporter-1", NEVER_IDLE)).isEmpty();
            assertThat(groups(server.call("XINFO", "GROUPS", store.keys().outbox())))
                    .containsExactly(RedisKeys.OUTBOX_GROUP);
            assertThat(outbox.backlog(TIMEOUT)).isEqualTo(Either.right(new OutboxBacklog(0, Option.none(), 0)));
            InvocationKey after = complete(store, openedRun(store), "after");
            assertThat(outbox.poll("exporter-2", 10, NEVER_IDLE, TIMEOUT).get()).extracting(OutboxEntry::key)
                    .containsExactly(after);
        }
    }

    @Test
    void aServerThatIsDownOrFrozenIsAFailureNeverAnException() {
        Duration timeout = Duration.ofMillis(600);
        try (RedisServerProcess server = RedisServerProcess.start(RedisServerProcess.Persistence.NONE);
                RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(
                        server.endpoint().uri(), RedisStoreOptions.custom().keyPrefix(prefix())
                                .outbox(RedisStoreOptions.Outbox.KEYS).responseTimeout(Duration.ofMillis(200)).build())) {
            RecordOutbox outbox = store.outbox().get();
            complete(store, openedRun(store), "one");
            OutboxEntry entry = outbox.poll("exporter-1", 10, NEVER_IDLE, TIMEOUT).get().get(0);

            server.freeze();
            try {
                assertWithin(timeout, () -> assertThat(outbox.poll("exporter-1", 10, NEVER_IDLE, timeout))
                        .as("a poll that may have run").isEqualTo(Either.left(StoreFailure.outcomeUnknown())));
                assertWithin(timeout, () -> assertThat(outbox.acknowledge(List.of(entry), List.of(), timeout))
                        .isEqualTo(Either.left(StoreFailure.outcomeUnknown())));
                assertWithin(timeout, () -> assertThat(outbox.backlog(timeout)).as("a read")
                        .isEqualTo(Either.left(StoreFailure.unavailable())));
            } finally {
                server.thaw();
            }
            server.kill();
            // A write sent on a connection the kill has not yet visibly broken may have left: unknown, not unavailable.
            List<Either<StoreFailure, ?>> downWrites = List.of(Either.left(StoreFailure.unavailable()),
                    Either.left(StoreFailure.outcomeUnknown()));
            assertWithin(timeout, () -> assertThat(outbox.poll("exporter-1", 10, NEVER_IDLE, timeout))
                    .isIn(downWrites));
            assertWithin(timeout, () -> assertThat(outbox.acknowledge(List.of(entry), List.of(), timeout))
                    .isIn(downWrites));
            assertWithin(timeout, () -> assertThat(outbox.poll("exporter-1", 10, NEVER_IDLE, timeout))
                    .as("once the connection is known to be down").isEqualTo(Either.left(StoreFailure.unavailable())));
            assertWithin(timeout, () -> assertThat(outbox.backlog(timeout))
                    .isEqualTo(Either.left(StoreFailure.unavailable())));
        }
    }

    @Test
    void exportIsRefusedOnARedisClusterBeforeAnyStoreIsMade() {
        RedisDeployment cluster = RedisServerFixture.cluster();
        for (RedisStoreOptions.Outbox mode : List.of(RedisStoreOptions.Outbox.KEYS, RedisStoreOptions.Outbox.RECORDS)) {
            RedisStoreOptions options = options(mode);
            assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.create(RedisTestServers.clusterClient(), options))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("RedisStoreOptions.outbox(" + mode + ") is refused on a Redis Cluster: each record's"
                            + " script runs in its run's slot and cannot append to one outbox stream in another; use a"
                            + " standalone server or Sentinel, or Outbox.NONE");
            assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.create(RedisTestServers.config(cluster), options))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refused on a Redis Cluster");
            assertThatThrownBy(() -> RedisCanonicalInvocationStoreFactory.connectCluster(
                    cluster.nodes().stream().map(node -> node.uri()).toList(), options))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refused on a Redis Cluster");
        }
        try (RedisCanonicalInvocationStore off = RedisCanonicalInvocationStoreFactory.create(
                RedisTestServers.clusterClient(), options(RedisStoreOptions.Outbox.NONE))) {
            assertThat(off.outbox().isEmpty()).as("export off works on a cluster").isTrue();
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    /** A store on the shared standalone server with a prefix of its own, so that its outbox is its own. */
    private RedisCanonicalInvocationStore store(RedisStoreOptions.Outbox mode) {
        RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(
                RedisTestServers.standaloneClient(), options(mode));
        opened.add(store);
        return store;
    }

    private static RedisStoreOptions options(RedisStoreOptions.Outbox mode) {
        return RedisStoreOptions.custom().keyPrefix(prefix()).outbox(mode).build();
    }

    private static String prefix() {
        return "tbout-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Begins and completes one call READY; the key. */
    private static InvocationKey complete(RedisCanonicalInvocationStore store, RunId run, String toolCallId) {
        CanonicalRecord.Projecting record = projecting(key(run, toolCallId), "{\"q\":\"" + toolCallId + "\"}");
        AttemptToken token = AttemptToken.random();
        assertThat(store.begin(start(record, token), TIMEOUT).isRight()).isTrue();
        CanonicalRecord.Ready done = ready(record, "raw \uD83D\uDE00 " + toolCallId, "result " + toolCallId);
        assertThat(store.complete(token, done, TIMEOUT)).isEqualTo(Either.right(done));
        return record.key();
    }

    /** One record made final each way: READY and ERROR by completion, ended by token, abandoned; their keys. */
    private List<InvocationKey> finalRecords(RedisCanonicalInvocationStore store, RunId run) {
        InvocationKey completed = complete(store, run, "completed");
        CanonicalRecord.Projecting failedCall = projecting(key(run, "failed"), "{}");
        AttemptToken failedToken = AttemptToken.random();
        store.begin(start(failedCall, failedToken), TIMEOUT);
        assertThat(store.complete(failedToken, failed(failedCall, ErrorCode.EXECUTION_FAILED, Option.some("raw")),
                TIMEOUT).isRight()).isTrue();
        CanonicalRecord.Projecting ended = projecting(key(run, "ended"), "{}");
        AttemptToken endedToken = AttemptToken.random();
        store.begin(start(ended, endedToken), TIMEOUT);
        assertThat(store.end(ended.key(), endedToken, ErrorCode.STORE_OUTCOME_UNKNOWN, UPDATED, TIMEOUT).isRight()).isTrue();
        CanonicalRecord.Projecting abandoned = projecting(key(run, "abandoned"), "{}");
        store.begin(start(abandoned, AttemptToken.random()), TIMEOUT);
        new RecordLife(redis, store).passLease(abandoned.key());
        assertThat(store.abandon(abandoned.key(), UPDATED, TIMEOUT).isRight()).isTrue();
        return List.of(completed, failedCall.key(), ended.key(), abandoned.key());
    }

    /**
     * Makes pending entries idle for longer than {@link #CLAIM_IDLE} by the server's own account (XCLAIM with
     * IDLE, to the consumer that holds them, JUSTID so that nothing is delivered), as time passing would;
     * an acknowledged entry is left as it is.
     */
    private void idleForClaimIdle(RedisCanonicalInvocationStore store, String consumer, List<OutboxEntry> entries) {
        for (OutboxEntry entry : entries) {
            redis.call("XCLAIM", store.keys().outbox(), RedisKeys.OUTBOX_GROUP, consumer, "0", entry.id(), "IDLE",
                    String.valueOf(CLAIM_IDLE.toMillis() + 50), "JUSTID");
        }
    }

    private long length(String stream) {
        return redis.callLong("XLEN", stream);
    }

    /** The stream's entries as Redis holds them: each its id and its fields and values. */
    @SuppressWarnings("unchecked")
    private List<List<Object>> rawEntries(String stream) {
        return (List<List<Object>>) redis.call("XRANGE", stream, "-", "+");
    }

    /** Every key under the store's prefix. */
    @SuppressWarnings("unchecked")
    private List<String> keys(RedisCanonicalInvocationStore store) {
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            List<Object> page = (List<Object>) redis.call("SCAN", cursor, "MATCH",
                    store.options().keyPrefix() + ":*", "COUNT", "1000");
            cursor = (String) page.get(0);
            ((List<Object>) page.get(1)).forEach(key -> keys.add((String) key));
        } while (!"0".equals(cursor));
        return keys;
    }

    /** The names of the groups in an {@code XINFO GROUPS} reply. */
    private static List<String> groups(Object reply) {
        List<String> names = new ArrayList<>();
        for (Object group : (List<?>) reply) {
            List<?> fields = (List<?>) group;
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                if ("name".equals(fields.get(i))) {
                    names.add(String.valueOf(fields.get(i + 1)));
                }
            }
        }
        return names;
    }

    /** Polls until the store answers (the first calls after a restart may find the connection broken). */
    private static List<OutboxEntry> awaitPoll(RecordOutbox outbox, String consumer, Duration claimIdle) {
        List<List<OutboxEntry>> answered = new ArrayList<>();
        await("a poll after the restart").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> outbox.poll(consumer, 10, claimIdle, TIMEOUT).map(answered::add).isRight());
        return answered.get(answered.size() - 1);
    }

    /** Runs {@code check}, which must return within {@code timeout} and a margin for scheduling. */
    private static void assertWithin(Duration timeout, Runnable check) {
        long started = System.nanoTime();
        check.run();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(timeout.plusMillis(400));
    }

    private static Set<String> ids(List<OutboxEntry> entries) {
        return entries.stream().map(OutboxEntry::id).collect(Collectors.toSet());
    }
}
