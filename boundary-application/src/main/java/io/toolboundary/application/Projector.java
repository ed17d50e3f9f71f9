package io.toolboundary.application;

import io.toolboundary.domain.Projection;
import java.util.stream.Stream;

/**
 * Turns a raw tool response into the bounded, evidence-labelled text an agent may see; what RAG, log and SQL
 * tool teams implement. Return {@link Projection#evidenceFound} or {@link Projection#noEvidence} with the scope
 * searched; the boundary checks the result and ends the record in ERROR rather than truncate. The static
 * helpers cut to a UTF-8 budget and mask credentials:
 *
 * <pre>{@code
 * String shown = Projector.firstLines(Projector.mask(rawResponse), 4_096);
 * }</pre>
 */
@FunctionalInterface
public interface Projector {

    /** What {@link #mask} puts in place of a credential. */
    String MASK = ProjectorText.MASK;

    /**
     * Projects a raw response.
     *
     * @param request the request that produced it
     * @param rawResponse the complete raw response, within the raw limit
     * @return the projection
     * @throws Exception on any failure; the record ends in ERROR/PROJECTION_FAILED
     */
    Projection project(ToolRequest request, String rawResponse) throws Exception;

    /**
     * The longest start of {@code text} that takes at most {@code maxBytes} bytes in UTF-8, cut between
     * code points: a character that does not fit whole is left out whole, so a surrogate pair is never
     * split. Text of exactly {@code maxBytes} bytes comes back whole; one more byte and the last
     * character is cut. A lone surrogate comes out as U+FFFD (3 bytes).
     *
     * @param text the text to cut
     * @param maxBytes the budget in UTF-8 bytes, 0 or more
     * @return the cut text, well-formed and at most {@code maxBytes} UTF-8 bytes
     * @throws IllegalArgumentException when {@code maxBytes} is negative
     */
    static String cut(CharSequence text, long maxBytes) {
        return ProjectorText.cut(text, maxBytes);
    }

    /**
     * The first whole lines of {@code text} that fit {@code maxBytes} UTF-8 bytes together, joined by
     * {@code \n} (each separator counts 1 byte); lines end as in {@link String#lines()}. It stops at the
     * first line that does not fit; when even the first does not, the result is empty.
     *
     * @param text the text whose lines are taken
     * @param maxBytes the budget in UTF-8 bytes, 0 or more
     * @return the lines that fit, well-formed and at most {@code maxBytes} UTF-8 bytes
     * @throws IllegalArgumentException when {@code maxBytes} is negative
     */
    static String firstLines(CharSequence text, long maxBytes) {
        return ProjectorText.firstLines(text, maxBytes);
    }

    /**
     * As {@link #firstLines(CharSequence, long)}, for lines already filtered or mapped, for example
     * {@code raw.lines().filter(l -> l.contains("ERROR"))}; reads the stream only as far as the lines fit.
     *
     * @param lines the lines, none of them null
     * @param maxBytes the budget in UTF-8 bytes, 0 or more
     * @return the lines that fit, well-formed and at most {@code maxBytes} UTF-8 bytes
     * @throws IllegalArgumentException when {@code maxBytes} is negative
     */
    static String firstLines(Stream<? extends CharSequence> lines, long maxBytes) {
        return ProjectorText.firstLines(lines, maxBytes);
    }

    /**
     * Masks credentials: {@code key=value} and {@code key: value} pairs whose key names a secret
     * (password, token, secret, api key, authorization...), bearer and basic credentials, user info in
     * URLs and JDBC strings, PEM private keys, well-known API key shapes and JWTs. It errs on the side of
     * masking, is idempotent and runs in linear time; it masks shapes, not meanings, so project only the
     * columns you need. Mask first, then cut: masking can make text longer.
     *
     * @param text the text to mask
     * @return the masked text
     */
    static String mask(CharSequence text) {
        return ProjectorText.mask(text);
    }

    /**
     * {@return the size of {@code text} in UTF-8 bytes, as the boundary counts it (a lone surrogate as 3)}
     *
     * @param text the text
     */
    static long utf8Length(CharSequence text) {
        return io.toolboundary.domain.internal.Utf8.byteLength(text);
    }
}
