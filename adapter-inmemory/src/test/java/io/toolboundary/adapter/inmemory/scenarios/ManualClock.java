package io.toolboundary.adapter.inmemory.scenarios;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that stands still until a test moves it. */
final class ManualClock extends Clock {

    private volatile Instant now;

    ManualClock(Instant start) {
        this.now = requireNonNull(start, "start is null");
    }

    void advance(Duration step) {
        requireNonNull(step, "step is null");
        now = now.plus(step);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a manual clock stays in UTC");
    }
}
