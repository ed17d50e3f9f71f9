package io.toolboundary.domain.bad;

import java.util.Date;

/** Breaks "the domain never reads the clock" with {@code new Date()}. */
final class ReadsTheClockThroughNewDate {

    Date stamp() {
        return new Date();
    }
}
