package io.toolboundary.benchmarks;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves one millisecond per call counted by the benchmark, whatever the wall clock does:
 * a record's TTL in milliseconds becomes the number of later calls it outlives, so a slow call (a GC
 * pause, a cold JIT) never finds its own record expired, and the store still drops old records.
 */
final class CallCountClock extends Clock {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final AtomicLong calls;

    CallCountClock(AtomicLong calls) {
        this.calls = requireNonNull(calls, "calls is null");
    }

    @Override
    public Instant instant() {
        return START.plusMillis(calls.get());
    }

    @Override
    public long millis() {
        return START.toEpochMilli() + calls.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the benchmark clock is UTC only");
    }
}
