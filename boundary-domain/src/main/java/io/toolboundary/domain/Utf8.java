package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

/**
 * UTF-8 facts about Java text, computed without encoding a copy.
 *
 * <p>A well-formed surrogate pair counts 4 bytes. A lone surrogate cannot be encoded exactly; it is
 * counted as its replacement, U+FFFD (3 bytes), and {@link #isWellFormed} reports it, so that callers
 * reject such text instead of storing an altered copy.
 */
public final class Utf8 {

    private Utf8() {
    }

    /**
     * The number of bytes the text takes in UTF-8.
     *
     * @param text the text
     * @return its UTF-8 length, a lone surrogate counted as U+FFFD (3 bytes)
     */
    public static long byteLength(CharSequence text) {
        requireNonNull(text, "text is null");
        return count(text, Long.MAX_VALUE);
    }

    /**
     * Whether the text is over a byte limit; stops counting past the limit.
     *
     * @param text the text
     * @param limit the limit in UTF-8 bytes
     * @return true when the text takes more than {@code limit} bytes in UTF-8
     */
    public static boolean exceeds(CharSequence text, long limit) {
        requireNonNull(text, "text is null");
        return count(text, limit) > limit;
    }

    /**
     * {@link #byteLength} and {@link #isWellFormed} in one pass: the number of bytes the text takes in
     * UTF-8, or -1 when it has a lone surrogate (UTF-8 cannot keep it exactly).
     *
     * @param text the text
     * @return its UTF-8 length, or -1 when it has a lone surrogate
     */
    public static long wellFormedByteLength(CharSequence text) {
        requireNonNull(text, "text is null");
        long bytes = 0;
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (!Character.isSurrogate(c)) {
                bytes += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                return -1;
            }
        }
        return bytes;
    }

    /**
     * Whether UTF-8 keeps the text exactly.
     *
     * @param text the text
     * @return true when the text has no lone surrogate
     */
    public static boolean isWellFormed(CharSequence text) {
        requireNonNull(text, "text is null");
        return isWellFormed(text, 0, text.length());
    }

    /**
     * Whether UTF-8 keeps a range of the text exactly.
     *
     * @param text the text
     * @param from the first index checked
     * @param to the index after the last one checked
     * @return true when the characters {@code [from, to)} have no lone surrogate
     */
    public static boolean isWellFormed(CharSequence text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return false;
                }
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    private static long count(CharSequence text, long stopAfter) {
        long bytes = 0;
        int length = text.length();
        for (int i = 0; i < length && bytes <= stopAfter; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < length
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
