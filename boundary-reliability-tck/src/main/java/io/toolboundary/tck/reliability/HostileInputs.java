package io.toolboundary.tck.reliability;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.ErrorCode;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/**
 * Generators of hostile input for property-style tests, each driven by a caller's seeded {@link Random} so that a
 * failing try can be replayed from its seed.
 */
public final class HostileInputs {

    /** The characters a safe identifier may hold. */
    public static final String SAFE_ID_CHARACTERS =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-";

    /** The longest safe identifier, in characters. */
    public static final int MAX_SAFE_ID_LENGTH = 128;

    private static final String[] INJECTIONS = {
        "{", "}", "*", "?", "[", "]", "{run}", "*:call:*", "\r\n", "\n", "\r", "\u0000", "\u0007", "\u001b[31m",
        "\t", " ", "/", "\\", "\"", "'", "%", "$", "#", "@", "=", "password=", "\u007f",
        "\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200f", "\u200e", "\u061c",
        "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00a0", "\u2003", "\u3000",
        "\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800", "\u0430", "\uff21", "\u0131", "\ud83d\ude00"
    };

    private HostileInputs() {
    }

    /** The families 4 to 10, which splice a hostile fragment into a short safe id. */
    private static final List<Splice> SPLICES = List.of(
            new Splice("control", 1, random -> String.valueOf((char) random.nextInt(0x20))),
            Splice.of("crlf", 1, "\r\n", "\n", "\r", "\r\nDEL x\r\n"),
            Splice.of("glob-or-hash-tag", 1, "{", "}", "*", "?", "[", "]", "{x}", "*:call:*"),
            Splice.of("bidi", 1, "\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200f", "\u200e",
                    "\u061c"),
            Splice.of("zero-width", 1, "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"),
            Splice.of("lone-surrogate", 0, "\ud800", "\udbff", "\udc00", "\udfff", "\udc00\ud800"),
            Splice.of("look-alike", 0, "\u0430", "\uff21", "\u0131", "\u00e9", "\ud83d\ude00"));

    /** A family of spliced ids: its category, the shortest safe base, and how it draws a fragment. */
    private record Splice(String category, int shortest, Function<Random, String> fragment) {
        static Splice of(String category, int shortest, String... fragments) {
            return new Splice(category, shortest, random -> pick(random, fragments));
        }
    }

    /** One identifier sample. */
    public record IdSample(String category, String value) {

        /** True when the value is a safe identifier: 1 to 128 characters of {@code [A-Za-z0-9_.:-]}. */
        public boolean safe() {
            return isSafeId(value);
        }

        /** True when the value is empty or only whitespace. */
        public boolean blank() {
            return value.isBlank();
        }
    }

    /** An identifier, safe or hostile, from one of 14 families chosen at random; its category names the family. */
    public static IdSample id(Random random, List<String> safePool) {
        requireNonNull(safePool, "safePool is null");
        int family = random.nextInt(14);
        if (family >= 4 && family <= 10) {
            Splice spliced = SPLICES.get(family - 4);
            String base = safeId(random, spliced.shortest() + random.nextInt(20));
            return new IdSample(spliced.category(), splice(random, base, spliced.fragment().apply(random)));
        }
        return switch (family) {
            case 0 -> new IdSample("empty", "");
            case 1 -> new IdSample("blank", blank(random));
            case 2 -> new IdSample("safe-128", safeId(random, MAX_SAFE_ID_LENGTH));
            case 3 -> new IdSample("safe-129", safeId(random, MAX_SAFE_ID_LENGTH + 1));
            case 11 -> safePool.isEmpty() || random.nextBoolean()
                    ? new IdSample("safe", safeId(random, 1 + random.nextInt(random.nextBoolean() ? 4 : MAX_SAFE_ID_LENGTH)))
                    : new IdSample("safe-reused", safePool.get(random.nextInt(safePool.size())));
            case 12 -> new IdSample("mixed", mixed(random));
            default -> new IdSample("safe-edge", pick(random, "a", "0", "-", ".", ":", "_", "..", "::", "a:b", "call:1",
                    "-1", "0000000000"));
        };
    }

