package io.toolboundary.application.json;

import java.util.Random;

/**
 * Seeded random texts for comparing JSON readers: objects that are mostly valid (every value kind,
 * escapes of every form including surrogates, names that sort differently by code point and by UTF-16
 * code unit, numbers of every shape up to and past the length limit, nesting up to and past the depth
 * limit, all four whitespace characters), the same with a few random edits (characters inserted,
 * deleted or doubled, members repeated, trailing content, lone surrogates, control characters), and
 * runs of JSON tokens.
 */
final class RandomJsonTexts {

    private static final String[] NAMES = {"a", "b", "A", "", "ab", "a\u0000", "\u00e9", "\u20ac", "\ufb33", "\ud83d\ude00",
        "\ue000", "\uffff", "\r", "1", "aa", "\u0080", "key", "k\"q", "k\\b", "\ud800\udc00"};
    private static final String[] WHITESPACE = {"", "", "", " ", "\t", "\n", "\r\n", "  "};
    private static final String[] STRANGE = {"\ud800", "\udc00", "\ufeff", "\u0000", "\u001f", "\u00a0", "\u2028", "\u000b",
        "\u000c", "/", "#", "'", "\\", "\"", "\\u", "\\x", "\\ud800", "\\udc00", "\ud83d\ude00", "}", "]", "{", "[", ",", ":",
        "e", "E", ".", "-", "+", "0", "1", "9", "true", "nul", "NaN", "Infinity", "\\uD83D\\uDE00", "\\uDE00\\uD83D"};
    private static final String[] NUMBERS = {"0", "-0", "-0.0", "0.0", "1", "-1", "1.0", "1e2", "1E2", "1e+2", "1e-2", "0.1",
        "1e21", "1e20", "1e-6", "1e-7", "1e308", "1e309", "-1e309", "1.7976931348623157e308", "1.8e308", "5e-324", "2e-324",
        "1e-400", "9007199254740993", "9007199254740992", "12345678901234567890", "333333333.33333329", "4.50", "2e-3",
        "0.000000000000000000000000001", "1e999999", "1e-999999", "123456789012345", "1234567890123456", "0.30000000000000004",
        "2.82879384806159E17", "1E400", "01", "1.", ".5", "+1", "-", "1e", "1e+", "0x10", "00", "-01", "1.5e-7", "100e-2"};

    private final Random random;
    private final int maxDepth;
    private final int maxNumberLength;

    RandomJsonTexts(long seed, int maxDepth, int maxNumberLength) {
        this.random = new Random(seed);
        this.maxDepth = maxDepth;
        this.maxNumberLength = maxNumberLength;
    }

    /** One text: a valid-looking object, an edited one, or a run of tokens. */
    String next() {
        int kind = random.nextInt(10);
        if (kind < 5) {
            return object();
        }
        if (kind < 9) {
            return edit(object());
        }
        return tokens();
    }

    private String object() {
        StringBuilder text = new StringBuilder();
        text.append(ws());
        int depth = random.nextInt(8) == 0 ? maxDepth - 1 + random.nextInt(3) : 1 + random.nextInt(4);
        object(text, 1, depth);
        text.append(ws());
        return text.toString();
    }

    /** Nesting is bounded by {@code depth}, which is at most the limit plus one: recursion is fine here. */
    private void object(StringBuilder text, int level, int depth) {
        text.append('{').append(ws());
        int members = level >= depth ? random.nextInt(2) : random.nextInt(5);
        boolean goDeeper = level < depth;
        for (int m = 0; m < members; m++) {
            if (m > 0) {
                text.append(ws()).append(',').append(ws());
            }
            text.append(string(NAMES[random.nextInt(NAMES.length)])).append(ws()).append(':').append(ws());
            value(text, level, depth, goDeeper && m == 0);
        }
        if (goDeeper && members == 0) {
            text.append("\"deep\":");
            value(text, level, depth, true);
        }
        text.append(ws()).append('}');
    }

    private void value(StringBuilder text, int level, int depth, boolean container) {
        // Below the first few levels only one chain of containers goes deeper, so that texts stay small.
        if (container || random.nextInt(6) == 0 && level < Math.min(depth, 4)) {
            if (level >= depth) {
                text.append(random.nextBoolean() ? "{}" : "[]");
            } else if (random.nextBoolean()) {
                object(text, level + 1, depth);
            } else {
                array(text, level + 1, depth);
            }
            return;
        }
        switch (random.nextInt(6)) {
            case 0 -> text.append(string(randomText()));
            case 1, 2 -> text.append(number());
            case 3 -> text.append(new String[] {"true", "false", "null"}[random.nextInt(3)]);
            case 4 -> text.append(string(NAMES[random.nextInt(NAMES.length)]));
            default -> text.append(string(""));
        }
    }

