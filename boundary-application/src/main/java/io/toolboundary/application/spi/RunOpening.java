package io.toolboundary.application.spi;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.RunId;
import java.time.Duration;

/**
 * What {@link CanonicalInvocationStore#openRun} needs, checked once here.
 *
 * @param runId the run
 * @param offered the token to open the run with when the store does not hold it
 * @param ttl how long the run's state lives, positive: at least the time to the run's deadline plus the
 *     record TTL, so that it outlives every record of the run
 */
public record RunOpening(RunId runId, RunToken offered, Duration ttl) {

    /**
     * Builds the request to open a run.
     *
     * @param runId the run
     * @param offered the token to open the run with when the store does not hold it
     * @param ttl how long the run's state lives
     * @throws IllegalArgumentException when the TTL is not positive
     */
    public RunOpening {
        requireNonNull(runId, "runId is null");
        requireNonNull(offered, "offered is null");
        requireNonNull(ttl, "ttl is null");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, was " + ttl);
        }
    }
}