    /** True when {@code value} has 1 to 128 characters, each of {@code [A-Za-z0-9_.:-]}. */
    public static boolean isSafeId(String value) {
        requireNonNull(value, "value is null");
        if (value.isEmpty() || value.length() > MAX_SAFE_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (SAFE_ID_CHARACTERS.indexOf(value.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** A safe identifier of exactly {@code length} characters (not safe when longer than 128). */
    public static String safeId(Random random, int length) {
        StringBuilder id = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            id.append(SAFE_ID_CHARACTERS.charAt(random.nextInt(SAFE_ID_CHARACTERS.length())));
        }
        return id.toString();
    }

    private static String blank(Random random) {
        String[] spaces = {" ", "\t", "\n", "\r", "\u000b", "\f", "\u2003", "\u3000", "\u2028", "\u001c"};
        int length = random.nextInt(6);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(pick(random, spaces));
        }
        return text.toString();
    }

    private static String mixed(Random random) {
        StringBuilder text = new StringBuilder();
        int parts = 1 + random.nextInt(6);
        for (int i = 0; i < parts; i++) {
            text.append(random.nextBoolean() ? safeId(random, random.nextInt(8)) : pick(random, INJECTIONS));
        }
        return text.toString();
    }

    private static String splice(Random random, String base, String fragment) {
        int at = base.isEmpty() ? 0 : random.nextInt(base.length() + 1);
        return base.substring(0, at) + fragment + base.substring(at);
    }

    static String pick(Random random, String... choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** What the boundary may answer for a sample. */
    public record Allowed(boolean accepted, Set<ErrorCode> codes) {

        /** Keeps an unmodifiable copy of the codes. */
        public Allowed {
            codes = Set.copyOf(codes);
        }

        /** Only a successful call. */
        public static Allowed acceptedOnly() {
            return new Allowed(true, Set.of());
        }

        /** Only these error codes. */
        public static Allowed only(ErrorCode first, ErrorCode... rest) {
            return new Allowed(false, EnumSet.of(first, rest));
        }

        /** A successful call or these error codes. */
        public static Allowed acceptedOr(ErrorCode first, ErrorCode... rest) {
            return new Allowed(true, EnumSet.of(first, rest));
        }
    }

    /**
     * A well-formed text of exactly {@code utf8Bytes} UTF-8 bytes whose last character takes {@code lastCharBytes}
     * bytes (1 to 4). The rest is a random mix of 1-, 2- and 3-byte letters, never a quote, a backslash, a control
     * character or a surrogate, so it may sit inside a JSON string.
     */
    public static String textOfUtf8Bytes(Random random, int utf8Bytes, int lastCharBytes) {
        if (lastCharBytes < 1 || lastCharBytes > 4 || lastCharBytes > utf8Bytes) {
            throw new IllegalArgumentException("lastCharBytes must be 1 to 4 and at most utf8Bytes, was " + lastCharBytes);
        }
        StringBuilder text = new StringBuilder(utf8Bytes);
        int remaining = utf8Bytes - lastCharBytes;
        while (remaining > 0) {
            int width = 1 + random.nextInt(Math.min(3, remaining));
            text.appendCodePoint(codePointOfWidth(random, width));
            remaining -= width;
        }
        text.appendCodePoint(codePointOfWidth(random, lastCharBytes));
        return text.toString();
    }

    /** A letter-like code point that takes {@code width} bytes in UTF-8. */
    public static int codePointOfWidth(Random random, int width) {
        return switch (width) {
            case 1 -> 'a' + random.nextInt(26);
            case 2 -> 0x00e0 + random.nextInt(0x20);
            case 3 -> 0x4e00 + random.nextInt(0x5000);
            case 4 -> 0x1f600 + random.nextInt(0x40);
            default -> throw new IllegalArgumentException("width must be 1 to 4, was " + width);
        };
    }
}
