package io.toolboundary.application.json;

import java.util.Arrays;

/**
 * The growing byte buffer {@link CanonicalJson} writes into: ASCII, and UTF-16 code units as UTF-8
 * with the escapes RFC 8785 writes in strings ({@code \"}, {@code \\}, the short forms of
 * {@code \b \f \n \r \t} and {@code &#92;u00xx} for the other control characters).
 */
final class CanonicalBytes {

    private static final byte[] LOWER_HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    /**
     * A buffer above this size (the default arguments limit) is dropped after a call, so that one large
     * document does not stay.
     */
    private static final int KEPT_BYTES = 1 << 16;
    private static final int INITIAL_BYTES = 1024;
    /** The most bytes one code unit takes: a control character as {@code &#92;u00xx}. */
    private static final int MAX_UNIT_BYTES = 6;

    private byte[] bytes = new byte[INITIAL_BYTES];
    private int size;

    /** The buffer, valid up to {@link #size()}. */
    byte[] bytes() {
        return bytes;
    }

    int size() {
        return size;
    }

    /** Empties the buffer, making room for about {@code expected} bytes at once. */
    void clear(int expected) {
        size = 0;
        reserve(expected);
    }

    /** Lets go of a buffer a large document grew. */
    void trim() {
        if (bytes.length > KEPT_BYTES) {
            bytes = new byte[INITIAL_BYTES];
        }
    }

    void put(byte b) {
        if (size == bytes.length) {
            reserve(1);
        }
        bytes[size++] = b;
    }

    void put(byte[] from, int length) {
        reserve(length);
        System.arraycopy(from, 0, bytes, size, length);
        size += length;
    }

    /** Writes the characters of an ASCII text as bytes. */
    void ascii(String text) {
        reserve(text.length());
        for (int i = 0; i < text.length(); i++) {
            bytes[size++] = (byte) text.charAt(i);
        }
    }

    /**
     * {@return the index of the first character not copied} Copies the characters of {@code text} from {@code from}
     * that RFC 8785 writes as themselves in one byte (ASCII but controls, quote and backslash), up to the first other
     * one or {@code to}.
     */
    int plainAscii(String text, int from, int to) {
        reserve(to - from);
        byte[] into = bytes;
        int at = size;
        int i = from;
        while (i < to) {
            char c = text.charAt(i);
            if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
                break;
            }
            into[at++] = (byte) c;
            i++;
        }
        size = at;
        return i;
    }

    /** Writes one UTF-16 code unit that is not a surrogate, escaped as RFC 8785 escapes it in a string. */
    void unit(char c) {
        reserve(MAX_UNIT_BYTES);
        if (c >= 0x80) {
            if (c < 0x800) {
                bytes[size++] = (byte) (0xC0 | c >> 6);
            } else {
                bytes[size++] = (byte) (0xE0 | c >> 12);
                bytes[size++] = (byte) (0x80 | c >> 6 & 0x3F);
            }
            bytes[size++] = (byte) (0x80 | c & 0x3F);
        } else if (c >= 0x20 && c != '"' && c != '\\') {
            bytes[size++] = (byte) c;
        } else {
            bytes[size++] = '\\';
            switch (c) {
                case '"', '\\' -> bytes[size++] = (byte) c;
                case '\b' -> bytes[size++] = 'b';
                case '\f' -> bytes[size++] = 'f';
                case '\n' -> bytes[size++] = 'n';
                case '\r' -> bytes[size++] = 'r';
                case '\t' -> bytes[size++] = 't';
                default -> {
                    bytes[size++] = 'u';
                    bytes[size++] = '0';
                    bytes[size++] = '0';
                    bytes[size++] = LOWER_HEX[c >> 4];
                    bytes[size++] = LOWER_HEX[c & 0xF];
                }
            }
        }
    }

    /** Writes a supplementary code point (from a surrogate pair) as UTF-8. */
    void codePoint(int codePoint) {
        reserve(4);
        bytes[size++] = (byte) (0xF0 | codePoint >> 18);
        bytes[size++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
        bytes[size++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
        bytes[size++] = (byte) (0x80 | codePoint & 0x3F);
    }

    private void reserve(int more) {
        if (bytes.length - size < more) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
