package io.toolboundary.export;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The audit database over plain JDBC: writes final records to the application's own MariaDB, MySQL 8 or
 * PostgreSQL database through its {@link DataSource} (a pool such as HikariCP), one row per (run id,
 * tool_call_id), and reads them back for the harness and its reviewers. An embedded H2 2.x database serves
 * demos and an application's own tests.
 *
 * <p>Promises: {@link #write} runs in one transaction and upserts each row keyed by (run_id, tool_call_id)
 * whose repeat changes nothing (PostgreSQL {@code ON CONFLICT DO NOTHING}, MariaDB/MySQL
 * {@code ON DUPLICATE KEY UPDATE run_id = run_id}), so a record written twice is one row and counts once;
 * all of a batch or none of it. A record written with {@link RawResponsePolicy#KEEP} is read back equal to the
 * record written (instants as UTC timestamps to the microsecond, whatever the JVM's and the session's time
 * zones, and the nanoseconds below them in a column of their own). A database failure never throws: it is an
 * {@link AuditFailure} whose reason is what was being done, the SQLSTATE and the vendor code, never a value, a
 * URL, a user or a password.
 *
 * <p>Refuses: a {@code null} argument ({@link NullPointerException} naming it), a {@code limit} below 1
 * ({@link IllegalArgumentException}), any database but MariaDB 10.3+, MySQL 8+, PostgreSQL 9.5+ and H2 2.x
 * (at {@link #of}), a table name that is not a plain identifier, a record whose instants are outside
 * 0001-01-01 to 9999-12-31 UTC ({@link AuditFailure.Kind#REFUSED}), and on MariaDB/MySQL a session whose
 * {@code sql_mode} is not strict, where the database could truncate a value silently (REFUSED). It creates no
 * table: run the Flyway migrations at {@link #flywayLocation()}, or their plain SQL. Thread-safe.
 *
 * <p>{@link #citationChecks} reads back what a {@link CitationAudit} wrote to {@link #citationTable()}.
 */
public final class JdbcAudit implements AuditSink, RecordAudit {

    /** The table the migrations create and {@link #of(DataSource)} uses. */
    public static final String DEFAULT_TABLE = "toolboundary_record";

    /** An unquoted identifier, optionally qualified by a schema: each part at most 63 characters. */
    private static final Pattern TABLE_NAME = Pattern.compile(
            "[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");
    /** The most rows in one statement: 17 parameters each stays far below every driver's limit. */
    private static final int MAX_ROWS_PER_STATEMENT = 100;
    /** The most record bytes in one statement, below MariaDB's default max_allowed_packet (16 MiB) even escaped. */
    private static final long MAX_BYTES_PER_STATEMENT = 4L * 1024 * 1024;

    private final DataSource dataSource;
    private final String table;
    private final String citationTable;
    private final SqlDialect dialect;
    private final String product;
    private final Clock clock;

    private JdbcAudit(DataSource dataSource, String table, String citationTable, SqlDialect dialect, String product,
            Clock clock) {
        this.dataSource = dataSource;
        this.table = table;
        this.citationTable = citationTable;
        this.dialect = dialect;
        this.product = product;
        this.clock = clock;
    }

    /**
     * {@return an audit over {@code dataSource}'s table {@value #DEFAULT_TABLE}} Takes one connection to read the
     * database's product.
     *
     * @param dataSource the application's data source
     * @throws IllegalArgumentException when the database is not MariaDB, MySQL 8 or PostgreSQL (naming it)
     * @throws IllegalStateException when no connection can be had to read the product (with its SQLSTATE)
     */
    public static JdbcAudit of(DataSource dataSource) {
        return of(dataSource, DEFAULT_TABLE);
    }

    /**
     * {@return an audit over {@code dataSource}'s table {@code table}, which has the migrations' columns and keys}
     * Its citation checks are read from {@value CitationAudit#DEFAULT_TABLE}, in {@code table}'s schema when it
     * names one. Takes one connection to read the database's product.
     *
     * @param dataSource the application's data source
     * @param table the table, an unquoted identifier optionally qualified by a schema ({@code audit.records})
     * @throws IllegalArgumentException when the table name is not such an identifier, or the database is not
     *     MariaDB, MySQL 8 or PostgreSQL (naming it)
     * @throws IllegalStateException when no connection can be had to read the product (with its SQLSTATE)
     */
    public static JdbcAudit of(DataSource dataSource, String table) {
        requireNonNull(table, "table is null");
        int dot = table.indexOf('.');
        return of(dataSource, table, (dot < 0 ? "" : table.substring(0, dot + 1)) + CitationRows.DEFAULT_TABLE);
    }

    /**
     * {@return an audit over {@code dataSource}'s table {@code table} of records and {@code citationTable} of
     * citation checks, which have the migrations' columns and keys} Takes one connection to read the database's
     * product.
     *
     * @param dataSource the application's data source
     * @param table the records' table, an unquoted identifier optionally qualified by a schema ({@code audit.records})
     * @param citationTable the citation checks' table, an identifier of the same form
     * @throws IllegalArgumentException when a table name is not such an identifier, or the database is not
     *     MariaDB, MySQL 8 or PostgreSQL (naming it)
     * @throws IllegalStateException when no connection can be had to read the product (with its SQLSTATE)
     */
    public static JdbcAudit of(DataSource dataSource, String table, String citationTable) {
        requireNonNull(dataSource, "dataSource is null");
        requireTableName(table, "table");
        requireTableName(citationTable, "citationTable");
        Detected detected = detect(dataSource, "JdbcAudit");
        return new JdbcAudit(dataSource, table, citationTable, detected.dialect(), detected.product(), Clock.systemUTC());
    }

    /** Refuses a table name that is not an unquoted identifier, optionally qualified by a schema. */
    static String requireTableName(String table, String name) {
        requireNonNull(table, name + " is null");
        if (!TABLE_NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("the " + name + " name must be an identifier of [A-Za-z0-9_], not"
                    + " starting with a digit, optionally qualified by a schema (schema.table), at most 63 characters a"
                    + " part");
        }
        return table;
    }

    /** Reads the database's dialect and product name over one connection. */
    static Detected detect(DataSource dataSource, String who) {
        try (Connection connection = dataSource.getConnection()) {
            SqlDialect dialect = SqlDialect.of(connection.getMetaData());
            return new Detected(dialect, connection.getMetaData().getDatabaseProductName());
        } catch (SQLException failure) {
            AuditFailure reason = SqlFailures.noConnection("reading the database product", failure);
            throw new IllegalStateException(who + " cannot read the database product: " + reason.reason());
        }
    }

    /** A database's dialect and product name. */
    record Detected(SqlDialect dialect, String product) {
    }

    /** {@return the table the records are in} */
    public String table() {
        return table;
    }

    /** {@return the table the citation checks are read from} */
    public String citationTable() {
        return citationTable;
    }

    /** {@return the database product, as its driver names it (for example "MariaDB" or "PostgreSQL")} */
    public String databaseProduct() {
        return product;
    }

    /**
     * {@return the Flyway location of this database's migrations, for example
     * {@code classpath:io/toolboundary/export/db/postgresql}} Each holds {@code V1__toolboundary_record.sql} and
     * {@code V2__toolboundary_citation_check.sql}, plain SQL that also runs without Flyway.
     */
    public String flywayLocation() {
        return dialect.flywayLocation();
    }

    /**
     * Writes {@code records} in one transaction, each in an upsert keyed by (run_id, tool_call_id) whose repeat
     * changes nothing, several rows to a statement. On MariaDB/MySQL, whose update counts cannot tell an
     * insert from a no-op, the rows that exist are read (in the same transaction) just before their upsert: a
     * record that another writer inserts at that very moment may be counted by both.
     *
     * @param records the records, as their raw response policies left them; a record with
     *     {@link RawResponsePolicy#OMIT} is written without a raw response
     * @return how many rows were inserted, or why none were: UNAVAILABLE when the database could not be reached
     *     or the transaction failed (a failed commit leaves its outcome unknown: write again), REFUSED when it
     *     refused a row (nothing of the batch is written)
     * @throws NullPointerException when {@code records} is or holds {@code null}
     */
    @Override
    public Either<AuditFailure, Integer> write(List<AuditedRecord> records) {
        requireNonNull(records, "records is null");
        for (AuditedRecord record : records) {
            requireNonNull(record, "records holds a null");
        }
        if (records.isEmpty()) {
            return Either.right(0);
        }
        String doing = "writing " + records.size() + (records.size() == 1 ? " record" : " records");
        for (int i = 0; i < records.size(); i++) {
            if (!RecordRows.instantsFit(records.get(i).record())) {
                return Either.left(new AuditFailure(AuditFailure.Kind.REFUSED, doing + ": record " + i
                        + " has an instant outside 0001-01-01 to 9999-12-31 UTC; nothing was written"));
            }
        }
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
            if (dialect == SqlDialect.MYSQL && !strictSession(connection)) {
                rollbackQuietly(connection);
                return Either.left(new AuditFailure(AuditFailure.Kind.REFUSED, doing + ": the session's sql_mode has"
                        + " neither STRICT_TRANS_TABLES nor STRICT_ALL_TABLES, so the database could change a value"
                        + " silently; nothing was written"));
            }
            int inserted = 0;
            Instant exportedAt = clock.instant();
            Set<InvocationKey> counted = new HashSet<>();
            for (List<AuditedRecord> chunk : chunks(inKeyOrder(records))) {
                inserted += upsert(connection, chunk, exportedAt, counted);
            }
            try {
                connection.commit();
            } catch (SQLException failure) {
                rollbackQuietly(connection);
                AuditFailure failed = SqlFailures.of("committing " + doing.substring("writing ".length()), failure, dialect);
                // A deferred constraint refuses at the commit; anything else leaves the outcome unknown.
                return Either.left(failed.kind() == AuditFailure.Kind.REFUSED ? failed
                        : new AuditFailure(AuditFailure.Kind.UNAVAILABLE, failed.reason()
                                + "; the outcome is unknown, writing the records again inserts none twice"));
            }
            return Either.right(inserted);
        } catch (SQLException failure) {
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
            closeQuietly(connection);
        }
    }

    /**
     * {@return the exported record of a call, or none}
     *
     * @param runId the run
     * @param toolCallId the call
     * @throws NullPointerException when an argument is {@code null}
     */
    @Override
    public Either<AuditFailure, Option<AuditedRecord>> find(RunId runId, ToolCallId toolCallId) {
        requireNonNull(runId, "runId is null");
        requireNonNull(toolCallId, "toolCallId is null");
        String sql = "SELECT " + RecordRows.SELECTED + " FROM " + table + " WHERE run_id = ? AND tool_call_id = ?";
        return query("reading a record", sql, statement -> {
            statement.setString(1, runId.value());
            statement.setString(2, toolCallId.value());
        }, RECORDS).map(found -> found.isEmpty() ? Option.none() : Option.of(found.get(0)));
    }

    /**
     * {@return the exported records of a run, in tool_call_id order (the order of their bytes)}
     *
     * @param runId the run
     * @throws NullPointerException when {@code runId} is {@code null}
     */
    @Override
    public Either<AuditFailure, List<AuditedRecord>> records(RunId runId) {
        requireNonNull(runId, "runId is null");
        String sql = "SELECT " + RecordRows.SELECTED + " FROM " + table + " WHERE run_id = ? ORDER BY tool_call_id";
        return query("reading the records of a run", sql, statement -> statement.setString(1, runId.value()), RECORDS);
    }

    /**
     * {@return the citation checks of a run, in checked order (checks of one instant in the order written)}
     *
     * @param runId the run
     * @throws NullPointerException when {@code runId} is {@code null}
     */
    @Override
    public Either<AuditFailure, List<AuditedCitationCheck>> citationChecks(RunId runId) {
        requireNonNull(runId, "runId is null");
        return query("reading the citation checks of a run", CitationRows.selectRun(citationTable),
                statement -> statement.setString(1, runId.value()), CITATION_CHECKS);
    }

    /**
     * {@return the exported records of a tool created in {@code [from, to)}, oldest first (then by run id and
     * tool_call_id), at most {@code limit}} The query compares the timestamp columns, which hold microseconds:
     * a bound between two microseconds is read as the next one. An empty interval gives no record.
     *
     * @param tool the tool
     * @param from the first instant included
     * @param to the first instant excluded
     * @param limit the most records to return, 1 or more
     * @throws NullPointerException when an argument is {@code null}
     * @throws IllegalArgumentException when {@code limit} is below 1
     */
    @Override
    public Either<AuditFailure, List<AuditedRecord>> records(ToolName tool, Instant from, Instant to, int limit) {
        requireNonNull(tool, "tool is null");
        requireNonNull(from, "from is null");
        requireNonNull(to, "to is null");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be 1 or more, was " + limit);
        }
        if (!from.isBefore(to)) {
            return Either.right(List.of());
        }
        // Beyond what the databases hold, a bound leaves nothing out: it is not sent (nor could it be bound).
        boolean bounded = from.isAfter(SqlDialect.FIRST_INSTANT);
        boolean capped = to.isBefore(SqlDialect.END_OF_INSTANTS);
        Instant lower = bounded ? ceilingMicros(from) : null;
        Instant upper = capped ? ceilingMicros(to) : null;
        String sql = "SELECT " + RecordRows.SELECTED + " FROM " + table + " WHERE tool = ?"
                + (bounded ? " AND created_at >= ?" : "") + (capped ? " AND created_at < ?" : "")
                + " ORDER BY created_at, run_id, tool_call_id LIMIT ?";
        return query("reading the records of a tool", sql, statement -> {
            int i = 1;
            statement.setString(i++, tool.value());
            if (bounded) {
                dialect.bindInstant(statement, i++, lower);
            }
            if (capped) {
                dialect.bindInstant(statement, i++, upper);
            }
            statement.setInt(i, limit);
        }, RECORDS);
    }

    @Override
    public String toString() {
        return "JdbcAudit[" + product + ", table " + table + "]";
    }

    /** Upserts one chunk; returns how many of its rows were inserted. */
    private int upsert(Connection connection, List<AuditedRecord> chunk, Instant exportedAt, Set<InvocationKey> counted)
            throws SQLException {
        Set<InvocationKey> existing = dialect.updateCountsInserts() ? Set.of() : existingKeys(connection, chunk);
        if (dialect.conflictClause().isEmpty()) {
            // No upsert clause (H2): insert only the rows whose keys have none, each key once.
            Set<InvocationKey> seen = new HashSet<>(existing);
            chunk = chunk.stream().filter(record -> seen.add(record.record().key())).toList();
            if (chunk.isEmpty()) {
                return 0;
            }
        }
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (")
                .append(String.join(", ", RecordRows.INSERTED)).append(") VALUES ");
        String row = RecordRows.placeholders(dialect);
        for (int i = 0; i < chunk.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(row);
        }
        sql.append(dialect.conflictClause());
        int updated;
        try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
            int parameter = 1;
            for (AuditedRecord record : chunk) {
                parameter = RecordRows.bind(statement, parameter, record, exportedAt, dialect);
            }
            updated = statement.executeUpdate();
        }
        if (dialect.updateCountsInserts()) {
            return updated;
        }
        int inserted = 0;
        for (AuditedRecord record : chunk) {
            InvocationKey key = record.record().key();
            if (!existing.contains(key) && counted.add(key)) {
                inserted++;
            }
        }
        return inserted;
    }

    /** The keys of {@code chunk} that have a row now, read in the writing transaction. */
    private Set<InvocationKey> existingKeys(Connection connection, List<AuditedRecord> chunk) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT run_id, tool_call_id FROM ").append(table).append(" WHERE ");
        for (int i = 0; i < chunk.size(); i++) {
            sql.append(i == 0 ? "" : " OR ").append("(run_id = ? AND tool_call_id = ?)");
        }
        Set<InvocationKey> existing = new HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
            int parameter = 1;
            for (AuditedRecord record : chunk) {
                statement.setString(parameter++, record.record().key().runId().value());
                statement.setString(parameter++, record.record().key().toolCallId().value());
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    existing.add(InvocationKey.of(new RunId(rows.getString(1)), new ToolCallId(rows.getString(2))));
                }
            }
        }
        return existing;
    }

    /** True when the MariaDB/MySQL session refuses values a column cannot hold instead of changing them. */
    static boolean strictSession(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet mode = statement.executeQuery("SELECT @@SESSION.sql_mode")) {
            String modes = mode.next() ? String.valueOf(mode.getString(1)).toUpperCase(Locale.ROOT) : "";
            return modes.contains("STRICT_TRANS_TABLES") || modes.contains("STRICT_ALL_TABLES");
        }
    }

    /**
     * The records sorted by key (stably: of two with one key, the first stays first and is the one written), so
     * that writers whose batches overlap lock rows in one order instead of deadlocking.
     */
    private static List<AuditedRecord> inKeyOrder(List<AuditedRecord> records) {
        List<AuditedRecord> sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparing((AuditedRecord audited) -> audited.record().key().runId().value())
                .thenComparing(audited -> audited.record().key().toolCallId().value()));
        return sorted;
    }

    /** The records in statement-sized chunks, in order. */
    private static List<List<AuditedRecord>> chunks(List<AuditedRecord> records) {
        List<List<AuditedRecord>> chunks = new ArrayList<>();
        List<AuditedRecord> chunk = new ArrayList<>();
        long bytes = 0;
        for (AuditedRecord record : records) {
            long size = record.record().byteSize() + 512;
            if (!chunk.isEmpty() && (chunk.size() >= MAX_ROWS_PER_STATEMENT || bytes + size > MAX_BYTES_PER_STATEMENT)) {
                chunks.add(chunk);
                chunk = new ArrayList<>();
                bytes = 0;
            }
            chunk.add(record);
            bytes += size;
        }
        chunks.add(chunk);
        return chunks;
    }

    /** Runs a read in one connection (auto-commit as the pool gives it) and rebuilds each row. */
    private <T> Either<AuditFailure, List<T>> query(String doing, String sql, Binder binder, Rows<T> reader) {
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException failure) {
            return Either.left(SqlFailures.noConnection(doing, failure));
        }
        try (connection; PreparedStatement statement = connection.prepareStatement(sql)) {
            binder.bind(statement);
            List<T> found = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    try {
                        found.add(reader.read(rows, dialect));
                    } catch (RecordRows.InvalidRow invalid) {
                        return Either.left(new AuditFailure(AuditFailure.Kind.DATA_INVALID, doing + ": row "
                                + found.size() + " is not a valid " + reader.noun() + " (column " + invalid.column() + ")"));
                    } catch (SQLException unreadable) {
                        AuditFailure failure = SqlFailures.of(doing, unreadable, dialect);
                        // A value the driver cannot convert is a row that is not a record; a lost connection is not.
                        return Either.left(failure.kind() == AuditFailure.Kind.REFUSED
                                ? new AuditFailure(AuditFailure.Kind.DATA_INVALID, failure.reason() + " (row " + found.size() + ")")
                                : failure);
                    }
                }
            }
            return Either.right(List.copyOf(found));
        } catch (SQLException failure) {
            return Either.left(SqlFailures.of(doing, failure, dialect));
        }
    }

    /** The first microsecond at or after {@code instant}: stored instants are whole microseconds. */
    private static Instant ceilingMicros(Instant instant) {
        Instant floor = instant.truncatedTo(ChronoUnit.MICROS);
        return floor.equals(instant) ? floor : floor.plus(1, ChronoUnit.MICROS);
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // A broken connection rolls back on the server by itself.
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Nothing is left to do with it.
        }
    }

    /** Binds a read's parameters. */
    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    private static final Rows<AuditedRecord> RECORDS = new Rows<>("record", RecordRows::read);
    private static final Rows<AuditedCitationCheck> CITATION_CHECKS = new Rows<>("citation check", CitationRows::read);

    /** How a read rebuilds a row, and what a row is called in its failure. */
    private record Rows<T>(String noun, RowReader<T> reader) {
        T read(ResultSet row, SqlDialect dialect) throws SQLException {
            return reader.read(row, dialect);
        }
    }

    /** Rebuilds one row. */
    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet row, SqlDialect dialect) throws SQLException;
    }
}
