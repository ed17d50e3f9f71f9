package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class FreshMemoryTest {

    @Test
    void measuresBothWritesOfEveryPage() {
        FreshMemory.Cost cost = FreshMemory.measure(4, 3);

        assertThat(cost.first()).isPositive().isFinite();
        assertThat(cost.again()).isPositive().isFinite();
        assertThat(cost.mib()).isEqualTo(4);
        assertThat(cost.repeats()).isEqualTo(3);
    }

    @Test
    void writesTheLineMachineTxtGets() {
        assertThat(new FreshMemory.Cost(9.87, 0.0412, 128, 3).line()).isEqualTo("fresh memory: 9.87 µs per 4 KiB page"
                + " written first, 0.041 µs written again (128 MiB blocks, median of 3)");
    }

    @Test
    void refusesABlockOutOfRangeOrNoRepeat() {
        assertThatIllegalArgumentException().isThrownBy(() -> FreshMemory.measure(0, 3));
        assertThatIllegalArgumentException().isThrownBy(() -> FreshMemory.measure(1025, 1));
        assertThatIllegalArgumentException().isThrownBy(() -> FreshMemory.measure(4, 0));
    }
}
