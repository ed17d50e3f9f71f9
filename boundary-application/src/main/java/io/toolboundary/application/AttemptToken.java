package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Identifies one attempt to run an invocation. The store keeps it with the record so that a retried
 * begin or complete from the same attempt is recognised as a retry, and a complete from another
 * attempt is refused.
 *
 * @param value 1 to 64 characters of {@code [A-Za-z0-9-]}
 */
public record AttemptToken(String value) {

    /** 80 random bits, drawn once per process: what sets this process's tokens apart from every other's. */
    private static final String PROCESS_PREFIX = HexFormat.of().formatHex(new SecureRandom().generateSeed(10)) + "-";
    private static final AtomicLong COUNTER = new AtomicLong();

    /**
     * Builds a token.
     *
     * @param value 1 to 64 characters of {@code [A-Za-z0-9-]}
     * @throws IllegalArgumentException when the value is empty, too long or has another character
     */
    public AttemptToken {
        requireNonNull(value, "value is null");
        if (value.isEmpty() || value.length() > 64 || !allowed(value)) {
            throw new IllegalArgumentException("value must be 1 to 64 characters of [A-Za-z0-9-]");
        }
    }

    /**
     * A fresh token that no other call gets, in this process or another: a random prefix drawn once per
     * process (80 bits from {@link SecureRandom}) and a counter, for example
     * {@code 3f9c0a6e1d2b7c4e8a91-1b}. Unique, not secret: knowing one token tells the next of the same
     * process, which grants nothing, since a token only tells one attempt's writes from another's.
     *
     * @return a new token, unique across processes
     */
    public static AttemptToken random() {
        return new AttemptToken(PROCESS_PREFIX + Long.toHexString(COUNTER.incrementAndGet()));
    }

    private static boolean allowed(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
