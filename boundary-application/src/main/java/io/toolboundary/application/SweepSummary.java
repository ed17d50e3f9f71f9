package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.ToolCallId;
import java.util.List;

/**
 * What {@link ToolBoundary#abandonExpired(io.toolboundary.domain.RunId)} did to one run's records.
 *
 * @param lookedAt how many of the run's records were read (final ones and those gone meanwhile included)
 * @param abandoned the records it ended in ERROR with {@code EXECUTION_ABANDONED}, immutable, in the
 *     order of their ids
 * @param stillLeased the records left PROJECTING because their lease has not passed by the store's
 *     clock, immutable, in the order of their ids
 * @param errors how many store calls failed (listing, reading or abandoning); a record they concern
 *     may still be PROJECTING, so sweep again later when this is not 0
 */
public record SweepSummary(int lookedAt, List<ToolCallId> abandoned, List<ToolCallId> stillLeased, int errors) {

    /**
     * Checks and copies the lists.
     *
     * @param lookedAt how many records were read
     * @param abandoned the records ended
     * @param stillLeased the records still within their lease
     * @param errors how many store calls failed
     */
    public SweepSummary {
        abandoned = List.copyOf(requireNonNull(abandoned, "abandoned is null"));
        stillLeased = List.copyOf(requireNonNull(stillLeased, "stillLeased is null"));
        if (lookedAt < 0 || errors < 0) {
            throw new IllegalArgumentException("counts must not be negative");
        }
    }
}
