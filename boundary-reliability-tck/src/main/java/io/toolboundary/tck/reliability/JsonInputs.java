package io.toolboundary.tck.reliability;

import static io.toolboundary.tck.reliability.HostileInputs.pick;
import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.ErrorCode;
import io.toolboundary.tck.reliability.HostileInputs.Allowed;
import java.util.Random;

/** Generators of JSON argument texts, hostile and valid, each driven by a caller's seeded {@link Random}. */
public final class JsonInputs {

    private JsonInputs() {
    }

    /** One JSON arguments sample. */
    public record JsonSample(String category, String json, Allowed allowed) {
    }

    /** Deepest nesting the deep-nesting family uses. */
    public static final int DEEP_NESTING = 10_000;

    /** Digits in the long-number family. */
    public static final int LONG_NUMBER_DIGITS = 1_001;

    /** An arguments text, valid or hostile, from one of 16 families chosen at random; its category names the family. */
    public static JsonSample json(Random random, String marker) {
        requireNonNull(marker, "marker is null");
        ErrorCode invalid = ErrorCode.ARGUMENTS_INVALID;
        String valid = validObject(random, marker);
        int family = random.nextInt(16);
        return switch (family) {
            case 0 -> new JsonSample("valid", valid, Allowed.acceptedOnly());
            case 1 -> new JsonSample("not-an-object", pick(random, "", " ", "\n", "[]", "[{}]", "\"x\"",
                "\"{}\"", "1", "-0.5", "true", "false", "null", "[" + valid + "]"), Allowed.only(invalid));
            case 2 -> new JsonSample("trailing-content", valid + pick(random, "{}", "x", "]", "}", ",",
                "//c", "/*c*/", "\u0000", "null", "1", " {}", "\n[", valid), Allowed.only(invalid));
            case 3 -> new JsonSample("trailing-whitespace", valid + pick(random, " ", "\n", "\r\n", "\t  "),
                    Allowed.acceptedOnly());
            case 4 -> new JsonSample("duplicate-keys", pick(random,
                "{\"a\":1,\"a\":2}", "{\"a\":1,\"a\":1}", "{\"a\":{\"b\":1,\"b\":1}}", "{\"x\":1,\"y\":2,\"x\":1}",
                "{\"a\":1,\"\\u0061\":1}", "{\"k\":[{\"m\":null,\"m\":null}]}",
                "{\"" + marker + "\":1,\"" + marker + "\":2}"), Allowed.only(invalid));
            case 5 -> new JsonSample("nesting-10000", deepNesting(random, DEEP_NESTING), Allowed.only(invalid));
            case 6 -> {
                int depth = 63 + random.nextInt(3);
                yield new JsonSample("nesting-" + depth, nestedArrays(depth),
                        depth <= 64 ? Allowed.acceptedOnly() : Allowed.only(invalid));
            }
            case 7 -> new JsonSample("number-1001-digits", "{\"n\":" + longNumber(random, LONG_NUMBER_DIGITS) + "}",
                    Allowed.only(invalid));
            case 8 -> {
                int length = 99 + random.nextInt(3);
                yield new JsonSample("number-" + length + "-chars", "{\"n\":" + numberOfLength(random, length) + "}",
                        length <= 100 ? Allowed.acceptedOnly() : Allowed.only(invalid));
            }
            case 9 -> new JsonSample("number-overflow", "{\"n\":" + pick(random, "1e999999", "-1e999999",
                "1E400", "9e308", "-2e308", "1" + "0".repeat(90) + "e300") + "}", Allowed.only(invalid));
            case 10 -> new JsonSample("number-underflow", "{\"n\":" + pick(random, "1e-999999", "-1e-400",
                "4.9e-325") + "}", Allowed.acceptedOnly());
            case 11 -> new JsonSample("not-a-number", "{\"n\":" + pick(random, "NaN", "-NaN", "Infinity",
                "-Infinity", "+1", "01", ".5", "0x10", "1.", "--1", "1e", "\"1\"x") + "}", Allowed.only(invalid));
            case 12 -> random.nextInt(4) == 0
                    ? new JsonSample("escaped-surrogate-pair", "{\"s\":\"\\ud83d\\ude00\"}", Allowed.acceptedOnly())
                    : new JsonSample("escaped-lone-surrogate", pick(random, "{\"s\":\"\\ud800\"}",
                        "{\"s\":\"\\udbff\"}", "{\"s\":\"\\udc00\"}", "{\"s\":\"\\udc00\\ud800\"}", "{\"s\":\"x\\ud800y\"}",
                        "{\"\\ud800\":1}", "{\"s\":\"\\ud800\\u0041\"}"), Allowed.only(invalid));
            case 13 -> new JsonSample("raw-lone-surrogate", pick(random, "{\"s\":\"\ud800\"}",
                "{\"s\":\"\udc00\"}", "{\"\udbff\":1}", "\ud800{}", "{}\udfff"), Allowed.only(ErrorCode.TEXT_NOT_UNICODE));
            case 14 -> random.nextBoolean()
                    ? new JsonSample("bom", "\ufeff" + valid, Allowed.only(invalid))
                    : new JsonSample("raw-control-character", "{\"s\":\"a" + (char) random.nextInt(0x20) + "b\"}",
                        Allowed.only(invalid));
            default -> new JsonSample("mutation", mutate(random, valid), Allowed.acceptedOr(invalid,
                    ErrorCode.TEXT_NOT_UNICODE, ErrorCode.ARGUMENTS_TOO_LARGE));
        };
    }

