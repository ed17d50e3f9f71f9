package io.toolboundary.adapter.inmemory;

import java.time.Instant;
import java.util.function.BiConsumer;

/**
 * When the store's records and runs expire, each kind in a schedule of its own: records all get the one
 * record TTL, so each is queued at the end, in order of expiry; runs live to their deadline plus that
 * TTL, and in the same schedule would put every later record out of order. Thread-safe.
 */
final class Expiries {

    /** The records' schedule: each record's one entry, scheduled at its begin (completion keeps its expiry). */
    final ExpirySchedule<RecordTable.Entry> records = new ExpirySchedule<>(RecordTable.Entry::expiresAt);
    /** The runs' schedule. */
    final ExpirySchedule<RunTable.RunState> runs = new ExpirySchedule<>(RunTable.RunState::expiresAt);

    /** Hands whatever is due by {@code now} to {@code drop}, unless a sweep is under way; see {@link ExpirySchedule}. */
    void sweepNowAndThen(Instant now, BiConsumer<Object, Instant> drop) {
        records.sweepNowAndThen(now, drop);
        runs.sweepNowAndThen(now, drop);
    }

    /** Hands whatever is due by {@code now} to {@code drop}, waiting for a sweep under way. */
    void sweep(Instant now, BiConsumer<Object, Instant> drop) {
        records.sweep(now, drop);
        runs.sweep(now, drop);
    }
}
