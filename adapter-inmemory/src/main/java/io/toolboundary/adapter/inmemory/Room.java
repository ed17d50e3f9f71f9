package io.toolboundary.adapter.inmemory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory store's bound: how many records, how many of their bytes and how many runs it holds, each against its maximum. Room is taken before anything is inserted, all or nothing, by
 * compare-and-set, so that racing threads can never take the store over a bound. Thread-safe.
 */
final class Room {

    private final long maxRecords;
    private final long maxBytes;
    private final long maxRuns;
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong runs = new AtomicLong();

    Room(long maxRecords, long maxBytes, long maxRuns) {
        this.maxRecords = maxRecords;
        this.maxBytes = maxBytes;
        this.maxRuns = maxRuns;
    }

    /** Takes room for one record of {@code recordBytes}, all or nothing. */
    boolean admit(long recordBytes) {
        if (!take(records, 1, maxRecords)) {
            return false;
        }
        if (!take(bytes, recordBytes, maxBytes)) {
            records.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Takes room for one run. */
    boolean admitRun() {
        return take(runs, 1, maxRuns);
    }

    /** Takes {@code growth} more bytes for a record that grows; a shrinking record always fits. */
    boolean grow(long growth) {
        return take(bytes, growth, maxBytes);
    }

    /** Gives back bytes taken by {@link #grow} for a change that did not happen. */
    void ungrow(long growth) {
        bytes.addAndGet(-growth);
    }

    /** Gives back the room of a record dropped, of {@code recordBytes}. */
    void releaseRecord(long recordBytes) {
        records.decrementAndGet();
        bytes.addAndGet(-recordBytes);
    }

    /** Gives back the room of a run dropped. */
    void releaseRun() {
        runs.decrementAndGet();
    }

    /** The bytes held now. */
    long heldBytes() {
        return bytes.get();
    }

    /** Adds {@code amount} to {@code held} unless that would take it over {@code max}; a negative amount always fits. */
    private static boolean take(AtomicLong held, long amount, long max) {
        while (true) {
            long now = held.get();
            long next = now + amount;
            if (amount > 0 && (next > max || next < now)) {
                return false;
            }
            if (held.compareAndSet(now, next)) {
                return true;
            }
        }
    }
}
