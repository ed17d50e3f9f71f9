package io.toolboundary.application.spi;

import static java.util.Objects.requireNonNull;

/**
 * Identifies one attempt to run an invocation. The store keeps it with the record so that a retried
 * begin or complete from the same attempt is recognised as a retry, and a complete from another
 * attempt is refused.
 *
 * @param value 1 to 64 characters of {@code [A-Za-z0-9-]}
 */
public record AttemptToken(String value) {

    /**
     * Builds a token.
     *
     * @param value 1 to 64 characters of {@code [A-Za-z0-9-]}
     * @throws IllegalArgumentException when the value is empty, too long or has another character
     */
    public AttemptToken {
        Tokens.requireValid(requireNonNull(value, "value is null"));
    }

    /**
     * {@return a new token, unique across processes: a random prefix drawn once per process (80 bits from
     * {@link java.security.SecureRandom}) and a counter, for example {@code 3f9c0a6e1d2b7c4e8a91-27}} Unique, not
     * secret: a token only tells one attempt's writes from another's.
     */
    public static AttemptToken random() {
        return new AttemptToken(Tokens.next());
    }
}
