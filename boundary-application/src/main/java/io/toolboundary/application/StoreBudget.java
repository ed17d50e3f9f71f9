package io.toolboundary.application;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The store time one call may still spend: it starts when the call does and never grows. Readings come
 * from {@link System#nanoTime()}, never from the boundary's clock, which may be a test's.
 */
final class StoreBudget {

    private static final Duration ONE_MILLI = Duration.ofMillis(1);

    private final Duration total;
    /** Half of {@link #total}, begin's share, computed once per store timeout rather than once per call. */
    private final Duration half;
    private final LongSupplier nanoTime;
    /** The reading the budget started at; a budget cut from another keeps its start. */
    private final long startNanos;
    private final long deadlineNanos;

    private StoreBudget(Duration total, Duration half, LongSupplier nanoTime, long startNanos, long deadlineNanos) {
        this.total = total;
        this.half = half;
        this.nanoTime = nanoTime;
        this.startNanos = startNanos;
        this.deadlineNanos = deadlineNanos;
    }

    /** A budget of {@code total}, starting now by {@link System#nanoTime()}. */
    static StoreBudget startingNow(Duration total) {
        return startingNow(total, System::nanoTime);
    }

    /** A budget of {@code total}, starting now by {@code nanoTime} (a test's, to move time without waiting). */
    static StoreBudget startingNow(Duration total, LongSupplier nanoTime) {
        return startingNow(total, half(total), nanoTime);
    }

    /** A budget of {@code total}, whose {@link #half} the caller computed once, starting now by {@code nanoTime}. */
    static StoreBudget startingNow(Duration total, Duration half, LongSupplier nanoTime) {
        long now = nanoTime.getAsLong();
        return new StoreBudget(total, half, nanoTime, now, now + total.toNanos());
    }

    /**
     * This budget, ending no later than {@code limit} from its start (the time to a run's deadline): the
     * calls spent from it, clean-ups included, stop at the earlier of the two.
     */
    StoreBudget within(Duration limit) {
        return withinNanos(limit.compareTo(total) >= 0 ? total.toNanos() : Math.max(limit.toNanos(), 0L));
    }

    /** {@link #within(Duration)}, the limit in nanoseconds (at most the total's); reads no time. */
    StoreBudget withinNanos(long limit) {
        long limitNanos = Math.max(Math.min(limit, total.toNanos()), 0L);
        // The usual run's deadline is far beyond this call's budget: then the budget is this one.
        return deadlineNanos - (startNanos + limitNanos) <= 0 ? this
                : new StoreBudget(total, half, nanoTime, startNanos, startNanos + limitNanos);
    }

    /**
     * Begin's share, for the first store call, made as the budget starts: half the whole budget at most,
     * and no more than the budget holds from its start; at least one millisecond. Reads no time.
     */
    Duration forBegin() {
        long held = deadlineNanos - startNanos;
        return half.toNanos() <= held ? atLeastOneMilli(half) : atLeastOneMilli(Duration.ofNanos(held));
    }

    /** What is left of the budget; at least one millisecond, so that a store call can still be made. */
    Duration remaining() {
        return atLeastOneMilli(Duration.ofNanos(deadlineNanos - nanoTime.getAsLong()));
    }

    /** Whether any of the budget is left. */
    boolean hasTimeLeft() {
        return deadlineNanos - nanoTime.getAsLong() > 0;
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
