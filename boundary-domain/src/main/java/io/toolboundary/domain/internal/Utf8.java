package io.toolboundary.domain.internal;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.StandardCharsets;

/**
 * UTF-8 facts about Java text, computed without encoding a copy of it (a long string's leading ASCII run is
 * checked a chunk at a time in a small buffer).
 *
 * <p>A well-formed surrogate pair counts 4 bytes. A lone surrogate cannot be encoded exactly; it is
 * counted as its replacement, U+FFFD (3 bytes), and {@link #isWellFormed} reports it, so that callers
 * reject such text instead of storing an altered copy.
 */
public final class Utf8 {

    /**
     * The shortest string whose ASCII run {@link #asciiChunks} reads: below it, its buffers cost more than
     * they save.
     */
    static final int BULK_MIN_LENGTH = 2048;

    /** The characters {@link #asciiChunks} copies and checks at a time. */
    static final int CHUNK = 1024;

    private Utf8() {
    }

    /**
     * {@return the text's UTF-8 length, a lone surrogate counted as U+FFFD (3 bytes)}
     *
     * @param text the text
     */
    public static long byteLength(CharSequence text) {
        requireNonNull(text, "text is null");
        return count(text, Long.MAX_VALUE);
    }

    /**
     * {@return true when the text takes more than {@code limit} bytes in UTF-8} Stops counting past the limit.
     *
     * @param text the text
     * @param limit the limit in UTF-8 bytes
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
        int length = text.length();
        int i = asciiPrefix(text, length);
        long bytes = i;
        for (; i < length; i++) {
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
     * {@return true when UTF-8 keeps the text exactly: it has no lone surrogate}
     *
     * @param text the text
     */
    public static boolean isWellFormed(CharSequence text) {
        requireNonNull(text, "text is null");
        return isWellFormed(text, 0, text.length());
    }

    /**
     * {@return true when the characters {@code [from, to)} have no lone surrogate}
     *
     * @param text the text
     * @param from the first index checked
     * @param to the index after the last one checked
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

    /**
     * The UTF-8 size of a text a domain value holds, for constructors whose callers have already refused
     * ill-formed text with {@code TEXT_NOT_UNICODE}.
     *
     * @param text the text
     * @param what what the text is, named in the exception
     * @return its size in UTF-8 bytes
     * @throws IllegalArgumentException when the text has a lone surrogate
     */
    public static long measure(String text, String what) {
        long bytes = wellFormedByteLength(text);
        if (bytes < 0) {
            throw new IllegalArgumentException(what + " is not well-formed Unicode (it has a lone surrogate)");
        }
        return bytes;
    }

    /** The length of the text's leading run of ASCII characters: one byte each, nothing else to check. */
    private static int asciiPrefix(CharSequence text, int length) {
        int i = 0;
        if (text instanceof String string) {
            i = length >= BULK_MIN_LENGTH ? asciiChunks(string, length) : asciiOctets(string, length);
        }
        while (i < length && text.charAt(i) < 0x80) {
            i++;
        }
        return i;
    }

    /**
     * How many characters of a leading ASCII run a long string holds, read a chunk at a time: each chunk is
     * copied out of the string and handed to the JDK's US-ASCII encoder, which checks an array with vector
     * instructions (where the eight-character steps of {@link #asciiOctets} read one character at a time)
     * and stops at the first character that is not ASCII.
     */
    private static int asciiChunks(String text, int length) {
        char[] chars = new char[CHUNK];
        CharBuffer in = CharBuffer.wrap(chars);
        ByteBuffer out = ByteBuffer.allocate(CHUNK);
        CharsetEncoder ascii = StandardCharsets.US_ASCII.newEncoder();
        int i = 0;
        while (i < length) {
            int n = Math.min(CHUNK, length - i);
            text.getChars(i, i + n, chars, 0);
            in.clear().limit(n);
            out.clear();
            ascii.encode(in, out, false);
            if (in.position() < n) {
                return i + in.position();
            }
            i += n;
        }
        return i;
    }

    /**
     * How many characters of a leading ASCII run a string holds in whole steps of eight: the eight or'ed
     * together stay below 0x80 only when each does, so a step takes one test instead of eight.
     */
    private static int asciiOctets(String text, int length) {
        int i = 0;
        for (int last = length - 8; i <= last; i += 8) {
            if ((text.charAt(i) | text.charAt(i + 1) | text.charAt(i + 2) | text.charAt(i + 3) | text.charAt(i + 4)
                    | text.charAt(i + 5) | text.charAt(i + 6) | text.charAt(i + 7)) >= 0x80) {
                break;
            }
        }
        return i;
    }

    private static long count(CharSequence text, long stopAfter) {
        int length = text.length();
        int i = asciiPrefix(text, stopAfter < length ? (int) stopAfter + 1 : length);
        long bytes = i;
        for (; i < length && bytes <= stopAfter; i++) {
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
