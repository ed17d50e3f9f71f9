package io.toolboundary.application.spi;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Option;
import java.time.Instant;

/**
 * One entry of a {@link RecordOutbox}: a record that became final, by its key, and the record itself when
 * the outbox carries whole records.
 *
 * @param id the entry's id in its outbox, unique and ordered by appending
 * @param key the record's key
 * @param appendedAt when the record became final and the entry was appended, by the store's clock
 * @param record the final record, when the outbox carries whole records; otherwise none, and the exporter
 *     reads it from the store
 */
public record OutboxEntry(String id, InvocationKey key, Instant appendedAt, Option<CanonicalRecord.Final> record) {

    /**
     * An entry.
     *
     * @param id the entry's id in its outbox
     * @param key the record's key
     * @param appendedAt when the entry was appended
     * @param record the final record, when the outbox carries whole records
     * @throws IllegalArgumentException when the id is empty, or a carried record has another key
     */
    public OutboxEntry {
        requireNonNull(id, "id is null");
        requireNonNull(key, "key is null");
        requireNonNull(appendedAt, "appendedAt is null");
        requireNonNull(record, "record is null");
        if (id.isEmpty()) {
            throw new IllegalArgumentException("id is empty");
        }
        if (record.exists(carried -> !carried.key().equals(key))) {
            throw new IllegalArgumentException("the carried record's key is not the entry's key");
        }
    }
}
