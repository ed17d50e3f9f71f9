package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it.
 *
 * <p>Safe to read and advance from many threads; every reader sees each move as one step. {@code advance}
 * only moves it forward; {@code set} may also move it back, for tests of a clock set back. Clocks
 * derived with {@link #withZone(ZoneId)} share this clock's instant.
 */
public final class MutableClock extends Clock {

    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    /**
     * A clock showing {@code start} in UTC.
     *
     * @param start the first instant the clock shows
     */
    public MutableClock(Instant start) {
        this(new AtomicReference<>(requireNonNull(start, "start is null")), ZoneOffset.UTC);
    }

    private MutableClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = requireNonNull(zone, "zone is null");
    }

    /**
     * {@return a new clock showing {@code start} in UTC, the same as {@code new MutableClock(start)}}
     *
     * @param start the first instant the clock shows
     * @throws NullPointerException when {@code start} is null
     */
    public static MutableClock at(Instant start) {
        return new MutableClock(start);
    }

    /**
     * Moves the clock forward.
     *
     * @param amount how far; zero leaves it where it is
     * @throws IllegalArgumentException when the amount is negative
     */
    public void advance(Duration amount) {
        requireNonNull(amount, "amount is null");
        if (amount.isNegative()) {
            throw new IllegalArgumentException("amount must not be negative, was " + amount);
        }
        now.updateAndGet(instant -> instant.plus(amount));
    }

    /**
     * Sets the clock to an instant, earlier or later than now: for tests of a clock that is set back.
     *
     * @param instant the new reading
     */
    public void set(Instant instant) {
        now.set(requireNonNull(instant, "instant is null"));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public MutableClock withZone(ZoneId zone) {
        return new MutableClock(now, zone);
    }

    @Override
    public String toString() {
        return "MutableClock[" + now.get() + "," + zone + "]";
    }
}
