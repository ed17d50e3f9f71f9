package io.toolboundary.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.vavr.control.Either;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The safe-id rule checked on 1,000 seeded random candidates per identifier type. */
class SafeIdentifierPropertyTest {

    private static final int TRIES = 1000;
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    private static final String SAFE_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-";
    private static final String HOSTILE_CHARS = " \t\r\n{}*?[\u200B\u202E\u00E9\uD800\uDC00\u0000";

    @Test
    void runIdIsRightExactlyForSafeText() {
        check(1L, text -> RunId.of(text).map(RunId::value));
    }

    @Test
    void toolCallIdIsRightExactlyForSafeText() {
        check(2L, text -> ToolCallId.of(text).map(ToolCallId::value));
    }

    @Test
    void toolNameIsRightExactlyForSafeText() {
        check(3L, text -> ToolName.of(text).map(ToolName::value));
    }

    private static void check(long seed, Function<String, Either<BoundaryError, String>> of) {
        Random random = new Random(seed);
        int safeSeen = 0;
        for (int i = 0; i < TRIES; i++) {
            String text = candidate(random);
            boolean safe = SAFE.matcher(text).matches();
            Either<BoundaryError, String> checked = of.apply(text);
            assertThat(checked.isRight()).as("Right for %s", escaped(text)).isEqualTo(safe);
            if (safe) {
                safeSeen++;
                assertThat(checked.get()).isEqualTo(text);
            }
        }
        assertThat(safeSeen).as("both outcomes are exercised").isBetween(100, TRIES - 100);
    }

    /** Any chars (lone surrogates included), nearly safe text, or safe text around the 128 limit. */
    private static String candidate(Random random) {
        return switch (random.nextInt(3)) {
            case 0 -> anyChars(random, random.nextInt(201));
            case 1 -> fromAlphabet(random, SAFE_CHARS + HOSTILE_CHARS, random.nextInt(141));
            default -> fromAlphabet(random, SAFE_CHARS, random.nextInt(2) == 0 ? random.nextInt(131) : 126 + random.nextInt(5));
        };
    }

    private static String anyChars(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append((char) random.nextInt(Character.MAX_VALUE + 1));
        }
        return text.toString();
    }

    private static String fromAlphabet(Random random, String alphabet, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    private static String escaped(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c < 0x20 || c > 0x7E ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return out.toString();
    }
}
