package io.toolboundary.domain.bad;

import java.time.Instant;
import java.util.function.Supplier;

/** Breaks "the domain never reads the clock" through {@code Instant::now}. */
final class ReadsTheClockThroughAMethodReference {

    Supplier<Instant> stamps() {
        return Instant::now;
    }
}
