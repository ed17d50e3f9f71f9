package io.toolboundary.application.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link CanonicalNumbers} writes doubles exactly as ECMAScript's {@code Number.prototype.toString}. */
class CanonicalNumbersTest {

    /**
     * The sample numbers of RFC 8785, Appendix B: the IEEE-754 bits of a double and its canonical form.
     */
    @ParameterizedTest
    @CsvSource({
        "0000000000000000, 0",
        "8000000000000000, 0",
        "0000000000000001, 5e-324",
        "8000000000000001, -5e-324",
        "7fefffffffffffff, 1.7976931348623157e+308",
        "ffefffffffffffff, -1.7976931348623157e+308",
        "4340000000000000, 9007199254740992",
        "c340000000000000, -9007199254740992",
        "4430000000000000, 295147905179352830000",
        "44b52d02c7e14af5, 9.999999999999997e+22",
        "44b52d02c7e14af6, 1e+23",
        "44b52d02c7e14af7, 1.0000000000000001e+23",
        "444b1ae4d6e2ef4e, 999999999999999700000",
        "444b1ae4d6e2ef4f, 999999999999999900000",
        "444b1ae4d6e2ef50, 1e+21",
        "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
        "3eb0c6f7a0b5ed8d, 0.000001",
        "41b3de4355555553, 333333333.3333332",
        "41b3de4355555554, 333333333.33333325",
        "41b3de4355555555, 333333333.3333333",
        "41b3de4355555556, 333333333.3333334",
        "41b3de4355555557, 333333333.33333343",
        "becbf647612f3696, -0.0000033333333333333333",
        "43143ff3c1cb0959, 1424953923781206.2"
    })
    void writesTheSampleNumbersOfRfc8785AppendixB(String bits, String expected) {
        assertThat(CanonicalNumbers.format(fromBits(bits))).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
        "1.0, 1", "100, 100", "1e21, 1e+21", "1e20, 100000000000000000000", "0.000001, 0.000001", "1e-7, 1e-7",
        "0.1, 0.1", "-0.5, -0.5", "123.456, 123.456", "1.5e-7, 1.5e-7", "1.5e21, 1.5e+21", "1e-323, 1e-323",
        // Java 17's Double.toString writes 2.82879384806159008E17, 1.9999999999999998E23 and 9.999999999999999E22.
        "2.82879384806159E17, 282879384806159000", "2e23, 2e+23", "1.0E23, 1e+23"
    })
    void writesTheShortestDigitsInEcmaScriptLayout(double value, String expected) {
        assertThat(CanonicalNumbers.format(value)).isEqualTo(expected);
    }

    /**
     * 3,298 finite doubles and the form Node.js gave for each ({@code String(x)}), generated once by a seeded
     * script: random bit patterns, decimals of up to 8 digits scaled by 10^-30 to 10^29, short literals,
     * random binary fractions and powers of two from 2^-1074 to 2^1023.
     */
    @Test
    void agreesWithAnEcmaScriptEngineOnThreeThousandDoubles() throws IOException {
        List<String> disagreements = new ArrayList<>();
        int checked = 0;
        for (String line : lines("ecmascript-numbers.txt")) {
            String[] parts = line.split(" ");
            String written = CanonicalNumbers.format(fromBits(parts[0]));
            if (!written.equals(parts[1])) {
                disagreements.add(parts[0] + ": expected " + parts[1] + ", wrote " + written);
            }
            checked++;
        }

        assertThat(checked).isGreaterThan(3000);
        assertThat(disagreements).isEmpty();
    }

    @Test
    void readsBackAsTheSameDoubleAndIsNeverLongerThanJavasOwnDigits() {
        Random random = new Random(8785L);
        for (int i = 0; i < 20_000; i++) {
            double value = Double.longBitsToDouble(random.nextLong());
            if (!Double.isFinite(value)) {
                continue;
            }
            String written = CanonicalNumbers.format(value);

            assertThat(Double.parseDouble(written)).as(written).isEqualTo(value == 0 ? 0 : value);
            assertThat(significantDigits(written)).as(written)
                    .isLessThanOrEqualTo(significantDigits(Double.toString(value)));
        }
    }

    @Test
    void refusesWhatJsonCannotHold() {
        for (double notFinite : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> CanonicalNumbers.format(notFinite)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static double fromBits(String hex) {
        return Double.longBitsToDouble(Long.parseUnsignedLong(hex, 16));
    }

    private static int significantDigits(String number) {
        String mantissa = number.toLowerCase().split("e")[0].replace("-", "");
        return new BigDecimal(mantissa).stripTrailingZeros().precision();
    }

    private static List<String> lines(String resource) throws IOException {
        try (InputStream in = Objects.requireNonNull(CanonicalNumbersTest.class.getResourceAsStream(resource), resource);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return reader.lines().filter(line -> !line.isBlank()).toList();
        }
    }
}
