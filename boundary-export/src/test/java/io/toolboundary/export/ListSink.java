package io.toolboundary.export;

import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Either;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An audit sink in memory, keyed as a database's primary key would be, that counts every write and can be
 * told to refuse: for tests of the exporter's own rules. The JDBC tests use real databases.
 */
final class ListSink implements AuditSink {

    final Map<InvocationKey, AuditedRecord> rows = new LinkedHashMap<>();
    final AtomicInteger writes = new AtomicInteger();
    final AtomicInteger rowsOffered = new AtomicInteger();
    volatile boolean down;
    /** Set to throw after writing: an exporter killed between the write and its acknowledgement. */
    volatile boolean dieAfterWrite;

    @Override
    public synchronized Either<AuditFailure, Integer> write(List<AuditedRecord> records) {
        writes.incrementAndGet();
        if (down) {
            return Either.left(new AuditFailure(AuditFailure.Kind.UNAVAILABLE, "connect: SQLSTATE 08001"));
        }
        int inserted = 0;
        for (AuditedRecord record : records) {
            rowsOffered.incrementAndGet();
            if (rows.putIfAbsent(record.record().key(), record) == null) {
                inserted++;
            }
        }
        if (dieAfterWrite) {
            throw new Killed();
        }
        return Either.right(inserted);
    }

    /** The exporter's thread ends here, as a killed process would. */
    static final class Killed extends RuntimeException {
        Killed() {
            super("killed after the write", null, false, false);
        }
    }
}
