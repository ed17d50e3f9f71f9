package io.toolboundary.tck.reliability.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.tck.reliability.history.Linearizability.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LinearizabilityTest {

    /** A register of integers, starting at 0: write v answers 0; read answers the value. */
    record Register() implements Model<Integer, int[], Integer> {
        @Override
        public Integer initial() {
            return 0;
        }

        @Override
        public List<Integer> step(Integer state, int[] input, Integer output) {
            if (input[0] == 1) { // write
                return List.of(input[1]);
            }
            return output == null || output.equals(state) ? List.of(state) : List.of();
        }
    }

    static Operation<int[], Integer> write(int p, long from, long to, int value) {
        return Operation.answered(p, from, to, new int[] {1, value}, 0);
    }

    static Operation<int[], Integer> read(int p, long from, long to, int value) {
        return Operation.answered(p, from, to, new int[] {0}, value);
    }

    static Operation<int[], Integer> openWrite(int p, long from, int value) {
        return Operation.undetermined(p, from, new int[] {1, value});
    }

    static Verdict verdict(List<Operation<int[], Integer>> history) {
        return Linearizability.check(new Register(), history).verdict();
    }

    @Test
    void sequentialRegisterHistoryIsLinearizable() {
        assertThat(verdict(List.of(write(0, 0, 1, 5), read(1, 2, 3, 5), write(0, 4, 5, 7), read(1, 6, 7, 7))))
                .isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void overlappingReadMaySeeOldOrNewValue() {
        assertThat(verdict(List.of(write(0, 0, 10, 1), read(1, 1, 2, 0), read(2, 3, 4, 1), read(1, 5, 6, 1))))
                .isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void staleReadAfterWriteReturnedIsRefused() {
        assertThat(verdict(List.of(write(0, 0, 1, 1), read(1, 2, 3, 0)))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void newThenOldValueIsRefused() {
        // Both reads overlap the write, but once one read saw 1 a later read cannot see 0.
        assertThat(verdict(List.of(write(0, 0, 10, 1), read(1, 1, 2, 1), read(2, 3, 4, 0))))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void undeterminedWriteMayHaveTakenEffectOrNot() {
        assertThat(verdict(List.of(openWrite(0, 0, 1), read(1, 5, 6, 1)))).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(List.of(openWrite(0, 0, 1), read(1, 5, 6, 0)))).isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(List.of(openWrite(0, 0, 1), read(1, 5, 6, 0), read(1, 7, 8, 1))))
                .isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void undeterminedWriteTakesEffectOnceAndNotBeforeItsInvoke() {
        assertThat(verdict(List.of(openWrite(0, 0, 1), read(1, 5, 6, 1), read(1, 7, 8, 0))))
                .isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(verdict(List.of(read(1, 0, 1, 1), openWrite(0, 2, 1)))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void equalInstantsCountAsOverlapping() {
        assertThat(verdict(List.of(write(0, 0, 5, 1), read(1, 5, 6, 0)))).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void searchNeedsBacktracking() {
        // Linearizable only as w2, r2, w1, r1: the search must back out of its first choices.
        assertThat(verdict(List.of(write(0, 0, 10, 1), write(1, 0, 10, 2), read(2, 1, 11, 2), read(3, 9, 12, 1))))
                .isEqualTo(Verdict.LINEARIZABLE);
        assertThat(verdict(List.of(write(0, 0, 10, 1), write(1, 0, 10, 2), read(2, 1, 3, 2), read(3, 4, 5, 1),
                read(2, 11, 12, 2)))).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void generatedSequentialHistoriesWithConcurrencyAreLinearizable() {
        // A real register run by several threads, each operation's window wrapped around its atomic instant.
        Random random = new Random(42);
        for (int round = 0; round < 50; round++) {
            List<Operation<int[], Integer>> history = new ArrayList<>();
            int value = 0;
            for (int t = 0; t < 200; t++) {
                long at = t * 10L;
                long from = at - random.nextInt(40);
                long to = at + random.nextInt(40);
                int p = random.nextInt(6);
                if (random.nextBoolean()) {
                    value = random.nextInt(4);
                    history.add(random.nextInt(10) == 0 ? openWrite(p, from, value) : write(p, from, to, value));
                } else {
                    history.add(read(p, from, to, value));
                }
            }
            assertThat(verdict(history)).as("round %d", round).isEqualTo(Verdict.LINEARIZABLE);
        }
    }

    @Test
    void budgetLeavesTheVerdictUndecided() {
        List<Operation<int[], Integer>> history = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            history.add(write(i, 0, 100, i));
        }
        history.add(read(0, 101, 102, 99));
        assertThat(Linearizability.check(new Register(), history, 1_000).verdict()).isEqualTo(Verdict.UNDECIDED);
        assertThat(Linearizability.check(new Register(), history).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }
}
