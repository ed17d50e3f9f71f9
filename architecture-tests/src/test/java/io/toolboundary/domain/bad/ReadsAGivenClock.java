package io.toolboundary.domain.bad;

import java.time.Clock;
import java.time.Instant;

/** Breaks "the domain never reads the clock": reading a clock it was given is still reading it. */
final class ReadsAGivenClock {

    Instant stamp(Clock clock) {
        return clock.instant();
    }
}
