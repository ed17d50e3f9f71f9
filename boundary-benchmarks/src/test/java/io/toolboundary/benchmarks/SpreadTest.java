package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void takesTheMedianAndTheRangeOfTheFiniteValues() {
        assertThat(Spread.of(List.of(3.0, 1.0, 2.0, Double.NaN))).isEqualTo(new Spread(2.0, 1.0, 3.0, 3));
        assertThat(Spread.of(List.of(4.0, 1.0, 2.0, 3.0))).isEqualTo(new Spread(2.5, 1.0, 4.0, 4));
        assertThat(Spread.of(Arrays.asList(Double.NaN, null)).measured()).isFalse();
    }

    @Test
    void writesTheMedianWithItsRange() {
        assertThat(Spread.of(List.of(1.0, 2.0, 4.0)).format(Fmt::num)).isEqualTo("2.00 (1.00–4.00)");
        assertThat(Spread.of(List.of(5.0)).format(Fmt::num)).isEqualTo("5.00");
        assertThat(Spread.NONE.format(Fmt::num)).isEqualTo("n/a");
    }
}
