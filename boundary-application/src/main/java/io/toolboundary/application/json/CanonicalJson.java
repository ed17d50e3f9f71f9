package io.toolboundary.application.json;

import java.util.Arrays;

/**
 * Reads one JSON object in one pass and writes its RFC 8785 form as UTF-8 into a buffer it reuses, for one
 * thread at a time. When an object closes, its members' bytes are put in name order ({@link Members}).
 * Containers are on explicit stacks, never recursion, so nesting costs memory, not stack. A lone surrogate is
 * never accepted; the caller tells it apart from other refusals.
 */
final class CanonicalJson {

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    /** An open array on the container stack; an open object holds the index of its first member instead. */
    private static final int ARRAY = -1;
    private static final int INITIAL_DEPTH = 16;
    private static final int KEPT_DEPTH = 1 << 10;

    private final Members members = new Members();
    private final byte[] number = new byte[NumberForms.MAX_FORM_LENGTH];
    private final CanonicalBytes out = new CanonicalBytes();
    private int[] open = new int[INITIAL_DEPTH];
    private int depth;

    /** The buffer: the prefix, then the canonical form; valid up to {@link #size()}. */
    byte[] bytes() {
        return out.bytes();
    }

    int size() {
        return out.size();
    }

    /**
     * Empties the buffer and writes a prefix and one NUL byte after it: a tool's name, which is ASCII
     * ({@code ToolName} allows {@code [A-Za-z0-9_.:-]} only), so its characters are its UTF-8 bytes.
     * Room is made for a canonical form of {@code expectedLength} bytes, usually about the text's length.
     */
    void start(String asciiPrefix, int expectedLength) {
        out.clear(asciiPrefix.length() + 1 + expectedLength);
        depth = 0;
        members.clear();
        out.ascii(asciiPrefix);
        out.put((byte) 0);
    }

    /** Lets go of buffers a large document grew. */
    void trim() {
        out.trim();
        members.trim();
        if (open.length > KEPT_DEPTH) {
            open = new int[INITIAL_DEPTH];
        }
    }

    /**
     * {@return false when {@code text} is not exactly one JSON object within the limits (the buffer then holds part of
     * a form)} Else its canonical form is appended after the prefix.
     */
    boolean append(String text, int maxDepth, int maxNumberLength) {
        int n = text.length();
        int i = whitespace(text, 0, n);
        if (i == n || text.charAt(i) != '{') {
            return false;
        }
        boolean expectValue = true;
        while (true) {
            i = whitespace(text, i, n);
            if (i == n) {
                return false;
            }
            char c = text.charAt(i);
            if (expectValue) {
                if (c == '{' || c == '[') {
                    if (depth == maxDepth) {
                        return false;
                    }
                    push(c == '{' ? members.count() : ARRAY);
                    out.put((byte) c);
                    i = whitespace(text, i + 1, n);
                    if (i < n && text.charAt(i) == (c == '{' ? '}' : ']')) {
                        expectValue = false;
                        continue;
                    }
                    if (c == '{') {
                        i = name(text, i, n);
                        if (i < 0) {
                            return false;
                        }
                    }
                    continue;
                }
                i = scalar(text, i, n, c, maxNumberLength);
                if (i < 0) {
                    return false;
                }
                expectValue = false;
                continue;
            }
            boolean inObject = open[depth - 1] != ARRAY;
            if (c == ',') {
                out.put((byte) ',');
                expectValue = true;
                i = inObject ? name(text, whitespace(text, i + 1, n), n) : i + 1;
                if (i < 0) {
                    return false;
                }
                continue;
            }
            if (c != (inObject ? '}' : ']') || inObject && !closeObject()) {
                return false;
            }
            out.put((byte) c);
            depth--;
            i++;
            if (depth == 0) {
                return whitespace(text, i, n) == n;
            }
        }
    }

    /** Reads a member's name at {@code i} and its colon; the index after the colon, or -1. */
    private int name(String text, int i, int n) {
        if (i >= n || text.charAt(i) != '"') {
            return -1;
        }
        members.add(out.size());
        int end = string(text, i + 1, n, true);
        if (end < 0) {
            return -1;
        }
        end = whitespace(text, end, n);
        if (end >= n || text.charAt(end) != ':') {
            return -1;
        }
        out.put((byte) ':');
        return end + 1;
    }

    /** Reads a string, number or literal starting with {@code c} at {@code i}; the index after it, or -1. */
    private int scalar(String text, int i, int n, char c, int maxNumberLength) {
        switch (c) {
            case '"':
                return string(text, i + 1, n, false);
            case 't':
                return literal(text, i, "true", TRUE);
            case 'f':
                return literal(text, i, "false", FALSE);
            case 'n':
                return literal(text, i, "null", NULL);
            default:
                if (c == '-' || c >= '0' && c <= '9') {
                    return number(text, i, n, maxNumberLength);
                }
                return -1;
        }
    }

