package io.toolboundary.domain.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

public class Utf8Test {

    private static final String HIGH = "\uD83D";
    private static final String LOW = "\uDE00";

    @Nested
    class ByteLength {

        @Test
        void countsNothingForEmptyText() {
            assertThat(Utf8.byteLength("")).isZero();
        }

        @Test
        void countsOneBytePerAsciiCharacter() {
            assertThat(Utf8.byteLength("abc")).isEqualTo(3);
            assertThat(Utf8.byteLength("\u0000")).isEqualTo(1);
            assertThat(Utf8.byteLength("\u007F")).isEqualTo(1);
        }

        @Test
        void countsTwoBytesFromU0080ToU07FF() {
            assertThat(Utf8.byteLength("é")).isEqualTo(2);
            assertThat(Utf8.byteLength("\u0080")).isEqualTo(2);
            assertThat(Utf8.byteLength("\u07FF")).isEqualTo(2);
        }

        @Test
        void countsThreeBytesFromU0800ToUFFFF() {
            assertThat(Utf8.byteLength("€")).isEqualTo(3);
            assertThat(Utf8.byteLength("\u0800")).isEqualTo(3);
            assertThat(Utf8.byteLength("\uD7FF")).isEqualTo(3);
            assertThat(Utf8.byteLength("\uE000")).isEqualTo(3);
            assertThat(Utf8.byteLength("\uFFFF")).isEqualTo(3);
        }

        @Test
        void countsFourBytesForASurrogatePair() {
            assertThat(Utf8.byteLength("😀")).isEqualTo(4);
            assertThat(Utf8.byteLength(new String(Character.toChars(0x10000)))).isEqualTo(4);
            assertThat(Utf8.byteLength(new String(Character.toChars(0x10FFFF)))).isEqualTo(4);
        }

        @Test
        void countsMixedTextAsItsEncodedLength() {
            String mixed = "a\u00e9\u20ac😀b😀\u20ac\u00e9a";
            assertThat(Utf8.byteLength(mixed)).isEqualTo(21).isEqualTo(mixed.getBytes(UTF_8).length);
        }

        @Test
        void countsLoneHighSurrogateAsReplacementCharacter() {
            assertThat(Utf8.byteLength(HIGH)).isEqualTo(3);
            assertThat(Utf8.byteLength("a" + HIGH + "b")).isEqualTo(5);
        }

        @Test
        void countsLoneLowSurrogateAsReplacementCharacter() {
            assertThat(Utf8.byteLength(LOW)).isEqualTo(3);
            assertThat(Utf8.byteLength("a" + LOW + "b")).isEqualTo(5);
        }

        @Test
        void countsHighSurrogateAtTheEndAsReplacementCharacter() {
            assertThat(Utf8.byteLength("ab" + HIGH)).isEqualTo(5);
            assertThat(Utf8.byteLength("😀" + HIGH)).isEqualTo(7);
        }

        @Test
        void countsReversedPairAsTwoReplacementCharacters() {
            assertThat(Utf8.byteLength(LOW + HIGH)).isEqualTo(6);
        }

        @Test
        void countsTwoHighSurrogatesBeforeALowOneAsReplacementAndPair() {
            assertThat(Utf8.byteLength(HIGH + HIGH + LOW)).isEqualTo(7);
        }

        @Test
        void acceptsAnyCharSequence() {
            assertThat(Utf8.byteLength(new StringBuilder("é😀"))).isEqualTo(6);
        }

        @Test
        void rejectsNullText() {
            assertThatNullPointerException().isThrownBy(() -> Utf8.byteLength(null)).withMessage("text is null");
        }
    }

    @Nested
    class Exceeds {

        @ParameterizedTest(name = "last character of {0} bytes")
        @ValueSource(ints = {1, 2, 3, 4})
        void isFalseForTextOfExactlyTheLimit(int lastWidth) {
            long limit = 16;
            String text = "a".repeat((int) limit - lastWidth) + charOfWidth(lastWidth);

            assertThat(Utf8.byteLength(text)).isEqualTo(limit);
            assertThat(Utf8.exceeds(text, limit)).isFalse();
        }

        @ParameterizedTest(name = "last character of {0} bytes")
        @ValueSource(ints = {1, 2, 3, 4})
        void isTrueForTextOfOneByteOverTheLimit(int lastWidth) {
            long limit = 16;
            String text = "a".repeat((int) limit - lastWidth + 1) + charOfWidth(lastWidth);

            assertThat(Utf8.byteLength(text)).isEqualTo(limit + 1);
            assertThat(Utf8.exceeds(text, limit)).isTrue();
        }

