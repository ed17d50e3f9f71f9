package io.toolboundary.adapter.inmemory;

import java.time.Instant;
import java.util.Comparator;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * When the store's records and runs expire, each kind in a schedule of its own: records all get the one
 * record TTL, so each is queued at the end, in order of expiry; runs live to their deadline plus that
 * TTL, and in the same schedule would put every later record out of order. One lock guards both, so that
 * a begin's sweep of both takes it once. Thread-safe.
 */
final class Expiries {

    /** The records' schedule: each record's one entry, scheduled at its begin (completion keeps its expiry). */
    private final ExpirySchedule<RecordTable.Entry> records =
            new ExpirySchedule<>(RecordTable.Entry::compareExpiry, RecordTable.Entry::expiredAt);
    /** The runs' schedule. */
    private final ExpirySchedule<RunTable.RunState> runs =
            new ExpirySchedule<>(Comparator.comparing(RunTable.RunState::expiresAt), RunTable.RunState::expiredAt);
    private final ReentrantLock lock = new ReentrantLock();

    /** Schedules a record's entry to be handed to a sweep from its expiry on. */
    void schedule(RecordTable.Entry entry) {
        schedule(records, entry);
    }

    /** Schedules a run to be handed to a sweep from its expiry on. */
    void schedule(RunTable.RunState run) {
        schedule(runs, run);
    }

    /** Hands whatever is due by {@code now} to {@code drop}; skipped when another thread is at it. */
    void sweepNowAndThen(Instant now, BiConsumer<Object, Instant> drop) {
        if (lock.tryLock()) {
            try {
                sweepBoth(now, drop);
            } finally {
                lock.unlock();
            }
        }
    }

    /** Hands whatever is due by {@code now} to {@code drop}, waiting for a sweep under way. */
    void sweep(Instant now, BiConsumer<Object, Instant> drop) {
        lock.lock();
        try {
            sweepBoth(now, drop);
        } finally {
            lock.unlock();
        }
    }

    /** Puts {@code entry} in {@code schedule} under the lock; a method, not a closure, so that it allocates nothing. */
    private <E> void schedule(ExpirySchedule<E> schedule, E entry) {
        lock.lock();
        try {
            schedule.schedule(entry);
        } finally {
            lock.unlock();
        }
    }

    /** Both schedules' due entries, records first; the caller holds the lock. */
    private void sweepBoth(Instant now, BiConsumer<Object, Instant> drop) {
        records.sweep(now, drop);
        runs.sweep(now, drop);
    }
}
