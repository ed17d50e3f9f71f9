package io.toolboundary.domain.bad;

import java.time.Clock;

/** Breaks "the domain never reads the clock" with {@code Clock.systemUTC()}. */
final class ReadsTheSystemClock {

    Clock clock() {
        return Clock.systemUTC();
    }
}