        @ParameterizedTest(name = "last character of {0} bytes")
        @ValueSource(ints = {1, 2, 3, 4})
        void countsTheWholeLastCharacterEvenWhenOnlyItsFirstBytesFit(int lastWidth) {
            long limit = 16;
            String text = "a".repeat((int) limit - 1) + charOfWidth(lastWidth);

            assertThat(Utf8.exceeds(text, limit)).isEqualTo(lastWidth > 1);
            assertThat(Utf8.exceeds(text, limit - 1 + lastWidth)).isFalse();
            assertThat(Utf8.exceeds(text, limit - 2 + lastWidth)).isTrue();
        }

        @Test
        void countsALoneHighSurrogateAtTheEndAsThreeBytes() {
            String text = "a".repeat(13) + HIGH;

            assertThat(Utf8.exceeds(text, 16)).isFalse();
            assertThat(Utf8.exceeds(text, 15)).isTrue();
        }

        @Test
        void isFalseForEmptyTextAtZero() {
            assertThat(Utf8.exceeds("", 0)).isFalse();
            assertThat(Utf8.exceeds("a", 0)).isTrue();
        }

        @Test
        void answersForVeryLongTextWithASmallLimit() {
            String text = "€".repeat(1_000_000);

            assertThat(Utf8.exceeds(text, 10)).isTrue();
            assertThat(Utf8.exceeds(text, 3_000_000)).isFalse();
            assertThat(Utf8.exceeds(text, 2_999_999)).isTrue();
        }

        @Test
        void rejectsNullText() {
            assertThatNullPointerException().isThrownBy(() -> Utf8.exceeds(null, 1)).withMessage("text is null");
        }
    }

    @Nested
    class IsWellFormed {

        @ParameterizedTest
        @ValueSource(strings = {"", "abc", "é€", "😀", "a😀b😀", "\uFFFD", "\uFEFF"})
        void acceptsTextWithoutLoneSurrogates(String text) {
            assertThat(Utf8.isWellFormed(text)).isTrue();
        }

        @ParameterizedTest
        @ValueSource(strings = {"\uD83D", "\uDE00", "a\uD83Db", "a\uDE00b", "ab\uD83D", "\uDE00\uD83D",
                "😀\uDE00", "\uD83D\uD83D\uDE00", "\uDBFF"})
        void rejectsTextWithALoneSurrogate(String text) {
            assertThat(Utf8.isWellFormed(text)).isFalse();
        }

        @Test
        void rejectsNullText() {
            assertThatNullPointerException().isThrownBy(() -> Utf8.isWellFormed(null)).withMessage("text is null");
        }

        @ParameterizedTest(name = "[{0}, {1}) of a😀b -> {2}")
        @CsvSource({
            "0, 4, true",
            "0, 0, true",
            "1, 3, true",
            "3, 4, true",
            "1, 2, false",
            "2, 3, false",
            "2, 4, false",
            "0, 2, false"
        })
        void checksOnlyTheGivenRange(int from, int to, boolean wellFormed) {
            assertThat(Utf8.isWellFormed("a😀b", from, to)).isEqualTo(wellFormed);
        }

        @Test
        void ignoresLoneSurrogatesOutsideTheRange() {
            String text = HIGH + "abc" + LOW;

            assertThat(Utf8.isWellFormed(text, 1, 4)).isTrue();
            assertThat(Utf8.isWellFormed(text, 0, 4)).isFalse();
            assertThat(Utf8.isWellFormed(text, 1, 5)).isFalse();
        }
    }

    @Nested
    class WellFormedByteLength {

        @ParameterizedTest
        @ValueSource(strings = {"", "abc", "é€", "😀", "a😀b😀", "\uFFFD", "\uFEFF", "\u07FF\u0800\uFFFF\u0080"})
        void isTheByteLengthOfWellFormedText(String text) {
            assertThat(Utf8.wellFormedByteLength(text)).isEqualTo(Utf8.byteLength(text))
                    .isEqualTo(text.getBytes(UTF_8).length);
        }

        @ParameterizedTest
        @ValueSource(strings = {"\uD83D", "\uDE00", "a\uD83Db", "a\uDE00b", "ab\uD83D", "\uDE00\uD83D",
                "😀\uDE00", "\uD83D\uD83D\uDE00", "\uDBFF"})
        void isMinusOneForTextWithALoneSurrogate(String text) {
            assertThat(Utf8.wellFormedByteLength(text)).isEqualTo(-1);
        }

        @Test
        void countsAStringBuilderToo() {
            assertThat(Utf8.wellFormedByteLength(new StringBuilder("é😀"))).isEqualTo(6);
        }

