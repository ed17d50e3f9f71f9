package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CallCountClockTest {

    @Test
    void movesOneMillisecondPerCountedCallAndNotOtherwise() {
        AtomicLong calls = new AtomicLong();
        CallCountClock clock = new CallCountClock(calls);
        var start = clock.instant();

        assertThat(clock.instant()).isEqualTo(start);
        calls.addAndGet(250);

        assertThat(Duration.between(start, clock.instant())).isEqualTo(Duration.ofMillis(250));
        assertThat(clock.millis()).isEqualTo(clock.instant().toEpochMilli());
    }
}
