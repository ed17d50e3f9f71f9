package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolName;

/**
 * The key layout. Every key of a run carries the run id as its hash tag, so that a script touching a
 * record and its run's counters stays in one cluster slot.
 */
final class RedisKeys {

    private final String prefix;

    RedisKeys(String prefix) {
        this.prefix = requireNonNull(prefix, "prefix is null");
    }

    /** {@code <prefix>:{<runId>}:call:<toolCallId>}, the record hash. */
    String record(InvocationKey key) {
        return run(key.runId()) + ":call:" + key.toolCallId().value();
    }

    /** {@code <prefix>:{<runId>}:budget:run}. */
    String runBudget(RunId runId) {
        return run(runId) + ":budget:run";
    }

    /** {@code <prefix>:{<runId>}:budget:tool:<toolName>}. */
    String toolBudget(RunId runId, ToolName tool) {
        return run(runId) + ":budget:tool:" + tool.value();
    }

    /** {@code <prefix>:{<runId>}}, the start of every key of the run. */
    String run(RunId runId) {
        return prefix + ":{" + runId.value() + "}";
    }
}
