package io.toolboundary.domain;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

class Utf8PropertyTest {

    @Property(tries = 1000)
    void byteLengthEqualsTheEncodedLength(@ForAll("wellFormedText") String text) {
        assertThat(Utf8.isWellFormed(text)).isTrue();
        assertThat(Utf8.byteLength(text)).isEqualTo(text.getBytes(UTF_8).length);
    }

    @Property(tries = 1000)
    void exceedsSwitchesExactlyAtTheEncodedLength(@ForAll("wellFormedText") String text) {
        long length = text.getBytes(UTF_8).length;

        assertThat(Utf8.exceeds(text, length)).isFalse();
        assertThat(Utf8.exceeds(text, length - 1)).isTrue();
    }

    @Provide
    Arbitrary<String> wellFormedText() {
        Arbitrary<Integer> codePoints = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.integers().between(0, 0x7F)),
                Tuple.of(3, Arbitraries.integers().between(0x80, 0x7FF)),
                Tuple.of(3, Arbitraries.integers().between(0x800, 0xFFFF)
                        .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)),
                Tuple.of(3, Arbitraries.integers().between(0x10000, Character.MAX_CODE_POINT)));
        return codePoints.list().ofMaxSize(64)
                .map(cps -> new String(cps.stream().mapToInt(Integer::intValue).toArray(), 0, cps.size()));
    }
}
