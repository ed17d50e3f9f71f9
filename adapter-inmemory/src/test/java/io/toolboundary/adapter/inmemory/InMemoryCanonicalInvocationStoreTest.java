package io.toolboundary.adapter.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.CanonicalInvocationStoreContract;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class InMemoryCanonicalInvocationStoreTest extends CanonicalInvocationStoreContract {

    private static final long MAX_RECORD_BYTES = 4096;

    private final MutableClock clock = MutableClock.at(Instant.parse("2030-01-01T00:00:00Z"));
    private final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(clock, MAX_RECORD_BYTES);

    @Override
    protected CanonicalInvocationStore store() {
        return store;
    }

    @Override
    protected Option<Duration> remainingTtl(InvocationKey key) {
        return store.remainingTtl(key);
    }

    @Override
    protected void expire(InvocationKey key) {
        store.remainingTtl(key).forEach(clock::advance);
    }

    @Override
    protected void expireRun(RunId runId) {
        store.remainingRunTtl(runId).forEach(clock::advance);
    }

    @Override
    protected void passLease(InvocationKey key) {
        clock.advance(LEASE);
    }

    @Override
    protected long maxRecordBytes() {
        return MAX_RECORD_BYTES;
    }

    @Nested
    class Sweeping {

        @Test
        void keepsExpiredEntriesUntilSwept() {
            RunId run = openedRun();
            beginAll(run, 3, TTL);

            clock.advance(TTL);

            assertThat(store.find(InvocationKey.of(run, callId(0))).get()).isEmpty();
            assertThat(store.size()).isEqualTo(3 + 2);
        }

        @Test
        void dropsExpiredRecordsAndCountersOnPurge() {
            RunId run = openedRun();
            beginAll(run, 3, TTL);
            clock.advance(TTL);

            store.purgeExpired();

            assertThat(store.size()).isZero();
        }

        @Test
        void keepsLiveRecordsAndCountersOnPurge() {
            RunId expiring = openedRun();
            RunId living = openedRun();
            beginAll(expiring, 3, TTL);
            beginAll(living, 2, TTL.multipliedBy(3));
            clock.advance(TTL);

            store.purgeExpired();

            assertThat(store.size()).isEqualTo(2 + 2);
            assertThat(store.find(InvocationKey.of(living, callId(1))).get()).isNotEmpty();
        }

        @Test
        void sweepsExpiredRecordsWhileBeginningWithoutBeingAsked() {
            beginAll(openedRun(), 10, TTL);
            clock.advance(TTL);
            RunId later = openedRun();

            int begins = 0;
            boolean swept = false;
            while (!swept && begins < 10_000) {
                store.begin(start(projecting(later, "call_" + begins), AttemptToken.random()));
                begins++;
                swept = store.size() == begins + 2;
            }

            assertThat(swept).as("expired entries swept within %s begins", begins).isTrue();
        }

        @Test
        void sweepsShorterLivesScheduledAfterLongerOnes() {
            RunId longLived = openedRun();
            RunId shortLived = openedRun();
            beginAll(longLived, 2, TTL.multipliedBy(3));
            beginAll(shortLived, 3, TTL);
            clock.advance(TTL);

            store.begin(start(projecting(openedRun(), "call_0"), AttemptToken.random()));

            assertThat(store.size()).as("the long-lived run's 2 records and 2 counters, the new call's 1 and 2")
                    .isEqualTo(2 + 2 + 1 + 2);
            assertThat(store.find(InvocationKey.of(longLived, callId(1))).get()).isNotEmpty();
        }

        @Test
        void sweepsInOrderAfterTheClockIsSetBack() {
            RunId first = openedRun();
            beginAll(first, 2, TTL);
            clock.set(clock.instant().minus(TTL.dividedBy(2)));
            RunId second = openedRun();
            beginAll(second, 2, TTL);
            clock.advance(TTL);

            store.begin(start(projecting(openedRun(), "call_0"), AttemptToken.random()));

            assertThat(store.size()).as("the first run's 2 records and 2 counters, the new call's 1 and 2")
                    .isEqualTo(2 + 2 + 1 + 2);
            assertThat(store.find(InvocationKey.of(first, callId(0))).get()).isNotEmpty();
            assertThat(store.find(InvocationKey.of(second, callId(0))).get()).isEmpty();
        }

        @Test
        void startsNoThread() {
            Set<Thread> before = Thread.getAllStackTraces().keySet();
            InMemoryCanonicalInvocationStore fresh = InMemoryCanonicalInvocationStore.create(clock, MAX_RECORD_BYTES);
            RunId run = openedRun();
            for (int i = 0; i < 2_000; i++) {
                fresh.begin(start(projecting(run, "call_" + i), AttemptToken.random()));
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
                        GENEROUS_BUDGET, Long.MAX_VALUE))).containsExactly(record);
            }
        }

        private ToolCallId callId(int i) {
            return new ToolCallId("call_" + i);
        }
    }
}
