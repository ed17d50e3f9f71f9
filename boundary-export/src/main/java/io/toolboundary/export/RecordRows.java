package io.toolboundary.export;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Option;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * One audited record as one row of the audit table, both ways. The columns are the schema's (the Flyway
 * migrations under {@code io/toolboundary/export/db}). An instant is kept exactly: its microseconds in a
 * timestamp column, for queries and for readers of the table, and the nanoseconds below them in a column of
 * their own ({@code created_nanos}, {@code updated_nanos}, 0 to 999).
 */
final class RecordRows {

    /** The columns an insert binds, in order. */
    static final List<String> INSERTED = List.of("run_id", "tool_call_id", "tool", "status", "evidence", "arguments",
            "request_fingerprint", "content", "scope", "error_code", "failure_type", "failure_message", "raw_response",
            "raw_policy", "created_at", "created_nanos", "updated_at", "updated_nanos", "exported_at");
    /** The columns a read selects. */
    static final String SELECTED = "run_id, tool_call_id, tool, status, evidence, arguments, request_fingerprint,"
            + " content, scope, error_code, failure_type, failure_message, raw_response, raw_policy, created_at, created_nanos,"
            + " updated_at, updated_nanos";

    private RecordRows() {
    }

    /** {@return the placeholders of one inserted row, for {@code dialect}} */
    static String placeholders(SqlDialect dialect) {
        StringBuilder row = new StringBuilder("(");
        for (int i = 0; i < INSERTED.size(); i++) {
            row.append(i == 0 ? "" : ", ").append(INSERTED.get(i).equals("arguments") ? dialect.argumentsParameter() : "?");
        }
        return row.append(')').toString();
    }

    /** {@return {@code instant} truncated to the microsecond, the precision both databases keep} */
    static Instant micros(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }

    /** True when the record's instants are ones both databases can hold. */
    static boolean instantsFit(CanonicalRecord.Final record) {
        return fits(record.createdAt()) && fits(record.updatedAt());
    }

    private static boolean fits(Instant instant) {
        return !instant.isBefore(SqlDialect.FIRST_INSTANT) && instant.isBefore(SqlDialect.END_OF_INSTANTS);
    }

    /**
     * Binds {@code audited} as the row at parameter {@code first}; returns the next free parameter. With
     * {@link RawResponsePolicy#OMIT} the row holds no raw response, whatever the record holds.
     */
    static int bind(PreparedStatement statement, int first, AuditedRecord audited, Instant exportedAt,
            SqlDialect dialect) throws SQLException {
        CanonicalRecord.Final record = audited.record();
        int i = first;
        statement.setString(i++, record.key().runId().value());
        statement.setString(i++, record.key().toolCallId().value());
        statement.setString(i++, record.tool().value());
        statement.setString(i++, record.status().name());
        statement.setString(i++, record.evidence().get().name());
        statement.setString(i++, record.arguments());
        statement.setString(i++, record.requestFingerprint());
        Option<AgentResult> result = record.agentResult();
        setNullable(statement, i++, result.map(AgentResult::content));
        setNullable(statement, i++, result.flatMap(AgentResult::scope));
        setNullable(statement, i++, record.errorCode().map(ErrorCode::name));
        setNullable(statement, i++, record.failureType());
        setNullable(statement, i++, record.failureMessage());
        setNullable(statement, i++, audited.rawPolicy() == RawResponsePolicy.OMIT ? Option.none() : record.rawResponse());
        statement.setString(i++, audited.rawPolicy().name());
        dialect.bindInstant(statement, i++, micros(record.createdAt()));
        statement.setShort(i++, (short) (record.createdAt().getNano() % 1_000));
        dialect.bindInstant(statement, i++, micros(record.updatedAt()));
        statement.setShort(i++, (short) (record.updatedAt().getNano() % 1_000));
        dialect.bindInstant(statement, i++, micros(exportedAt));
        return i;
    }

    /** The instant of a timestamp column and its nanoseconds column. */
    private static Instant exact(ResultSet row, SqlDialect dialect, String micros, String nanos) throws SQLException {
        Instant at = column(micros, () -> requiredInstant(dialect.readInstant(row, micros), micros));
        int below = row.getInt(nanos);
        if (row.wasNull() || below < 0 || below > 999 || at.getNano() % 1_000 != 0) {
            throw new InvalidRow(nanos);
        }
        return at.plusNanos(below);
    }

    private static void setNullable(PreparedStatement statement, int index, Option<String> value) throws SQLException {
        if (value.isDefined()) {
            statement.setString(index, value.get());
        } else {
            statement.setNull(index, Types.VARCHAR);
        }
    }

