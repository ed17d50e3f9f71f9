package io.toolboundary.application.spi;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/** The form and the source of {@link AttemptToken} and {@link RunToken} values. */
final class Tokens {

    /** 80 random bits, drawn once per process: what sets this process's tokens apart from every other's. */
    private static final String PROCESS_PREFIX = HexFormat.of().formatHex(new SecureRandom().generateSeed(10)) + "-";
    private static final AtomicLong COUNTER = new AtomicLong();
    /** Bits 45 ({@code -}) and 48 to 57 ({@code 0-9}): the allowed characters 0 to 63. */
    private static final long ALLOWED_BELOW_64 = 1L << '-' | 0x3FFL << '0';
    /** Bits 1 to 26 ({@code A-Z}) and 33 to 58 ({@code a-z}): the allowed characters 64 to 127, less 64. */
    private static final long ALLOWED_BELOW_128 = 0x3FFFFFFL << ('A' - 64) | 0x3FFFFFFL << ('a' - 64);

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
            // A shift and a test per character, no branch on which range it is in: a token's hex digits
            // and letters alternate at random, which a chain of range tests mispredicts.
            long mask = c < 64 ? ALLOWED_BELOW_64 : c < 128 ? ALLOWED_BELOW_128 : 0L;
            if ((mask >>> c & 1L) == 0) {
                return false;
            }
        }
        return true;
    }
}
