package io.toolboundary.export;

import io.toolboundary.domain.RunId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The rows of the citation check table: how an {@link AuditedCitationCheck} is inserted (once per check id,
 * whatever the retries) and read back; instants as in the records table, UTC to the microsecond in
 * {@code checked_at} and the nanoseconds below in {@code checked_nanos}.
 */
final class CitationRows {

    /** The table the migrations create. */
    static final String DEFAULT_TABLE = "toolboundary_citation_check";
    /** The columns read back, in order. */
    static final String SELECTED = "check_id, run_id, checked_at, checked_nanos, grounded, uncited, citations, verdicts";
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?)";

    private CitationRows() {
    }

    /** {@return the query of a run's checks, in checked order (ties in the order written)} */
    static String selectRun(String table) {
        return "SELECT " + SELECTED + " FROM " + table + " WHERE run_id = ? ORDER BY checked_at, checked_nanos, seq";
    }

    /** True when the instant is one every database holds. */
    static boolean fits(Instant instant) {
        return !instant.isBefore(SqlDialect.FIRST_INSTANT) && instant.isBefore(SqlDialect.END_OF_INSTANTS);
    }

    /**
     * Inserts the checks of {@code batch} that have no row yet, in order, in the caller's transaction; returns
     * how many it inserted. A check whose row a failed commit left behind is not inserted twice.
     */
    static int insertMissing(Connection connection, String table, SqlDialect dialect, List<AuditedCitationCheck> batch)
            throws SQLException {
        Set<UUID> existing = existing(connection, table, batch);
        List<AuditedCitationCheck> missing = batch.stream().filter(check -> !existing.contains(check.checkId())).toList();
        if (missing.isEmpty()) {
            return 0;
        }
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (").append(SELECTED)
                .append(") VALUES ");
        for (int i = 0; i < missing.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(ROW);
        }
        sql.append(conflictClause(dialect));
        try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
            int i = 1;
            for (AuditedCitationCheck check : missing) {
                statement.setString(i++, check.checkId().toString());
                statement.setString(i++, check.runId().value());
                dialect.bindInstant(statement, i++, RecordRows.micros(check.checkedAt()));
                statement.setShort(i++, (short) (check.checkedAt().getNano() % 1_000));
                statement.setBoolean(i++, check.grounded());
                statement.setBoolean(i++, check.uncited());
                statement.setInt(i++, check.citations());
                statement.setString(i++, check.verdictsText());
            }
            statement.executeUpdate();
        }
        return missing.size();
    }

    /** The check of the current row; {@link RecordRows.InvalidRow} when it is not one, naming the column. */
    static AuditedCitationCheck read(ResultSet row, SqlDialect dialect) throws SQLException {
        UUID checkId = column("check_id", () -> UUID.fromString(required(row.getString("check_id"), "check_id")));
        RunId runId = column("run_id", () -> new RunId(required(row.getString("run_id"), "run_id")));
        Instant at = column("checked_at", () -> required(dialect.readInstant(row, "checked_at"), "checked_at"));
        int nanos = row.getInt("checked_nanos");
        if (row.wasNull() || nanos < 0 || nanos > 999 || at.getNano() % 1_000 != 0) {
            throw new RecordRows.InvalidRow("checked_nanos");
        }
        boolean grounded = row.getBoolean("grounded");
        boolean uncited = row.getBoolean("uncited");
        int citations = row.getInt("citations");
        List<AuditedCitationCheck.Verdict> verdicts = column("verdicts",
                () -> AuditedCitationCheck.parseVerdicts(required(row.getString("verdicts"), "verdicts")));
        return column("verdicts", () -> new AuditedCitationCheck(checkId, runId, at.plusNanos(nanos), grounded, uncited,
                citations, verdicts));
    }

    /** The clause that makes an insert of an existing check id change nothing, where the database has one. */
    private static String conflictClause(SqlDialect dialect) {
        return switch (dialect) {
            case MYSQL -> " ON DUPLICATE KEY UPDATE check_id = check_id";
            case POSTGRESQL -> " ON CONFLICT (check_id) DO NOTHING";
            case H2 -> "";
        };
    }

    /** The check ids of {@code batch} that have a row, read in the writing transaction. */
    private static Set<UUID> existing(Connection connection, String table, List<AuditedCitationCheck> batch)
            throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT check_id FROM ").append(table).append(" WHERE check_id IN (");
        for (int i = 0; i < batch.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
        }
        sql.append(')');
        Set<UUID> existing = new HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
            for (int i = 0; i < batch.size(); i++) {
                statement.setString(i + 1, batch.get(i).checkId().toString());
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    existing.add(UUID.fromString(rows.getString(1)));
                }
            }
        }
        return existing;
    }

    private static <T> T required(T value, String column) {
        if (value == null) {
            throw new RecordRows.InvalidRow(column);
        }
        return value;
    }

    /** Runs {@code make}; a value it refuses makes the row invalid, naming {@code column}. */
    private static <T> T column(String column, SqlSupplier<T> make) throws SQLException {
        try {
            return make.get();
        } catch (RecordRows.InvalidRow invalid) {
            throw invalid;
        } catch (RuntimeException refused) {
            throw new RecordRows.InvalidRow(column);
        }
    }

    /** A supplier that may fail with an {@link SQLException}. */
    @FunctionalInterface
    private interface SqlSupplier<T> {
        T get() throws SQLException;
    }
}
