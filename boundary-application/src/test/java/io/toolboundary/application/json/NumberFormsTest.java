package io.toolboundary.application.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link NumberForms} writes what {@link CanonicalNumbers} writes for the double a literal names. */
class NumberFormsTest {

    @ParameterizedTest
    @ValueSource(strings = {"0", "-0", "-0.0", "0e5", "1", "-1", "10", "1.0", "1.50", "100e-2", "0.002", "1e21", "1e20",
        "123456789012345", "1234567890123456", "9007199254740993", "1e-6", "1e-7", "0.000001", "1e300", "1e-300", "1e301",
        "1e-301", "1e308", "1e309", "-1e309", "5e-324", "2e-324", "1e-999999", "1e999999", "1.7976931348623157e308",
        "333333333.33333329", "0.30000000000000004", "1E+2", "120e-1", "0.00000000000000000000000000001234"})
    void writesWhatCanonicalNumbersWritesForTheDoubleTheLiteralNames(String literal) {
        assertThat(written(literal)).as(literal).isEqualTo(expected(literal));
    }

    /** Fifteen digits or fewer take the short way; the rest go through the double; both must agree with it. */
    @Test
    void agreesWithCanonicalNumbersOnAHundredThousandRandomLiterals() {
        long firstSeed = 1_000L;
        for (long seed = firstSeed; seed < firstSeed + 100_000; seed++) {
            String literal = literal(new Random(seed));
            assertThat(written(literal)).as("seed %d: %s", seed, literal).isEqualTo(expected(literal));
        }
    }

    private static String literal(Random random) {
        StringBuilder literal = new StringBuilder();
        if (random.nextBoolean()) {
            literal.append('-');
        }
        int digits = 1 + random.nextInt(random.nextBoolean() ? 15 : 20);
        String mantissa = random.nextInt(5) == 0 ? "0".repeat(random.nextInt(4)) : "";
        StringBuilder all = new StringBuilder(mantissa);
        for (int i = 0; i < digits; i++) {
            all.append((char) ('0' + random.nextInt(10)));
        }
        all.append("0".repeat(random.nextInt(3) == 0 ? random.nextInt(25) : 0));
        int point = random.nextInt(all.length() + 1);
        String integer = all.substring(0, point).replaceFirst("^0+(?=.)", "");
        literal.append(integer.isEmpty() ? "0" : integer);
        if (point < all.length()) {
            literal.append('.').append(all.substring(point));
        }
        if (random.nextBoolean()) {
            literal.append(random.nextBoolean() ? 'e' : 'E').append(random.nextBoolean() ? "-" : random.nextBoolean() ? "+" : "")
                    .append(random.nextInt(random.nextBoolean() ? 30 : 340));
        }
        return literal.toString();
    }

    private static String written(String literal) {
        byte[] form = new byte[NumberForms.MAX_FORM_LENGTH];
        int length = NumberForms.write(literal, 0, literal.length(), form);
        return length == NumberForms.NOT_FINITE ? "not finite" : new String(form, 0, length, StandardCharsets.US_ASCII);
    }

    private static String expected(String literal) {
        double value = Double.parseDouble(literal);
        return Double.isFinite(value) ? CanonicalNumbers.format(value) : "not finite";
    }
}
