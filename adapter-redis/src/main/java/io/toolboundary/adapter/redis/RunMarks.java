package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.RunId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What this process has seen of each run's state: the most calls the store reported the run had begun,
 * per opening (run id and token). {@code begin.lua} refuses a run's state with fewer ({@code RUN_LOST}):
 * an older copy of it, left by a failover to a replica that missed the last writes, whose ledger would
 * let a call that ran run again. Holds the {@value #CAPACITY} runs used last; a run beyond them is
 * checked by its token alone. Thread-safe.
 */
final class RunMarks {

    /** How many runs are remembered. */
    static final int CAPACITY = 10_000;

    private final Map<String, Long> seen = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > CAPACITY;
        }
    };

    /** The most calls seen begun in this opening of the run; 0 when none was seen. */
    synchronized long seen(RunId runId, RunToken token) {
        return seen.getOrDefault(key(runId, token), 0L);
    }

    /** Notes that the store reported {@code calls} begun in this opening of the run. */
    synchronized void saw(RunId runId, RunToken token, long calls) {
        seen.merge(key(runId, token), calls, Math::max);
    }

    private static String key(RunId runId, RunToken token) {
        return runId.value() + ' ' + token.value();
    }
}
