package io.toolboundary.export;

import io.vavr.control.Either;
import java.util.List;

/**
 * Where a {@link RecordExporter} writes final records: one row per record, keyed by (run id,
 * tool_call_id). Writing a record whose row exists changes nothing (a final record never changes), so a
 * record delivered twice is written once. A batch is written in one transaction: all of it or none.
 */
public interface AuditSink {

    /**
     * Writes {@code records}, each in an upsert keyed by (run id, tool_call_id), in one transaction.
     *
     * @param records the records, as their raw response policies left them
     * @return how many rows were inserted (records written before are not counted), or why none were
     */
    Either<AuditFailure, Integer> write(List<AuditedRecord> records);
}
