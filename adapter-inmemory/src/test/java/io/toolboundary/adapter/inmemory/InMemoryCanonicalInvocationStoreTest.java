package io.toolboundary.adapter.inmemory;

import static io.toolboundary.tck.store.StoreRecordFixtures.GENEROUS_BUDGET;
import static io.toolboundary.tck.store.StoreRecordFixtures.LEASE;
import static io.toolboundary.tck.store.StoreRecordFixtures.RUN_TOKEN;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static io.toolboundary.tck.store.StoreRecordFixtures.TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.freshRunId;
import static io.toolboundary.tck.store.StoreRecordFixtures.projecting;
import static io.toolboundary.tck.store.StoreRecordFixtures.start;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.StoreAbandoningContract;
import io.toolboundary.tck.store.StoreCompletingContract;
import io.toolboundary.tck.store.StoreCreatingContract;
import io.toolboundary.tck.store.StoreRacesContract;
import io.toolboundary.tck.store.StoreRunsContract;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class InMemoryCanonicalInvocationStoreTest implements StoreRunsContract, StoreCreatingContract, StoreCompletingContract,
        StoreAbandoningContract, StoreRacesContract {

    private static final long MAX_RECORD_BYTES = 4096;

    private final MutableClock clock = MutableClock.at(Instant.parse("2030-01-01T00:00:00Z"));
    private final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(clock, MAX_RECORD_BYTES);

    @Override
    public CanonicalInvocationStore store() {
        return store;
    }

    @Override
    public Option<Duration> remainingTtl(InvocationKey key) {
        return store.remainingTtl(key);
    }

    @Override
    public void expire(InvocationKey key) {
        store.remainingTtl(key).forEach(clock::advance);
    }

    @Override
    public void expireRun(RunId runId) {
        store.remainingRunTtl(runId).forEach(clock::advance);
    }

    @Override
    public void passLease(InvocationKey key) {
        clock.advance(LEASE);
    }

    @Override
    public long maxRecordBytes() {
        return MAX_RECORD_BYTES;
    }

    @Nested
    class Sweeping {

        /** A run opened for {@code ttl}, as long as the records begun in it here, so that both expire. */
        private RunId runFor(Duration ttl) {
            RunId runId = freshRunId();
            assertThat(store.openRun(new RunOpening(runId, RUN_TOKEN, ttl), TIMEOUT).isRight()).isTrue();
            return runId;
        }

        @Test
        void keepsExpiredEntriesUntilSwept() {
            RunId run = runFor(TTL);
            beginAll(run, 3, TTL);

            clock.advance(TTL);

            assertThat(store.find(InvocationKey.of(run, callId(0)), TIMEOUT).get()).isEmpty();
            assertThat(store.size()).as("3 records and their run").isEqualTo(3 + 1);
        }

        @Test
        void dropsExpiredRecordsAndRunsOnPurge() {
            RunId run = runFor(TTL);
            beginAll(run, 3, TTL);
            clock.advance(TTL);

            store.purgeExpired();

            assertThat(store.size()).isZero();
        }

        @Test
        void keepsLiveRecordsAndRunsOnPurge() {
            RunId expiring = runFor(TTL);
            RunId living = runFor(TTL.multipliedBy(3));
            beginAll(expiring, 3, TTL);
            beginAll(living, 2, TTL.multipliedBy(3));
            clock.advance(TTL);

            store.purgeExpired();

            assertThat(store.size()).as("the living run and its 2 records").isEqualTo(2 + 1);
            assertThat(store.find(InvocationKey.of(living, callId(1)), TIMEOUT).get()).isNotEmpty();
        }

        @Test
        void sweepsExpiredRecordsWhileBeginningWithoutBeingAsked() {
            beginAll(runFor(TTL), 10, TTL);
            clock.advance(TTL);
            RunId later = openedRun();

            int begins = 0;
            boolean swept = false;
            while (!swept && begins < 10_000) {
                store.begin(start(projecting(later, "call_" + begins), AttemptToken.random()), TIMEOUT);
                begins++;
                swept = store.size() == begins + 1;
            }

            assertThat(swept).as("expired entries swept within %s begins", begins).isTrue();
        }

        @Test
        void sweepsShorterLivesScheduledAfterLongerOnes() {
            RunId longLived = runFor(TTL.multipliedBy(3));
            RunId shortLived = runFor(TTL);
            beginAll(longLived, 2, TTL.multipliedBy(3));
            beginAll(shortLived, 3, TTL);
            clock.advance(TTL);

            store.begin(start(projecting(openedRun(), "call_0"), AttemptToken.random()), TIMEOUT);

            assertThat(store.size()).as("the long-lived run and its 2 records, the new call's run and record")
                    .isEqualTo(1 + 2 + 1 + 1);
            assertThat(store.find(InvocationKey.of(longLived, callId(1)), TIMEOUT).get()).isNotEmpty();
        }

        @Test
        void sweepsInOrderAfterTheClockIsSetBack() {
            RunId first = runFor(TTL);
            beginAll(first, 2, TTL);
            clock.set(clock.instant().minus(TTL.dividedBy(2)));
            RunId second = runFor(TTL);
            beginAll(second, 2, TTL);
            clock.advance(TTL);

            store.begin(start(projecting(openedRun(), "call_0"), AttemptToken.random()), TIMEOUT);

            assertThat(store.size()).as("the first run and its 2 records, the new call's run and record")
                    .isEqualTo(1 + 2 + 1 + 1);
            assertThat(store.find(InvocationKey.of(first, callId(0)), TIMEOUT).get()).isNotEmpty();
            assertThat(store.find(InvocationKey.of(second, callId(0)), TIMEOUT).get()).isEmpty();
        }

        @Test
        void startsNoThread() {
            Set<Thread> before = Thread.getAllStackTraces().keySet();
            InMemoryCanonicalInvocationStore fresh = InMemoryCanonicalInvocationStore.create(clock, MAX_RECORD_BYTES);
            RunId run = freshRunId();
            assertThat(fresh.openRun(new RunOpening(run, RUN_TOKEN, TTL), TIMEOUT).isRight()).isTrue();
            for (int i = 0; i < 2_000; i++) {
                fresh.begin(start(projecting(run, "call_" + i), AttemptToken.random()), TIMEOUT);
            }
            clock.advance(TTL);
            fresh.purgeExpired();

            Set<Thread> started = new HashSet<>(Thread.getAllStackTraces().keySet());
            started.removeAll(before);
            assertThat(started).isEmpty();
            assertThat(fresh.size()).isZero();
        }

        private void beginAll(RunId run, int count, Duration ttl) {
            for (int i = 0; i < count; i++) {
                CanonicalRecord.Projecting record = projecting(run, callId(i).value());
                assertThat(store.begin(new InvocationStart(record, AttemptToken.random(), RUN_TOKEN, ttl, LEASE, GENEROUS_BUDGET,
                        GENEROUS_BUDGET, Long.MAX_VALUE), TIMEOUT)).containsExactly(record);
            }
        }

        private ToolCallId callId(int i) {
            return new ToolCallId("call_" + i);
        }
    }
}
