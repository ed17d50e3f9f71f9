package io.toolboundary.adapter.inmemory;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.vavr.control.Either;
import java.time.Duration;

/** Opens the runs of this module's tests in their stores, as a harness does through the boundary. */
final class OpenRuns {

    private OpenRuns() {
    }

    /**
     * Opens {@code run} in {@code store} for a year, with the run's own token when it carries one (else a
     * fresh one), asserting it opened.
     */
    static RunContext openIn(CanonicalInvocationStore store, RunContext run) {
        RunToken token = run.runToken().getOrElse(RunToken::random);
        assertThat(store.openRun(new RunOpening(run.runId(), token, Duration.ofDays(365)), TIMEOUT)).as("open %s", run.runId())
                .isEqualTo(Either.right(token));
        return run.opened(token);
    }
}
