package io.toolboundary.export;

import static io.toolboundary.export.AuditSamples.CREATED;
import static io.toolboundary.export.AuditSamples.begun;
import static io.toolboundary.export.AuditSamples.freshRun;
import static io.toolboundary.export.AuditSamples.freshTool;
import static io.toolboundary.export.AuditSamples.kept;
import static io.toolboundary.export.AuditSamples.readyKept;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.testsupport.sql.MariaDbServer;
import io.toolboundary.testsupport.sql.SqlServer;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.mariadb.jdbc.MariaDbDataSource;

/** {@link JdbcAudit} on a real MariaDB server, migrated by Flyway. */
class MariaDbJdbcAuditTest extends JdbcAuditContract {

    @Override
    AuditDatabase database() {
        return AuditDatabase.mariaDb();
    }

    @Override
    SqlServer newServer() {
        return MariaDbServer.startNew();
    }

    @Override
    String sessionZoneSql() {
        return "SET time_zone = '-09:30'";
    }

    @Override
    String sessionZoneQuery() {
        return "SELECT @@SESSION.time_zone";
    }

    @Override
    String createdAtAsUtcTextQuery() {
        return "SELECT DATE_FORMAT(created_at, '%Y-%m-%d %H:%i:%s.%f') FROM toolboundary_record"
                + " WHERE run_id = ? AND tool_call_id = ?";
    }

    @Override
    Map<String, List<String>> indexes(String table) throws SQLException {
        Map<String, List<String>> indexes = new LinkedHashMap<>();
        try (Connection connection = database().pool().getConnection(); PreparedStatement statement = connection.prepareStatement(
                "SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()"
                        + " AND TABLE_NAME = ? ORDER BY INDEX_NAME, SEQ_IN_INDEX")) {
            statement.setString(1, table);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    indexes.computeIfAbsent(rows.getString(1), name -> new ArrayList<>()).add(rows.getString(2));
                }
            }
        }
        return indexes;
    }

    @Override
    javax.sql.DataSource unpooled(SqlServer server) {
        try {
            MariaDbDataSource source = new MariaDbDataSource(server.jdbcUrl());
            source.setUser(server.user());
            source.setPassword(server.password());
            return source;
        } catch (SQLException failure) {
            throw new IllegalStateException(failure);
        }
    }

    @Override
    String rawInsert() {
        return "INSERT INTO toolboundary_record (run_id, tool_call_id, tool, status, evidence, arguments,"
                + " request_fingerprint, content, raw_response, raw_policy, created_at, created_nanos, updated_at, updated_nanos,"
                + " exported_at) VALUES (?, ?, 'tool-invalid', ?, 'EVIDENCE_FOUND', '{}', 'fp', ?, 'raw', ?,"
                + " '2026-01-01 00:00:00', 0, '2026-01-01 00:00:00', 0, '2026-01-01 00:00:00')";
    }

    @Test
    void theTableIsUtf8mb4AndItsIdsCompareByteForByte() throws SQLException {
        try (Connection connection = database().pool().getConnection(); PreparedStatement statement = connection.prepareStatement(
                "SELECT COLUMN_NAME, CHARACTER_SET_NAME, COLLATION_NAME, DATA_TYPE, DATETIME_PRECISION"
                        + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'toolboundary_record'")) {
            Map<String, String> columns = new LinkedHashMap<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    columns.put(rows.getString(1), rows.getString(2) + "/" + rows.getString(3) + "/" + rows.getString(4)
                            + "/" + rows.getString(5));
                }
            }
            assertThat(columns.get("tool_call_id")).startsWith("ascii/ascii_bin/varchar");
            assertThat(columns.get("raw_response")).startsWith("utf8mb4/utf8mb4_bin/longtext");
            assertThat(columns.get("arguments")).startsWith("utf8mb4/utf8mb4_bin/longtext");
            assertThat(columns.get("created_at")).isEqualTo("null/null/datetime/6");
        }
        RunId run = freshRun();
        ToolName tool = freshTool();
        assertThat(audit().write(List.of(readyKept(run, "Call", tool, CREATED), readyKept(run, "call", tool, CREATED)))
                .get()).as("ids that differ only in case are two calls").isEqualTo(2);
    }

    @Test
    void aSessionThatIsNotStrictIsRefusedBeforeAnythingIsWritten() {
        RunId run = freshRun();
        try (HikariDataSource lax = AuditDatabase.pool(database().server(),
                config -> config.setConnectionInitSql("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'"))) {
            JdbcAudit audit = JdbcAudit.of(lax);

            Either<AuditFailure, Integer> refused = audit.write(List.of(readyKept(run, "lax", freshTool(), CREATED)));

            assertThat(refused.getLeft().kind()).isEqualTo(AuditFailure.Kind.REFUSED);
            assertThat(refused.getLeft().reason()).contains("sql_mode");
        }
        assertThat(audit().records(run).get()).isEmpty();
    }

    @Test
    void aNulCharacterRoundTrips() {
        RunId run = freshRun();
        AuditedRecord withNul = kept(begun(run, "nul", freshTool(), CREATED).ready("before\u0000after",
                new AgentResult("a\u0000b", EvidenceStatus.EVIDENCE_FOUND, Option.none()), CREATED));

        assertThat(audit().write(List.of(withNul)).get()).isEqualTo(1);

        assertThat(audit().find(run, new ToolCallId("nul")).get().get()).isEqualTo(withNul);
    }
}
