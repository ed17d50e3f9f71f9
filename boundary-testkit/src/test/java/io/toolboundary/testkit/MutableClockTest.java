package io.toolboundary.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class MutableClockTest {

    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void movesOnlyWhenTold() {
        MutableClock clock = MutableClock.at(START);

        assertThat(clock.instant()).isEqualTo(START);
        clock.advance(Duration.ofNanos(1));
        assertThat(clock.instant()).isEqualTo(START.plusNanos(1));
    }

    @Test
    void refusesToAdvanceBackwards() {
        MutableClock clock = MutableClock.at(START);

        assertThatIllegalArgumentException().isThrownBy(() -> clock.advance(Duration.ofMillis(-1)));
        assertThat(clock.instant()).isEqualTo(START);
    }

    @Test
    void canBeSetBack() {
        MutableClock clock = MutableClock.at(START);

        clock.set(START.minusSeconds(30));

        assertThat(clock.instant()).isEqualTo(START.minusSeconds(30));
        assertThatNullPointerException().isThrownBy(() -> clock.set(null)).withMessage("instant is null");
    }

    @Test
    void aClockInAnotherZoneSharesTheReading() {
        MutableClock clock = MutableClock.at(START);
        MutableClock paris = clock.withZone(ZoneId.of("Europe/Paris"));

        clock.advance(Duration.ofMinutes(5));

        assertThat(paris.instant()).isEqualTo(START.plusSeconds(300));
    }
}
