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
    private final LongSupplier nanoTime;
    private final long deadlineNanos;

    private StoreBudget(Duration total, LongSupplier nanoTime, long deadlineNanos) {
        this.total = total;
        this.nanoTime = nanoTime;
        this.deadlineNanos = deadlineNanos;
    }

    /** A budget of {@code total}, starting now by {@link System#nanoTime()}. */
    static StoreBudget startingNow(Duration total) {
        return startingNow(total, System::nanoTime);
    }

    /** A budget of {@code total}, starting now by {@code nanoTime} (a test's, to move time without waiting). */
    static StoreBudget startingNow(Duration total, LongSupplier nanoTime) {
        return new StoreBudget(total, nanoTime, nanoTime.getAsLong() + total.toNanos());
    }

    /**
     * This budget, ending no later than {@code limit} from now (the time to a run's deadline): the calls
     * spent from it, clean-ups included, stop at the earlier of the two.
     */
    StoreBudget within(Duration limit) {
        long now = nanoTime.getAsLong();
        long limitNanos = limit.compareTo(total) >= 0 ? total.toNanos() : Math.max(limit.toNanos(), 0L);
        return new StoreBudget(total, nanoTime, Math.min(deadlineNanos, now + limitNanos));
    }

    /** Half the whole budget at most, and no more than is left; at least one millisecond. */
    Duration forBegin() {
        return atLeastOneMilli(min(total.dividedBy(2), remaining()));
    }

    /** What is left of the budget; at least one millisecond, so that a store call can still be made. */
    Duration remaining() {
        return atLeastOneMilli(Duration.ofNanos(deadlineNanos - nanoTime.getAsLong()));
    }

    /** Whether any of the budget is left. */
    boolean hasTimeLeft() {
        return deadlineNanos - nanoTime.getAsLong() > 0;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration atLeastOneMilli(Duration d) {
        return d.compareTo(ONE_MILLI) < 0 ? ONE_MILLI : d;
    }
}