    private int literal(String text, int i, String literal, byte[] word) {
        if (!text.startsWith(literal, i)) {
            return -1;
        }
        out.put(word, word.length);
        return i + word.length;
    }

    /** Reads {@code -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?} and writes its canonical form. */
    private int number(String text, int start, int n, int maxNumberLength) {
        int i = start;
        if (text.charAt(i) == '-') {
            i++;
        }
        if (i < n && text.charAt(i) == '0') {
            i++;
        } else {
            int from = i;
            i = digits(text, i, n);
            if (i == from) {
                return -1;
            }
        }
        if (i < n && text.charAt(i) == '.') {
            int from = ++i;
            i = digits(text, i, n);
            if (i == from) {
                return -1;
            }
        }
        if (i < n && (text.charAt(i) == 'e' || text.charAt(i) == 'E')) {
            i++;
            if (i < n && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
                i++;
            }
            int from = i;
            i = digits(text, i, n);
            if (i == from) {
                return -1;
            }
        }
        if (i - start > maxNumberLength) {
            return -1;
        }
        int length = NumberForms.write(text, start, i, number);
        if (length == NumberForms.NOT_FINITE) {
            return -1;
        }
        out.put(number, length);
        return i;
    }

    private static int digits(String text, int i, int n) {
        int at = i;
        while (at < n && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        return at;
    }

    /**
     * Reads the rest of a string whose opening quote is before {@code i}, writes it quoted in canonical
     * form and, for a name, keeps its UTF-16 code units; the index after the closing quote, or -1.
     */
    private int string(String text, int i, int n, boolean name) {
        out.put((byte) '"');
        int at = i;
        while (at < n) {
            int run = at;
            at = out.plainAscii(text, at, n);
            if (name && at > run) {
                members.nameChars(text, run, at);
            }
            if (at == n) {
                break;
            }
            char c = text.charAt(at++);
            if (c == '"') {
                out.put((byte) '"');
                return at;
            }
            if (c == '\\') {
                at = escape(text, at, n, name);
                if (at < 0) {
                    return -1;
                }
                continue;
            }
            if (c < 0x20) {
                return -1;
            }
            if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || at == n || !Character.isLowSurrogate(text.charAt(at))) {
                    return -1;
                }
                char low = text.charAt(at++);
                out.codePoint(Character.toCodePoint(c, low));
                if (name) {
                    members.nameChar(c);
                    members.nameChar(low);
                }
                continue;
            }
            out.unit(c);
            if (name) {
                members.nameChar(c);
            }
        }
        return -1;
    }

    /** Reads the escape after a backslash at {@code i - 1}; the index after it, or -1. */
    private int escape(String text, int i, int n, boolean name) {
        if (i >= n) {
            return -1;
        }
        char c;
        int at = i + 1;
        switch (text.charAt(i)) {
            case '"' -> c = '"';
            case '\\' -> c = '\\';
            case '/' -> c = '/';
            case 'b' -> c = '\b';
            case 'f' -> c = '\f';
            case 'n' -> c = '\n';
            case 'r' -> c = '\r';
            case 't' -> c = '\t';
            case 'u' -> {
                int unit = hex4(text, at, n);
                if (unit < 0) {
                    return -1;
                }
                c = (char) unit;
                at += 4;
            }
            default -> {
                return -1;
            }
        }
        if (Character.isSurrogate(c)) {
            // Only an escaped high surrogate followed at once by an escaped low one is text.
            int low = Character.isHighSurrogate(c) && at + 1 < n && text.charAt(at) == '\\' && text.charAt(at + 1) == 'u'
                    ? hex4(text, at + 2, n) : -1;
            if (low < 0 || !Character.isLowSurrogate((char) low)) {
                return -1;
            }
            out.codePoint(Character.toCodePoint(c, (char) low));
            if (name) {
                members.nameChar(c);
                members.nameChar((char) low);
            }
            return at + 6;
        }
        out.unit(c);
        if (name) {
            members.nameChar(c);
        }
        return at;
    }

    private static int hex4(String text, int i, int n) {
        if (i + 4 > n) {
            return -1;
        }
        int value = 0;
        for (int at = i; at < i + 4; at++) {
            char c = text.charAt(at);
            int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }

    /** Puts the members of the innermost object in order; false on a duplicate name. */
    private boolean closeObject() {
        return members.close(open[depth - 1], out.bytes(), out.size());
    }

    private static int whitespace(String text, int i, int n) {
        int at = i;
        while (at < n) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                break;
            }
            at++;
        }
        return at;
    }

    private void push(int container) {
        if (depth == open.length) {
            open = Arrays.copyOf(open, depth * 2);
        }
        open[depth++] = container;
    }
}
