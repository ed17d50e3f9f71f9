package io.toolboundary.export;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * The pause after a failed round of a background writer: from {@code min}, doubling after each further
 * failure up to {@code max}; back to {@code min} after a success.
 *
 * @param min the first pause, positive
 * @param max the longest pause, at least {@code min}
 */
record Backoff(Duration min, Duration max) {

    /** 200 ms, doubling up to 30 s. */
    static final Backoff DEFAULT = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));

    /**
     * @param min the first pause, positive
     * @param max the longest pause, at least {@code min}
     */
    Backoff {
        positive(min, "min backoff");
        positive(max, "max backoff");
        if (max.compareTo(min) < 0) {
            throw new IllegalArgumentException("max backoff " + max + " is below min backoff " + min);
        }
    }

    /** {@return the pause after one more failure than {@code current}'s} */
    Duration after(Duration current) {
        Duration doubled = current.multipliedBy(2);
        return doubled.compareTo(max) > 0 ? max : doubled;
    }

    /** {@return {@code value}, refused with its name when null, zero or negative} */
    static Duration positive(Duration value, String name) {
        requireNonNull(value, name + " is null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }
}
