package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class StoreBudgetTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    private static StoreBudget start(Duration total, LongSupplier nanoTime) {
        return StoreBudget.Terms.of(total, nanoTime).startNow();
    }

    @Test
    void givesBeginAtMostHalfTheBudget() {
        StoreBudget budget = start(Duration.ofSeconds(10), nanos::get);

        assertThat(budget.withinNanos(Duration.ofHours(1).toNanos()).forBegin()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void givesBeginNoMoreThanTheRunHasLeft() {
        StoreBudget budget = start(Duration.ofSeconds(10), nanos::get);

        assertThat(budget.withinNanos(Duration.ofMillis(300).toNanos()).forBegin()).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void givesEveryStoreCallAtLeastOneMillisecondEvenWhenTheDeadlineHasPassed() {
        StoreBudget budget = start(Duration.ofSeconds(10), nanos::get);

        StoreBudget pastDeadline = budget.withinNanos(Duration.ofMillis(-5).toNanos());

        assertThat(pastDeadline.forBegin()).isEqualTo(Duration.ofMillis(1));
        assertThat(pastDeadline.hasTimeLeft()).isFalse();
    }

    @Test
    void endsTheCleanUpAtTheRunsDeadlineWhenItComesBeforeTheBudgetRunsOut() {
        StoreBudget budget = start(Duration.ofSeconds(4), nanos::get);
        StoreBudget beforeDeadline = budget.withinNanos(Duration.ofSeconds(2).toNanos());

        nanos.addAndGet(Duration.ofMillis(1_900).toNanos());
        assertThat(beforeDeadline.remaining()).isEqualTo(Duration.ofMillis(100));
        assertThat(budget.remaining()).isEqualTo(Duration.ofMillis(2_100));

        nanos.addAndGet(Duration.ofMillis(100).toNanos());
        assertThat(beforeDeadline.hasTimeLeft()).as("at the deadline").isFalse();
        assertThat(budget.hasTimeLeft()).isTrue();
    }

    @Test
    void neverOutlastsTheBudgetItWasCutFrom() {
        StoreBudget budget = start(Duration.ofSeconds(4), nanos::get);
        nanos.addAndGet(Duration.ofSeconds(3).toNanos());

        assertThat(budget.withinNanos(Duration.ofHours(1).toNanos()).remaining()).isEqualTo(Duration.ofSeconds(1));
        assertThat(budget.withinNanos(Duration.ofDays(36_500).toNanos()).remaining()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void neverGrowsAndRunsOut() {
        StoreBudget budget = start(Duration.ofMillis(20), nanos::get);
        assertThat(budget.remaining()).isEqualTo(Duration.ofMillis(20));
        assertThat(budget.hasTimeLeft()).isTrue();

        nanos.addAndGet(Duration.ofMillis(19).toNanos());
        assertThat(budget.remaining()).isEqualTo(Duration.ofMillis(1));
        assertThat(budget.hasTimeLeft()).isTrue();

        nanos.addAndGet(Duration.ofMillis(21).toNanos());

        assertThat(budget.hasTimeLeft()).isFalse();
        assertThat(budget.remaining()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void cutsBeginsShareAndTheRunsDeadlineFromTheBudgetsStartWithoutReadingTheTimeAgain() {
        AtomicLong readings = new AtomicLong();
        StoreBudget budget = start(Duration.ofSeconds(4), () -> {
            readings.incrementAndGet();
            return nanos.get();
        });
        nanos.addAndGet(Duration.ofMillis(500).toNanos());

        StoreBudget beforeDeadline = budget.withinNanos(Duration.ofSeconds(1).toNanos());

        assertThat(beforeDeadline.forBegin()).as("the deadline a second from the start").isEqualTo(Duration.ofSeconds(1));
        assertThat(budget.forBegin()).as("half the budget").isEqualTo(Duration.ofSeconds(2));
        assertThat(readings).as("one reading, at the start").hasValue(1);
        assertThat(beforeDeadline.remaining()).isEqualTo(Duration.ofMillis(500));
    }
}
