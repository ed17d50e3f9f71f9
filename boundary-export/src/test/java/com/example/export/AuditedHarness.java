package com.example.export;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.export.AuditedRecord;
import io.toolboundary.export.JdbcAudit;
import io.toolboundary.export.RecordExporter;
import java.time.Duration;
import java.time.Instant;
import org.flywaydb.core.Flyway;

/** A harness whose records outlive their TTL: exported to the application's database, read back from it. */
public final class AuditedHarness {

    public static void main(String[] args) throws InterruptedException {
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(args[0]); // jdbc:mariadb://db:3306/app or jdbc:postgresql://db:5432/app
        pool.setUsername(args[1]);
        pool.setPassword(System.getenv("AUDIT_DB_PASSWORD"));
        try (HikariDataSource database = new HikariDataSource(pool)) {
            Flyway.configure().dataSource(database)
                    .locations("classpath:io/toolboundary/export/db/" + args[2]) // mysql or postgresql
                    .load().migrate();
            JdbcAudit audit = JdbcAudit.of(database);

            InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom()
                    .outbox(100_000) // export on: each record is queued as it becomes final
                    .build();
            ToolBoundary boundary = ToolBoundary.builder()
                    .store(store)
                    .accessPolicy(AccessPolicy.allowOnly("log-search"))
                    .tool(ToolBinding.readOnly("log-search", request -> "payments ERROR timeout password=hunter2",
                            (request, raw) -> Projection.evidenceFound(Projector.mask(raw))))
                    .build();

            try (RecordExporter exporter = RecordExporter.builder(store, audit).build().start()) {
                RunContext run = boundary.openRun(RunContext.active(new RunId("triage-7"),
                        Instant.now().plus(Duration.ofMinutes(10)), 20)).get();
                boundary.invoke(run, ToolCallEnvelope.of("triage-7", "call_1", "log-search", "{\"service\":\"payments\"}"));
                while (audit.records(new RunId("triage-7")).get().isEmpty()) {
                    Thread.sleep(50); // the exporter runs beside the boundary; invoke never waits for it
                }
            }
            for (AuditedRecord row : audit.records(new RunId("triage-7")).get()) {
                System.out.println(row.record().key().toolCallId().value() + " " + row.record().status()
                        + " raw (" + row.rawPolicy() + "): " + row.record().rawResponse().getOrElse(""));
            }
        }
    }
}
