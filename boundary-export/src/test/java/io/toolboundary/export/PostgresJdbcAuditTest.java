package io.toolboundary.export;

import static io.toolboundary.export.AuditSamples.CREATED;
import static io.toolboundary.export.AuditSamples.begun;
import static io.toolboundary.export.AuditSamples.freshRun;
import static io.toolboundary.export.AuditSamples.freshTool;
import static io.toolboundary.export.AuditSamples.kept;
import static io.toolboundary.export.AuditSamples.readyKept;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.testsupport.sql.PostgresServer;
import io.toolboundary.testsupport.sql.SqlServer;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** {@link JdbcAudit} on a real PostgreSQL server, migrated by Flyway. */
class PostgresJdbcAuditTest extends JdbcAuditContract {

    @Override
    AuditDatabase database() {
        return AuditDatabase.postgres();
    }

    @Override
    SqlServer newServer() {
        return PostgresServer.startNew();
    }

    @Override
    String sessionZoneSql() {
        return "SET TIME ZONE 'America/St_Johns'";
    }

    @Override
    String sessionZoneQuery() {
        return "SHOW TimeZone";
    }

    @Override
    String createdAtAsUtcTextQuery() {
        return "SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') FROM toolboundary_record"
                + " WHERE run_id = ? AND tool_call_id = ?";
    }

    @Override
    Map<String, List<String>> indexes(String table) throws SQLException {
        Map<String, List<String>> indexes = new LinkedHashMap<>();
        try (Connection connection = database().pool().getConnection(); PreparedStatement statement = connection.prepareStatement(
                "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ?")) {
            statement.setString(1, table);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    String definition = rows.getString(2);
                    String columns = definition.substring(definition.lastIndexOf('(') + 1, definition.lastIndexOf(')'));
                    indexes.put(rows.getString(1), Arrays.asList(columns.split(",\\s*")));
                }
            }
        }
        return indexes;
    }

    @Override
    javax.sql.DataSource unpooled(SqlServer server) {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setURL(server.jdbcUrl());
        source.setUser(server.user());
        source.setPassword(server.password());
        return source;
    }

    @Override
    String rawInsert() {
        return "INSERT INTO toolboundary_record (run_id, tool_call_id, tool, status, evidence, arguments,"
                + " request_fingerprint, content, raw_response, raw_policy, created_at, created_nanos, updated_at, updated_nanos,"
                + " exported_at) VALUES (?, ?, 'tool-invalid', ?, 'EVIDENCE_FOUND', '{}', 'fp', ?, 'raw', ?,"
                + " '2026-01-01 00:00:00+00', 0, '2026-01-01 00:00:00+00', 0, '2026-01-01 00:00:00+00')";
    }

    @Test
    void argumentsAreJsonThatKeepsItsTextAndIdsCompareByteForByte() throws SQLException {
        try (Connection connection = database().pool().getConnection(); PreparedStatement statement = connection.prepareStatement(
                "SELECT column_name, data_type, collation_name FROM information_schema.columns"
                        + " WHERE table_schema = current_schema() AND table_name = 'toolboundary_record'")) {
            Map<String, String> columns = new LinkedHashMap<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    columns.put(rows.getString(1), rows.getString(2) + "/" + rows.getString(3));
                }
            }
            assertThat(columns.get("arguments")).isEqualTo("json/null");
            assertThat(columns.get("tool_call_id")).isEqualTo("character varying/C");
            assertThat(columns.get("created_at")).isEqualTo("timestamp with time zone/null");
            assertThat(columns.get("raw_response")).startsWith("text/");
        }
        RunId run = freshRun();
        ToolName tool = freshTool();
        assertThat(audit().write(List.of(readyKept(run, "Call", tool, CREATED), readyKept(run, "call", tool, CREATED)))
                .get()).isEqualTo(2);
    }

    @Test
    void aNulCharacterIsRefusedAndTheBatchRolledBack() {
        RunId run = freshRun();
        ToolName tool = freshTool();
        AuditedRecord fine = readyKept(run, "fine", tool, CREATED);
        AuditedRecord withNul = kept(begun(run, "nul", tool, CREATED).ready("before\u0000after",
                new AgentResult("c", EvidenceStatus.EVIDENCE_FOUND, Option.none()), CREATED));

        Either<AuditFailure, Integer> refused = audit().write(List.of(fine, withNul));

        assertThat(refused.getLeft().kind()).isEqualTo(AuditFailure.Kind.REFUSED);
        assertThat(refused.getLeft().reason()).matches(SAFE_REASON);
        assertThat(audit().records(run).get()).isEmpty();
    }
}
