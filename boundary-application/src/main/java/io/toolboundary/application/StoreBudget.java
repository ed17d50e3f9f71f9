package io.toolboundary.application;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The store time one call may still spend: it starts with the call's first store call and never grows.
 * Readings come from {@link System#nanoTime()}, never from the boundary's clock, which may be a test's.
 */
final class StoreBudget {

    private static final Duration ONE_MILLI = Duration.ofMillis(1);

    /**
     * What every budget of one boundary shares, made once: the whole budget, {@code half} of it (begin's share),
     * and the monotonic clock it is read by ({@link System#nanoTime()} or a test's).
     */
    record Terms(Duration total, Duration half, LongSupplier nanoTime) {

        /** The terms of a budget of {@code total}, read by {@code nanoTime}. */
        static Terms of(Duration total, LongSupplier nanoTime) {
            return new Terms(total, StoreBudget.half(total), nanoTime);
        }

        /** A budget on these terms, starting now: one reading of the clock. */
        StoreBudget startNow() {
            long now = nanoTime.getAsLong();
            return new StoreBudget(this, now, now + total.toNanos(), null);
        }
    }

    private final Terms terms;
    /** The reading the budget started at; a budget cut from another keeps its start. */
    private final long startNanos;
    private final long deadlineNanos;
    /** The budget this one was cut from, or this one: it counts the time spent by both. */
    private final StoreBudget root;
    /** Nanoseconds spent in store calls, by this budget and every budget cut from it (a root's; one call's thread only). */
    private long spentNanos;

    private StoreBudget(Terms terms, long startNanos, long deadlineNanos, StoreBudget root) {
        this.terms = terms;
        this.startNanos = startNanos;
        this.deadlineNanos = deadlineNanos;
        this.root = root == null ? this : root;
    }

    /** {@return a reading of the budget's clock, to time one store call with {@link #spentSince}} */
    long now() {
        return terms.nanoTime().getAsLong();
    }

    /** Counts the time from {@code started}, a reading of {@link #now}, as spent in a store call. */
    void spentSince(long started) {
        root.spentNanos += terms.nanoTime().getAsLong() - started;
    }

    /** {@return the time spent in store calls so far, by this budget and every budget cut from it} */
    Duration spent() {
        return Duration.ofNanos(root.spentNanos);
    }

    /**
     * This budget, ending no later than {@code limit} nanoseconds from its start (the time to a run's
     * deadline): the calls spent from it, clean-ups included, stop at the earlier of the two. Reads no time.
     */
    StoreBudget withinNanos(long limit) {
        long limitNanos = Math.max(Math.min(limit, terms.total().toNanos()), 0L);
        // The usual run's deadline is far beyond this call's budget: then the budget is this one.
        return deadlineNanos - (startNanos + limitNanos) <= 0 ? this
                : new StoreBudget(terms, startNanos, startNanos + limitNanos, root);
    }

    /**
     * Begin's share, for the first store call, made as the budget starts: half the whole budget at most,
     * and no more than the budget holds from its start; at least one millisecond. Reads no time.
     */
    Duration forBegin() {
        long held = deadlineNanos - startNanos;
        Duration half = terms.half();
        return half.toNanos() <= held ? atLeastOneMilli(half) : atLeastOneMilli(Duration.ofNanos(held));
    }

    /** What is left of the budget; at least one millisecond, so that a store call can still be made. */
    Duration remaining() {
        return atLeastOneMilli(Duration.ofNanos(deadlineNanos - terms.nanoTime().getAsLong()));
    }

    /** Whether any of the budget is left. */
    boolean hasTimeLeft() {
        return deadlineNanos - terms.nanoTime().getAsLong() > 0;
    }

    /** Half of a non-negative duration, rounded down to the nanosecond, as Duration.dividedBy(2) but without its BigDecimal. */
    static Duration half(Duration d) {
        long seconds = d.getSeconds();
        return Duration.ofSeconds(seconds / 2, (seconds % 2) * 500_000_000L + d.getNano() / 2);
    }

    private static Duration atLeastOneMilli(Duration d) {
        return d.compareTo(ONE_MILLI) < 0 ? ONE_MILLI : d;
    }
}
