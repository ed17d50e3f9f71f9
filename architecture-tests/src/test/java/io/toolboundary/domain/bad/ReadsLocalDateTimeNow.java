package io.toolboundary.domain.bad;

import java.time.LocalDateTime;

/** Breaks "the domain never reads the clock" with {@code LocalDateTime.now()}. */
final class ReadsLocalDateTimeNow {

    LocalDateTime stamp() {
        return LocalDateTime.now();
    }
}
