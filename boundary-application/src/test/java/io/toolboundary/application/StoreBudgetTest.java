package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StoreBudgetTest {

    @Test
    void givesBeginAtMostHalfTheBudget() {
        StoreBudget budget = StoreBudget.startingNow(Duration.ofSeconds(10));

        assertThat(budget.forBegin(Duration.ofHours(1))).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void givesBeginNoMoreThanTheRunHasLeft() {
        StoreBudget budget = StoreBudget.startingNow(Duration.ofSeconds(10));

        assertThat(budget.forBegin(Duration.ofMillis(300))).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void givesEveryStoreCallAtLeastOneMillisecondEvenWhenTheDeadlineHasPassed() {
        StoreBudget budget = StoreBudget.startingNow(Duration.ofSeconds(10));

        assertThat(budget.forBegin(Duration.ofMillis(-5))).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void neverGrowsAndRunsOut() {
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong(1_000_000_000L);
        StoreBudget budget = StoreBudget.startingNow(Duration.ofMillis(20), nanos::get);
        assertThat(budget.remaining()).isEqualTo(Duration.ofMillis(20));
        assertThat(budget.hasTimeLeft()).isTrue();

        nanos.addAndGet(Duration.ofMillis(19).toNanos());
        assertThat(budget.remaining()).isEqualTo(Duration.ofMillis(1));
        assertThat(budget.hasTimeLeft()).isTrue();

        nanos.addAndGet(Duration.ofMillis(21).toNanos());

        assertThat(budget.hasTimeLeft()).isFalse();
        assertThat(budget.remaining()).isEqualTo(Duration.ofMillis(1));
        assertThat(budget.forBegin(Duration.ofHours(1))).isEqualTo(Duration.ofMillis(1));
    }
}