        @Test
        void seesACharacterBeyondAsciiAtEveryPlaceOfAnAsciiRun() {
            // A string's leading ASCII run is read eight characters a step: the character that ends it is put
            // at every place of a step, in runs of every length up to five steps.
            for (int length = 0; length <= 40; length++) {
                for (String ascii : new String[] {"a", "\u007F"}) {
                    String run = ascii.repeat(length);
                    assertThat(Utf8.wellFormedByteLength(run)).as("%d of U+%04X", length, (int) ascii.charAt(0))
                            .isEqualTo(length);
                    for (int at = 0; at < length; at++) {
                        for (String other : new String[] {"\u0080", "\u00FF", "é", "€", "😀"}) {
                            String text = run.substring(0, at) + other + run.substring(at + 1);
                            assertThat(Utf8.wellFormedByteLength(text)).as("%s at %d of %d", other, at, length)
                                    .isEqualTo(Utf8.byteLength(text)).isEqualTo(text.getBytes(UTF_8).length);
                        }
                        assertThat(Utf8.wellFormedByteLength(run.substring(0, at) + HIGH + run.substring(at + 1)))
                                .as("a lone surrogate at %d of %d", at, length).isEqualTo(-1);
                    }
                }
            }
        }

        @Test
        void seesACharacterBeyondAsciiAroundEveryChunkEdgeOfALongString() {
            // A long string's leading ASCII run is read in chunks: the character that ends it is put on each
            // side of every chunk edge, in strings just under, at and over the length that takes that path.
            int chunk = Utf8.CHUNK;
            for (int length : new int[] {Utf8.BULK_MIN_LENGTH - 1, Utf8.BULK_MIN_LENGTH, 3 * chunk + 5}) {
                String run = "a".repeat(length);
                assertThat(Utf8.wellFormedByteLength(run)).isEqualTo(length);
                for (int edge = 0; edge <= length; edge += chunk) {
                    for (int at = Math.max(0, edge - 1); at <= Math.min(length - 1, edge + 1); at++) {
                        for (String other : new String[] {"\u0080", "\u00FF", "é", "€"}) {
                            String text = run.substring(0, at) + other + run.substring(at + 1);
                            assertThat(Utf8.wellFormedByteLength(text)).as("%s at %d of %d", other, at, length)
                                    .isEqualTo(Utf8.byteLength(text)).isEqualTo(text.getBytes(UTF_8).length)
                                    .isEqualTo(length + other.getBytes(UTF_8).length - 1);
                        }
                        String lone = run.substring(0, at) + HIGH + run.substring(at + 1);
                        assertThat(Utf8.wellFormedByteLength(lone)).as("a lone surrogate at %d of %d", at, length)
                                .isEqualTo(-1);
                        assertThat(Utf8.byteLength(lone)).isEqualTo(length + 2);
                    }
                }
            }
        }

        @Test
        void countsASurrogatePairAcrossAChunkEdge() {
            int chunk = Utf8.CHUNK;
            String text = "a".repeat(chunk - 1) + "😀" + "a".repeat(Utf8.BULK_MIN_LENGTH);

            assertThat(text.charAt(chunk - 1)).isEqualTo(HIGH.charAt(0));
            assertThat(Utf8.wellFormedByteLength(text)).isEqualTo(text.getBytes(UTF_8).length)
                    .isEqualTo(chunk - 1 + 4 + Utf8.BULK_MIN_LENGTH);
            assertThat(Utf8.wellFormedByteLength("a".repeat(chunk - 1) + HIGH + "a".repeat(Utf8.BULK_MIN_LENGTH)))
                    .isEqualTo(-1);
        }

        @Test
        void stopsCountingALongStringPastTheLimit() {
            String text = "a".repeat(4 * Utf8.CHUNK) + "€";

            assertThat(Utf8.exceeds(text, 4L * Utf8.CHUNK + 3)).isFalse();
            assertThat(Utf8.exceeds(text, 4L * Utf8.CHUNK + 2)).isTrue();
            assertThat(Utf8.exceeds(text, Utf8.CHUNK)).isTrue();
        }

        @Test
        void rejectsNullText() {
            assertThatNullPointerException().isThrownBy(() -> Utf8.wellFormedByteLength(null))
                    .withMessage("text is null");
        }
    }

    /** {@return one character that takes {@code width} bytes in UTF-8, 1 to 4} */
    public static String charOfWidth(int width) {
        return switch (width) {
            case 1 -> "a";
            case 2 -> "é";
            case 3 -> "€";
            case 4 -> "😀";
            default -> throw new IllegalArgumentException("width must be 1 to 4, was " + width);
        };
    }
}
