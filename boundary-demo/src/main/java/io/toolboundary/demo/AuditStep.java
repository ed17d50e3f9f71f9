package io.toolboundary.demo;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.RunId;
import io.toolboundary.export.AuditedRecord;
import io.toolboundary.export.JdbcAudit;
import io.toolboundary.export.RecordExporter;
import io.vavr.control.Either;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.h2.jdbcx.JdbcDataSource;

/**
 * After the run, what a reviewer reads weeks later: the run's final records, exported by a
 * {@link RecordExporter} into an audit database (here an embedded H2, in production the application's
 * MariaDB, MySQL or PostgreSQL) and read back through {@code RecordAudit}, raw responses masked.
 */
final class AuditStep {

    private static final String MIGRATION = "io/toolboundary/export/db/h2/V1__toolboundary_record.sql";
    private static final int MAX_ROUNDS = 1_000;

    private AuditStep() {
    }

    /** {@return true when the run's records were exported and printed; false after printing why not} */
    static boolean print(CanonicalInvocationStore store, RunId runId, PrintStream out, PrintStream err) {
        out.println();
        if (store.outbox().isEmpty()) {
            Table.wrap("Audit database: export is off for this store (Redis Cluster refuses it; see docs/export.md).",
                    Table.WIDTH).forEach(out::println);
            return true;
        }
        JdbcDataSource database = new JdbcDataSource();
        database.setURL("jdbc:h2:mem:toolboundary-audit-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        migrate(database);
        JdbcAudit audit = JdbcAudit.of(database);
        RecordExporter exporter = RecordExporter.builder(store, audit).build();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Either<RecordExporter.Failure, RecordExporter.Round> done = exporter.exportOnce();
            if (done.isLeft()) {
                err.println("boundary-demo: export stopped: " + done.getLeft().stage() + " " + done.getLeft().reason());
                return false;
            }
            if (done.get().exported() + done.get().lost() == 0) {
                break;
            }
        }
        List<AuditedRecord> rows = audit.records(runId).getOrElseThrow(failure -> new IllegalStateException(failure.toString()));
        Table.wrap("Audit database (an embedded H2 here; your MariaDB, MySQL or PostgreSQL in production): the run's "
                + rows.size() + " final records, exported by RecordExporter beside the boundary and read back with"
                + " RecordAudit, raw responses masked. They outlive the store's TTL.", Table.WIDTH).forEach(out::println);
        for (AuditedRecord row : rows) {
            CanonicalRecord.Final record = row.record();
            String outcome = record.errorCode().map(Enum::name)
                    .getOrElse(() -> record.evidence().map(Enum::name).getOrElse(""));
            String raw = record.rawResponse().map(text -> text.getBytes(StandardCharsets.UTF_8).length + " bytes")
                    .getOrElse("none");
            out.println(String.format("  %-12s %-16s %-6s %-22s raw %s (%s)", record.key().toolCallId().value(),
                    record.tool().value(), record.status(), outcome, raw, row.rawPolicy()));
        }
        return true;
    }

    /** Creates the audit table from the shipped migration's plain SQL. */
    private static void migrate(JdbcDataSource database) {
        String script;
        try (InputStream in = AuditStep.class.getClassLoader().getResourceAsStream(MIGRATION)) {
            if (in == null) {
                throw new IllegalStateException("no migration " + MIGRATION + " on the class path");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String statements = script.lines().filter(line -> !line.strip().startsWith("--"))
                .collect(Collectors.joining("\n"));
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            for (String sql : statements.split(";")) {
                if (!sql.isBlank()) {
                    statement.execute(sql);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("creating the demo's audit table: SQLSTATE " + e.getSQLState(), e);
        }
    }
}
