package io.toolboundary.domain.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link Utf8} checked on 1,000 seeded random well-formed strings each, and on long, mostly
 * ASCII strings with a rare other character or lone surrogate.
 */
class Utf8PropertyTest {

    private static final int TRIES = 1000;

    @Test
    void byteLengthEqualsTheEncodedLength() {
        Random random = new Random(20261202L);
        for (int i = 0; i < TRIES; i++) {
            String text = wellFormedText(random);
            assertThat(Utf8.isWellFormed(text)).isTrue();
            assertThat(Utf8.byteLength(text)).as("byte length of try %d", i).isEqualTo(text.getBytes(UTF_8).length);
        }
    }

    @Test
    void exceedsSwitchesExactlyAtTheEncodedLength() {
        Random random = new Random(42L);
        for (int i = 0; i < TRIES; i++) {
            String text = wellFormedText(random);
            long length = text.getBytes(UTF_8).length;
            assertThat(Utf8.exceeds(text, length)).as("exceeds at its length, try %d", i).isFalse();
            assertThat(Utf8.exceeds(text, length - 1)).as("exceeds one below, try %d", i).isTrue();
        }
    }

    @Test
    void wellFormedByteLengthAgreesWithTheEncoderOnLongMostlyAsciiText() {
        Random random = new Random(20261205L);
        String[] rare = {"\u0080", "é", "\u07FF", "\u0800", "€", "😀", "\uD83D", "\uDE00"};
        for (int i = 0; i < TRIES / 5; i++) {
            int length = random.nextInt(4 * Utf8.CHUNK);
            StringBuilder text = new StringBuilder(length + 2);
            while (text.length() < length) {
                text.append(random.nextInt(1000) == 0 ? rare[random.nextInt(rare.length)]
                        : (char) random.nextInt(0x80));
            }
            String string = text.toString();
            long expected = Utf8.isWellFormed(string) ? string.getBytes(UTF_8).length : -1;
            assertThat(Utf8.wellFormedByteLength(string)).as("try %d", i).isEqualTo(expected);
            assertThat(Utf8.byteLength(string)).as("byte length of try %d", i)
                    .isEqualTo(Utf8.byteLength(new StringBuilder(string)));
        }
    }

    /** Up to 64 code points, mixing 1-, 2-, 3- and 4-byte characters, never a surrogate on its own. */
    static String wellFormedText(Random random) {
        int count = random.nextInt(65);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            int codePoint;
            switch (random.nextInt(4)) {
                case 0 -> codePoint = random.nextInt(0x80);
                case 1 -> codePoint = 0x80 + random.nextInt(0x800 - 0x80);
                case 2 -> {
                    do {
                        codePoint = 0x800 + random.nextInt(0x10000 - 0x800);
                    } while (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE);
                }
                default -> codePoint = 0x10000 + random.nextInt(Character.MAX_CODE_POINT + 1 - 0x10000);
            }
            text.appendCodePoint(codePoint);
        }
        return text.toString();
    }
}
