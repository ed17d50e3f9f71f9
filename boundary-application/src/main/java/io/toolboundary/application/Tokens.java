package io.toolboundary.application;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/** The form and the source of {@link AttemptToken} and {@link RunToken} values. */
final class Tokens {

    /** 80 random bits, drawn once per process: what sets this process's tokens apart from every other's. */
    private static final String PROCESS_PREFIX = HexFormat.of().formatHex(new SecureRandom().generateSeed(10)) + "-";
    private static final AtomicLong COUNTER = new AtomicLong();

    private Tokens() {
    }

    /** A value no other call of this method returns, in this process or another. */
    static String next() {
        // Decimal: the concatenation writes the digits straight into the token, with no string of its own.
        return PROCESS_PREFIX + COUNTER.incrementAndGet();
    }

    /** Throws unless {@code value} is 1 to 64 characters of {@code [A-Za-z0-9-]}. */
    static void requireValid(String value) {
        if (value.isEmpty() || value.length() > 64 || !allowed(value)) {
            throw new IllegalArgumentException("value must be 1 to 64 characters of [A-Za-z0-9-]");
        }
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