    /**
     * {@return the audited record of the current row}
     *
     * @throws InvalidRow when the row is not one a final record can be (naming the column, never a value)
     * @throws SQLException when the driver cannot read it
     */
    static AuditedRecord read(ResultSet row, SqlDialect dialect) throws SQLException {
        RunId runId = column("run_id", () -> new RunId(required(row, "run_id")));
        ToolCallId toolCallId = column("tool_call_id", () -> new ToolCallId(required(row, "tool_call_id")));
        ToolName tool = column("tool", () -> new ToolName(required(row, "tool")));
        InvocationStatus status = column("status", () -> InvocationStatus.valueOf(required(row, "status")));
        EvidenceStatus evidence = column("evidence", () -> EvidenceStatus.valueOf(required(row, "evidence")));
        RawResponsePolicy policy = column("raw_policy", () -> RawResponsePolicy.valueOf(required(row, "raw_policy")));
        String arguments = required(row, "arguments");
        String fingerprint = required(row, "request_fingerprint");
        String content = row.getString("content");
        String scope = row.getString("scope");
        String errorCode = row.getString("error_code");
        String failureType = row.getString("failure_type");
        String failureMessage = row.getString("failure_message");
        String raw = row.getString("raw_response");
        Instant createdAt = exact(row, dialect, "created_at", "created_nanos");
        Instant updatedAt = exact(row, dialect, "updated_at", "updated_nanos");
        if (updatedAt.isBefore(createdAt)) {
            throw new InvalidRow("updated_at");
        }
        if (policy == RawResponsePolicy.OMIT && raw != null) {
            throw new InvalidRow("raw_response");
        }
        CanonicalRecord.Projecting begun = column("arguments",
                () -> new CanonicalRecord.Projecting(InvocationKey.of(runId, toolCallId), tool, arguments, fingerprint, createdAt));
        CanonicalRecord.Final record = switch (status) {
            case READY -> ready(begun, evidence, policy, content, scope, errorCode, failureType, failureMessage, raw, updatedAt);
            case ERROR -> failed(begun, evidence, content, scope, errorCode, failureType, failureMessage, raw, updatedAt);
            case PROJECTING -> throw new InvalidRow("status");
        };
        return new AuditedRecord(record, policy);
    }

    private static CanonicalRecord.Final ready(CanonicalRecord.Projecting begun, EvidenceStatus evidence,
            RawResponsePolicy policy, String content, String scope, String errorCode, String failureType,
            String failureMessage, String raw, Instant updatedAt) throws SQLException {
        if (errorCode != null) {
            throw new InvalidRow("error_code");
        }
        if (failureType != null || failureMessage != null) {
            throw new InvalidRow("failure_type");
        }
        if (content == null) {
            throw new InvalidRow("content");
        }
        if (raw == null && policy != RawResponsePolicy.OMIT) {
            throw new InvalidRow("raw_response");
        }
        AgentResult result = column("evidence", () -> new AgentResult(content, evidence, Option.of(scope)));
        return column("raw_response", () -> begun.ready(raw == null ? "" : raw, result, updatedAt));
    }

    private static CanonicalRecord.Final failed(CanonicalRecord.Projecting begun, EvidenceStatus evidence,
            String content, String scope, String errorCode, String failureType, String failureMessage, String raw,
            Instant updatedAt) throws SQLException {
        if (evidence != EvidenceStatus.ERROR) {
            throw new InvalidRow("evidence");
        }
        if (content != null || scope != null) {
            throw new InvalidRow("content");
        }
        ErrorCode code = column("error_code", () -> ErrorCode.valueOf(required(errorCode, "error_code")));
        if ((failureType == null) != (failureMessage == null)) {
            throw new InvalidRow("failure_message");
        }
        CanonicalRecord.Failed failed = column("raw_response", () -> begun.failed(code, Option.of(raw), updatedAt));
        return failureType == null ? failed : column("failure_message", () -> failed.because(failureType, failureMessage));
    }

    private static String required(ResultSet row, String column) throws SQLException {
        return required(row.getString(column), column);
    }

    private static String required(String value, String column) {
        if (value == null) {
            throw new InvalidRow(column);
        }
        return value;
    }

    private static Instant requiredInstant(Instant value, String column) {
        if (value == null) {
            throw new InvalidRow(column);
        }
        return value;
    }

    /** Runs {@code make}; a value it refuses makes the row invalid, naming {@code column}. */
    private static <T> T column(String column, SqlSupplier<T> make) throws SQLException {
        try {
            return make.get();
        } catch (InvalidRow invalid) {
            throw invalid;
        } catch (RuntimeException refused) {
            throw new InvalidRow(column);
        }
    }

    /** A supplier that may fail with an {@link SQLException}. */
    @FunctionalInterface
    private interface SqlSupplier<T> {
        T get() throws SQLException;
    }

    /** A row that is not a valid final record; names the column, never a value. */
    static final class InvalidRow extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final String column;

        InvalidRow(String column) {
            super("column " + column, null, false, false);
            this.column = column;
        }

        /** The column that made the row invalid. */
        String column() {
            return column;
        }
    }
}
