package com.example.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.testsupport.sql.MariaDbServer;
import io.toolboundary.testsupport.sql.PostgresServer;
import io.toolboundary.testsupport.sql.SqlServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** docs/export.md's harness, run as its own process against each database, prints what the page says. */
class AuditedHarnessTest {

    @Test
    void onMariaDb() throws Exception {
        assertThat(run(MariaDbServer.shared(), "mysql")).contains(
                "call_1 READY raw (MASK): payments ERROR timeout password=[masked]");
    }

    @Test
    void onPostgreSql() throws Exception {
        assertThat(run(PostgresServer.shared(), "postgresql")).contains(
                "call_1 READY raw (MASK): payments ERROR timeout password=[masked]");
    }

    private static String run(SqlServer server, String migrations) throws IOException, InterruptedException, SQLException {
        try (Connection connection = DriverManager.getConnection(server.jdbcUrl(), server.user(), server.password())) {
            boolean exists = connection.getMetaData().getTables(null, null, "toolboundary_record", null).next();
            if (exists) {
                connection.createStatement().execute("DELETE FROM toolboundary_record WHERE run_id = 'triage-7'");
            }
        }
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), AuditedHarness.class.getName(),
                server.jdbcUrl(), server.user(), migrations).redirectErrorStream(true);
        builder.environment().put("AUDIT_DB_PASSWORD", server.password());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).doesNotContain("hunter2").doesNotContain(server.password());
        return output;
    }
}