    private void array(StringBuilder text, int level, int depth) {
        text.append('[').append(ws());
        int items = random.nextInt(4);
        if (level < depth && items == 0) {
            items = 1;
        }
        for (int i = 0; i < items; i++) {
            if (i > 0) {
                text.append(ws()).append(',').append(ws());
            }
            value(text, level, depth, level < depth && i == 0);
        }
        text.append(ws()).append(']');
    }

    private String number() {
        if (random.nextInt(3) == 0) {
            return NUMBERS[random.nextInt(NUMBERS.length)];
        }
        StringBuilder number = new StringBuilder();
        if (random.nextBoolean()) {
            number.append('-');
        }
        int integerDigits = random.nextInt(4) == 0 ? maxNumberLength - 2 + random.nextInt(4) : 1 + random.nextInt(18);
        boolean leadingZero = random.nextInt(4) == 0;
        number.append(leadingZero ? '0' : (char) ('1' + random.nextInt(9)));
        // A leading zero with more digits after it is refused; now and then that is what is wanted.
        int more = leadingZero && random.nextInt(10) != 0 ? 1 : integerDigits;
        for (int i = 1; i < more; i++) {
            number.append(random.nextInt(3) == 0 ? '0' : (char) ('0' + random.nextInt(10)));
        }
        if (random.nextBoolean()) {
            number.append('.');
            int fraction = 1 + random.nextInt(random.nextInt(4) == 0 ? 25 : 6);
            for (int i = 0; i < fraction; i++) {
                number.append(random.nextInt(3) == 0 ? '0' : (char) ('0' + random.nextInt(10)));
            }
        }
        if (random.nextBoolean()) {
            number.append(random.nextBoolean() ? 'e' : 'E');
            number.append(new String[] {"", "+", "-"}[random.nextInt(3)]);
            number.append(random.nextInt(4) == 0 ? random.nextInt(400) : random.nextInt(30));
        }
        return number.toString();
    }

    /** Text for a string value: plain, non-ASCII, surrogate pairs and characters that must be escaped. */
    private String randomText() {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(8)) {
                case 0 -> text.append((char) random.nextInt(0x20));
                case 1 -> text.append((char) (0x80 + random.nextInt(0xD800 - 0x80)));
                case 2 -> text.appendCodePoint(0x10000 + random.nextInt(0x100000));
                case 3 -> text.append((char) (0xE000 + random.nextInt(0x2000)));
                case 4 -> text.append("\"\\/\u007f".charAt(random.nextInt(4)));
                default -> text.append((char) (0x20 + random.nextInt(0x5F)));
            }
        }
        return text.toString();
    }

    /** A JSON string for {@code value}, each character written raw or escaped at random. */
    private String string(String value) {
        StringBuilder text = new StringBuilder("\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean mustEscape = c == '"' || c == '\\' || c < 0x20;
            int form = random.nextInt(4);
            if (mustEscape || form == 0) {
                String shortForm = switch (c) {
                    case '"' -> "\\\"";
                    case '\\' -> "\\\\";
                    case '/' -> "\\/";
                    case '\b' -> "\\b";
                    case '\f' -> "\\f";
                    case '\n' -> "\\n";
                    case '\r' -> "\\r";
                    case '\t' -> "\\t";
                    default -> null;
                };
                String hex = String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c);
                text.append(shortForm != null && random.nextBoolean() ? shortForm : hex);
            } else {
                text.append(c);
            }
        }
        return text.append('"').toString();
    }

    private String ws() {
        return WHITESPACE[random.nextInt(WHITESPACE.length)];
    }

    /** One to three edits: insert, delete, double a stretch, repeat the first member, or append. */
    private String edit(String valid) {
        StringBuilder text = new StringBuilder(valid);
        int edits = 1 + random.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = text.length() == 0 ? 0 : random.nextInt(text.length() + 1);
            switch (random.nextInt(6)) {
                case 0 -> text.insert(at, STRANGE[random.nextInt(STRANGE.length)]);
                case 1 -> {
                    if (at < text.length()) {
                        text.deleteCharAt(at);
                    }
                }
                case 2 -> {
                    int end = Math.min(text.length(), at + 1 + random.nextInt(6));
                    text.insert(at, text.substring(at, end));
                }
                case 3 -> {
                    int colon = text.indexOf(":");
                    int open = text.indexOf("{");
                    int comma = text.indexOf(",", colon);
                    if (open >= 0 && colon > open && comma > colon) {
                        text.insert(open + 1, text.substring(open + 1, comma + 1));
                    }
                }
                case 4 -> text.append(STRANGE[random.nextInt(STRANGE.length)]);
                default -> text.setLength(at);
            }
        }
        return text.toString();
    }

    private String tokens() {
        StringBuilder text = new StringBuilder("{");
        int count = random.nextInt(30);
        for (int i = 0; i < count; i++) {
            text.append(random.nextBoolean() ? STRANGE[random.nextInt(STRANGE.length)] : string(NAMES[random.nextInt(NAMES.length)]));
        }
        return text.append(random.nextBoolean() ? "}" : "").toString();
    }

    /** The text in Java source form, every character outside printable ASCII escaped. */
    static String escaped(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
