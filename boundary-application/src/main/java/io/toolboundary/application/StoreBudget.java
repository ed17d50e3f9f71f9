package io.toolboundary.application;

import java.time.Duration;

/**
 * The store time one call may still spend: it starts when the call does and never grows. Readings come
 * from {@link System#nanoTime()}, never from the boundary's clock, which may be a test's.
 */
final class StoreBudget {

    private static final Duration ONE_MILLI = Duration.ofMillis(1);

    private final Duration total;
    private final long deadlineNanos;

    private StoreBudget(Duration total) {
        this.total = total;
        this.deadlineNanos = System.nanoTime() + total.toNanos();
    }

    /** A budget of {@code total}, starting now. */
    static StoreBudget startingNow(Duration total) {
        return new StoreBudget(total);
    }

    /** Half the budget at most, and no more than {@code beforeDeadline}; at least one millisecond. */
    Duration forBegin(Duration beforeDeadline) {
        return atLeastOneMilli(min(min(beforeDeadline, total.dividedBy(2)), remaining()));
    }

    /** What is left of the budget; at least one millisecond, so that a store call can still be made. */
    Duration remaining() {
        return atLeastOneMilli(Duration.ofNanos(deadlineNanos - System.nanoTime()));
    }

    /** Whether any of the budget is left. */
    boolean hasTimeLeft() {
        return deadlineNanos - System.nanoTime() > 0;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration atLeastOneMilli(Duration d) {
        return d.compareTo(ONE_MILLI) < 0 ? ONE_MILLI : d;
    }
}
