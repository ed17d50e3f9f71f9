package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import java.util.UUID;

/**
 * Identifies one attempt to run an invocation. The store keeps it with the record so that a retried
 * begin or complete from the same attempt is recognised as a retry, and a complete from another
 * attempt is refused.
 *
 * @param value 1 to 64 characters of {@code [A-Za-z0-9-]}
 */
public record AttemptToken(String value) {

    public AttemptToken {
        requireNonNull(value, "value is null");
        if (value.isEmpty() || value.length() > 64 || !value.chars().allMatch(AttemptToken::allowed)) {
            throw new IllegalArgumentException("value must be 1 to 64 characters of [A-Za-z0-9-]");
        }
    }

    /** A fresh random token. */
    public static AttemptToken random() {
        return new AttemptToken(UUID.randomUUID().toString());
    }

    private static boolean allowed(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    }
}
