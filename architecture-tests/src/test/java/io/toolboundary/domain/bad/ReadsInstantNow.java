package io.toolboundary.domain.bad;

import java.time.Instant;

/** Breaks "the domain never reads the clock" with {@code Instant.now()}. */
final class ReadsInstantNow {

    Instant stamp() {
        return Instant.now();
    }
}