    /** A random valid JSON object of a few members, nested a little, always holding {@code marker}. */
    public static String validObject(Random random, String marker) {
        StringBuilder json = new StringBuilder("{\"q\":\"").append(marker).append('"');
        int members = random.nextInt(5);
        for (int i = 0; i < members; i++) {
            json.append(",\"k").append(i).append("\":").append(value(random, 2));
        }
        return json.append('}').toString();
    }

    private static String value(Random random, int depth) {
        int kind = random.nextInt(depth > 0 ? 8 : 6);
        return switch (kind) {
            case 0 -> "null";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2 -> Integer.toString(random.nextInt());
            case 3 -> Double.toString(random.nextDouble() * 1e6);
            case 4, 5 -> "\"" + jsonStringContent(random) + "\"";
            case 6 -> "[" + value(random, depth - 1) + "," + value(random, depth - 1) + "]";
            default -> "{\"n\":" + value(random, depth - 1) + "}";
        };
    }

    private static String jsonStringContent(Random random) {
        String[] pieces = {"a", "Z", "0", " ", "\\n", "\\\"", "\\\\", "\\u0041", "\u00e9", "\u4e2d", "\ud83d\ude00",
            "\\ud83d\\ude00", "/", "\\/"};
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(8);
        for (int i = 0; i < length; i++) {
            text.append(pick(random, pieces));
        }
        return text.toString();
    }

    private static String deepNesting(Random random, int depth) {
        return switch (random.nextInt(3)) {
            case 0 -> "{\"a\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
            case 1 -> "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
            default -> "{\"a\":" + "[".repeat(depth);
        };
    }

    /** An object whose nesting, counting the object itself, is exactly {@code depth}. */
    private static String nestedArrays(int depth) {
        return "{\"a\":" + "[".repeat(depth - 1) + "]".repeat(depth - 1) + "}";
    }

    private static String longNumber(Random random, int digits) {
        StringBuilder number = new StringBuilder(digits + 2);
        int shape = random.nextInt(3);
        if (shape == 1) {
            number.append('-');
        }
        number.append((char) ('1' + random.nextInt(9)));
        for (int i = 1; i < digits; i++) {
            number.append((char) ('0' + random.nextInt(10)));
            if (shape == 2 && i == digits / 2) {
                number.append('.');
            }
        }
        return number.toString();
    }

    private static String numberOfLength(Random random, int length) {
        StringBuilder number = new StringBuilder(length);
        number.append((char) ('1' + random.nextInt(9)));
        while (number.length() < length) {
            number.append((char) ('0' + random.nextInt(10)));
        }
        return number.toString();
    }

    private static String mutate(Random random, String valid) {
        String[] inserts = {"{", "}", "[", "]", "\"", ":", ",", "\\", "\\u", "\\ud800", "\ud800", "\u0000", " ", "1",
            "e", "-", "null", "tru", "\ufeff", "\u00e9", "\ud83d\ude00"};
        StringBuilder text = new StringBuilder(valid);
        int edits = 1 + random.nextInt(3);
        for (int i = 0; i < edits; i++) {
            int at = random.nextInt(text.length() + 1);
            switch (random.nextInt(5)) {
                case 0 -> {
                    if (at < text.length()) {
                        text.deleteCharAt(at);
                    }
                }
                case 1 -> text.insert(at, pick(random, inserts));
                case 2 -> text.setLength(Math.min(text.length(), at));
                case 3 -> {
                    int from = random.nextInt(text.length() + 1);
                    int to = Math.min(text.length(), from + random.nextInt(12));
                    text.insert(at, text.substring(from, to));
                }
                default -> {
                    if (at < text.length()) {
                        text.setCharAt(at, pick(random, inserts).charAt(0));
                    }
                }
            }
        }
        return text.toString();
    }
}
