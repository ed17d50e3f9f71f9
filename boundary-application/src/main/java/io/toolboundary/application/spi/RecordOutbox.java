package io.toolboundary.application.spi;

import io.vavr.control.Either;
import java.time.Duration;
import java.util.List;

/**
 * The outbox of final records, for export beside the boundary: the store appends an entry in the same
 * atomic step that makes a record final (complete, end, abandon), so a record that becomes final is in
 * the outbox and one that never does is not. Several exporters may read it at once; an entry stays until
 * one acknowledges it, and an entry delivered to an exporter that stopped before acknowledging is
 * delivered again once it has been idle for the poll's {@code claimIdle}.
 *
 * <p>Delivery is at least once: an exporter writes each record in an upsert keyed by (run id,
 * tool_call_id), so a second delivery writes nothing new. No method throws for an infrastructure failure;
 * each returns within its {@code timeout}.
 */
public interface RecordOutbox {

    /**
     * Takes up to {@code max} entries for {@code consumer}: first entries delivered before and left
     * unacknowledged for at least {@code claimIdle} (by any consumer, this one included), then entries
     * never delivered, oldest first. Waits for none: an empty list means nothing is due now.
     *
     * @param consumer the exporter's name, {@code [A-Za-z0-9_.:-]}, 1 to 64 characters
     * @param max the most entries to take, 1 or more
     * @param claimIdle how long a delivered entry must stay unacknowledged before it is delivered again
     * @param timeout the longest this call may take
     * @return the entries, oldest first
     */
    Either<StoreFailure, List<OutboxEntry>> poll(String consumer, int max, Duration claimIdle, Duration timeout);

    /**
     * Removes entries whose records are exported, and counts those whose records were gone before export
     * ({@code lost}, a subset of {@code entries}) in the outbox's lasting tally. Acknowledging an entry
     * again, or one another exporter acknowledged, changes nothing and counts nothing.
     *
     * @param entries the entries exported or found lost
     * @param lost the entries among them whose records had expired
     * @param timeout the longest this call may take
     * @return how many entries this call removed
     */
    Either<StoreFailure, Integer> acknowledge(List<OutboxEntry> entries, List<OutboxEntry> lost, Duration timeout);

    /**
     * {@return what the outbox holds: entries not yet acknowledged, the oldest one's instant, and records
     * lost before export}
     *
     * @param timeout the longest this call may take
     */
    Either<StoreFailure, OutboxBacklog> backlog(Duration timeout);
}
