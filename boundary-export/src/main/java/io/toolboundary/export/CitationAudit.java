package io.toolboundary.export;

import static java.util.Objects.requireNonNull;

import io.toolboundary.citations.CitationReport;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Writes each citation check's report to the audit database, one row per checked answer: the listener of a
 * {@code CitationCheck}. {@link #accept} never writes and never waits: it puts the report in a bounded queue
 * and returns; a daemon thread of its own, {@code toolboundary-citation-audit}, writes the queue in batches of
 * up to {@value #MAX_BATCH}, each in one transaction, and {@link JdbcAudit#citationChecks} reads them back.
 *
 * <p>Promises: a row per accepted report, once (a batch whose commit failed is written again without a
 * second row), in the order accepted; {@code checked_at} is the instant {@link #accept} was called, which is
 * when the check answered, read from the clock. A report is counted in {@link #lost()}, never written, when the
 * queue is full, after {@link #close}, or when it cannot be a row (null, an instant outside 0001 to 9999 UTC).
 * A batch the database fails or refuses is kept and written again after a back-off that doubles from 200 ms to
 * 30 s, counted in {@link #failures()}; the queue waits behind it. Nothing thrown reaches the check; failures
 * are {@link AuditFailure}s whose reason holds the SQLSTATE and vendor code, never SQL, a value or a URL.
 * Only ids that are safe tool_call_ids are written: any other is {@code ?}. Thread-safe.
 */
public final class CitationAudit implements Consumer<CitationReport>, AutoCloseable {

    /** The table the migrations create ({@code V2__toolboundary_citation_check.sql}). */
    public static final String DEFAULT_TABLE = CitationRows.DEFAULT_TABLE;
    /** The most reports waiting to be written, by default. */
    public static final int DEFAULT_CAPACITY = 10_000;
    /** The most reports written in one transaction. */
    public static final int MAX_BATCH = 100;

    private final DataSource dataSource;
    private final String table;
    private final SqlDialect dialect;
    private final int capacity;
    private final Clock clock;
    private final Backoff backoff;
    private final Duration closeTimeout;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Reports accepted and not yet taken by the writer; guarded by {@link #lock}. */
    private final ArrayDeque<AuditedCitationCheck> queue = new ArrayDeque<>();
    /** Reports the writer has taken and not yet written; guarded by {@link #lock}. */
    private int held;
    /** No report is accepted any more; the writer stops once the queue is written. Guarded by {@link #lock}. */
    private boolean closing;
    /** The writer stops after its current attempt, whatever is left. Guarded by {@link #lock}. */
    private boolean abandoned;

    private final AtomicLong written = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<Option<AuditFailure>> lastFailure = new AtomicReference<>(Option.none());
    private final Thread writer;

    private CitationAudit(Builder builder, SqlDialect dialect) {
        this.dataSource = builder.dataSource;
        this.table = builder.table;
        this.dialect = dialect;
        this.capacity = builder.capacity;
        this.clock = builder.clock;
        this.backoff = builder.backoff;
        this.closeTimeout = builder.closeTimeout;
        this.writer = new Thread(this::run, "toolboundary-citation-audit");
        this.writer.setDaemon(true);
    }

    /**
     * {@return a builder of an audit writing to {@code dataSource}'s table {@value #DEFAULT_TABLE}}
     *
     * @param dataSource the application's data source: MariaDB 10.3+, MySQL 8+, PostgreSQL 9.5+ or H2 2.x
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(requireNonNull(dataSource, "dataSource is null"));
    }

    /**
     * {@return an audit writing to {@code dataSource}'s table {@value #DEFAULT_TABLE} with the defaults, its
     * writer started}
     *
     * @param dataSource the application's data source: MariaDB 10.3+, MySQL 8+, PostgreSQL 9.5+ or H2 2.x
     * @throws IllegalArgumentException when the database is not one of those (naming it)
     * @throws IllegalStateException when no connection can be had to read the product (with its SQLSTATE)
     */
    public static CitationAudit of(DataSource dataSource) {
        return builder(dataSource).build();
    }

    /**
     * Queues {@code report} to be written, stamped with the clock's instant; never blocks, never throws. When the
     * queue is full, after {@link #close}, or for a report that cannot be a row, it is counted in {@link #lost()}.
     *
     * @param report the check's report
     */
    @Override
    public void accept(CitationReport report) {
        try {
            AuditedCitationCheck check = row(report, clock.instant());
            lock.lock();
            try {
                if (closing || queue.size() >= capacity) {
                    lost.incrementAndGet();
                    return;
                }
                queue.addLast(check);
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        } catch (RuntimeException unrecordable) {
            lost.incrementAndGet();
        }
    }

    /** The row of {@code report}, checked at {@code at}; an unsafe id as none. */
    private static AuditedCitationCheck row(CitationReport report, Instant at) {
        requireNonNull(report, "report is null");
        if (!CitationRows.fits(at)) {
            throw new IllegalArgumentException("the clock's instant is outside 0001 to 9999 UTC");
        }
        List<CitationReport.Checked> citations = report.citations();
        List<AuditedCitationCheck.Verdict> verdicts = new ArrayList<>(Math.min(citations.size(),
                AuditedCitationCheck.MAX_VERDICTS));
        for (CitationReport.Checked checked : citations) {
            if (verdicts.size() == AuditedCitationCheck.MAX_VERDICTS) {
                break;
            }
            verdicts.add(new AuditedCitationCheck.Verdict(checked.citation().kind().name(),
                    ToolCallId.of(checked.citation().toolCallId()).toOption(), checked.verdict().name()));
        }
        return new AuditedCitationCheck(UUID.randomUUID(), report.runId(), at, report.grounded(), report.uncited(),
                citations.size(), verdicts);
    }

    private void run() {
        Duration failedPause = backoff.min();
        List<AuditedCitationCheck> batch = List.of();
        while (true) {
            lock.lock();
            try {
                if (batch.isEmpty()) {
                    while (queue.isEmpty() && !closing) {
                        changed.await();
                    }
                    if (queue.isEmpty() || abandoned) {
                        return;
                    }
                    List<AuditedCitationCheck> taken = new ArrayList<>(Math.min(queue.size(), MAX_BATCH));
                    while (taken.size() < MAX_BATCH && !queue.isEmpty()) {
                        taken.add(queue.pollFirst());
                    }
                    batch = taken;
                    held = batch.size();
                }
                if (abandoned) {
                    return;
                }
            } catch (InterruptedException interrupted) {
                return;
            } finally {
                lock.unlock();
            }
            Either<AuditFailure, Integer> result;
            try {
                result = write(batch);
            } catch (RuntimeException bug) {
                // A driver or pool that broke its contract: the batch is kept like any failed one.
                result = Either.left(new AuditFailure(AuditFailure.Kind.UNAVAILABLE, doing(batch.size())
                        + ": unexpected " + bug.getClass().getName()));
            }
            if (result.isRight()) {
                lock.lock();
                try {
                    held = 0;
                } finally {
                    lock.unlock();
                }
                written.addAndGet(batch.size());
                lastFailure.set(Option.none());
                batch = List.of();
                failedPause = backoff.min();
                continue;
            }
            failures.incrementAndGet();
            lastFailure.set(Option.of(result.getLeft()));
            if (!pause(failedPause)) {
                return;
            }
            failedPause = backoff.after(failedPause);
        }
    }

    /** Waits {@code backoff}, or less when abandoned; false when the writer is to stop. */
    private boolean pause(Duration backoff) {
        long remaining = backoff.toNanos();
        lock.lock();
        try {
            while (!abandoned && remaining > 0) {
                remaining = changed.awaitNanos(remaining);
            }
            return !abandoned;
        } catch (InterruptedException interrupted) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** Writes {@code batch} in one transaction, each check once. */
    private Either<AuditFailure, Integer> write(List<AuditedCitationCheck> batch) {
        String doing = doing(batch.size());
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException failure) {
            return Either.left(SqlFailures.noConnection(doing, failure));
        }
        boolean autoCommit = true;
        boolean began = false;
        try {
            autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            began = true;
            if (dialect == SqlDialect.MYSQL && !JdbcAudit.strictSession(connection)) {
                rollbackQuietly(connection);
                return Either.left(new AuditFailure(AuditFailure.Kind.REFUSED, doing + ": the session's sql_mode has"
                        + " neither STRICT_TRANS_TABLES nor STRICT_ALL_TABLES; nothing was written"));
            }
            int inserted = CitationRows.insertMissing(connection, table, dialect, batch);
            connection.commit();
            return Either.right(inserted);
        } catch (SQLException failure) {
            // A failed commit leaves its outcome unknown: the next attempt inserts only the checks without a row.
            rollbackQuietly(connection);
            return Either.left(SqlFailures.of(doing, failure, dialect));
        } finally {
            if (began && autoCommit) {
                try {
                    connection.setAutoCommit(true);
                } catch (SQLException ignored) {
                    // The connection is broken; closing it below is all that is left to do.
                }
            }
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Nothing is left to do with it.
            }
        }
    }

    private static String doing(int size) {
        return "writing " + size + (size == 1 ? " citation check" : " citation checks");
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // A broken connection rolls back on the server by itself.
        }
    }

    /** {@return the reports written to the database} */
    public long written() {
        return written.get();
    }

    /** {@return the reports never to be written: the queue was full, the audit closed, or the report no row} */
    public long lost() {
        return lost.get();
    }

    /** {@return the batches the database failed or refused (each kept and tried again)} */
    public long failures() {
        return failures.get();
    }

    /** {@return the reports accepted and not yet written: queued, or in the batch being written} */
    public int unwritten() {
        lock.lock();
        try {
            return queue.size() + held;
        } finally {
            lock.unlock();
        }
    }

    /** {@return the failure of the last attempt, none when it succeeded or there was none} */
    public Option<AuditFailure> lastFailure() {
        return lastFailure.get();
    }

    /** {@return the table the checks are written to} */
    public String table() {
        return table;
    }

    /** {@return the most reports waiting to be written} */
    public int capacity() {
        return capacity;
    }

    /** Stops accepting and writes what is queued, waiting up to the close timeout (10 seconds by default). */
    @Override
    public void close() {
        close(closeTimeout);
    }

    /**
     * Stops accepting, writes what is queued within {@code timeout}, then stops the writer after its current
     * attempt.
     *
     * @param timeout how long to wait for the queue to be written
     * @return the reports left unwritten, 0 when everything accepted was written
     */
    public int close(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        lock.lock();
        try {
            closing = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            writer.join(Math.max(1, timeout.toMillis()));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        lock.lock();
        try {
            abandoned = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        return unwritten();
    }

    @Override
    public String toString() {
        return "CitationAudit[table " + table + ", written " + written() + ", lost " + lost() + "]";
    }

    /** Builds a {@link CitationAudit}; each setter rejects an invalid value at once, naming it. */
    public static final class Builder {
        private final DataSource dataSource;
        private String table = DEFAULT_TABLE;
        private int capacity = DEFAULT_CAPACITY;
        private Clock clock = Clock.systemUTC();
        private Backoff backoff = Backoff.DEFAULT;
        private Duration closeTimeout = Duration.ofSeconds(10);

        private Builder(DataSource dataSource) {
            this.dataSource = dataSource;
        }

        /**
         * The table written to; {@value CitationAudit#DEFAULT_TABLE} by default.
         *
         * @param table an unquoted identifier optionally qualified by a schema, with the migration's columns
         * @return this builder
         */
        public Builder table(String table) {
            this.table = JdbcAudit.requireTableName(table, "table");
            return this;
        }

        /**
         * The most reports waiting to be written; {@value CitationAudit#DEFAULT_CAPACITY} by default.
         *
         * @param capacity 1 to 1,000,000
         * @return this builder
         */
        public Builder capacity(int capacity) {
            if (capacity < 1 || capacity > 1_000_000) {
                throw new IllegalArgumentException("capacity must be 1 to 1000000, was " + capacity);
            }
            this.capacity = capacity;
            return this;
        }

        /**
         * The clock {@code checked_at} is read from; the system UTC clock by default.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = requireNonNull(clock, "clock is null");
            return this;
        }

        /**
         * The back-off after a failed batch: from {@code min}, doubling up to {@code max}; 200 ms to 30 s by default.
         *
         * @param min positive
         * @param max at least {@code min}
         * @return this builder
         */
        public Builder backoff(Duration min, Duration max) {
            this.backoff = new Backoff(min, max);
            return this;
        }

        /**
         * How long {@link CitationAudit#close()} waits for the queue to be written; 10 seconds by default.
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder closeTimeout(Duration timeout) {
            this.closeTimeout = Backoff.positive(timeout, "closeTimeout");
            return this;
        }

        /**
         * {@return the audit, its writer started} Takes one connection to read the database's product.
         *
         * @throws IllegalArgumentException when the database is not MariaDB 10.3+, MySQL 8+, PostgreSQL 9.5+ or
         *     H2 2.x (naming it)
         * @throws IllegalStateException when no connection can be had to read the product (with its SQLSTATE)
         */
        public CitationAudit build() {
            CitationAudit audit = new CitationAudit(this, JdbcAudit.detect(dataSource, "CitationAudit").dialect());
            audit.writer.start();
            return audit;
        }
    }
}
