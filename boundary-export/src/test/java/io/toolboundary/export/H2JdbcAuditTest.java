package io.toolboundary.export;

import static io.toolboundary.export.AuditSamples.CREATED;
import static io.toolboundary.export.AuditSamples.failed;
import static io.toolboundary.export.AuditSamples.freshRun;
import static io.toolboundary.export.AuditSamples.freshTool;
import static io.toolboundary.export.AuditSamples.kept;
import static io.toolboundary.export.AuditSamples.readyKept;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The embedded H2 audit database of the demo: the shipped migration, equal round trips, once per key. */
class H2JdbcAuditTest {

    private final JdbcDataSource database = new JdbcDataSource();
    private final JdbcAudit audit;

    H2JdbcAuditTest() {
        database.setURL("jdbc:h2:mem:audit-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        audit = JdbcAudit.of(database);
        Flyway.configure().dataSource(database).locations(audit.flywayLocation()).load().migrate();
    }

    @Test
    void recordsRoundTripEqualToTheNanosecondAndARepeatInsertsNothing() {
        RunId run = freshRun();
        ToolName tool = freshTool();
        List<AuditedRecord> written = List.of(
                readyKept(run, "c-01", tool, CREATED.plusNanos(7)),
                kept(failed(run, "c-02", tool, ErrorCode.EXECUTION_FAILED, Option.none())
                        .because("java.lang.IllegalStateException", "connection refused password=[masked]")),
                kept(failed(run, "c-03", tool, ErrorCode.PROJECTION_FAILED, Option.of("raw kept"))));

        assertThat(audit.flywayLocation()).isEqualTo("classpath:io/toolboundary/export/db/h2");
        assertThat(audit.write(written).get()).isEqualTo(3);
        assertThat(audit.write(written).get()).as("written before: inserts nothing").isZero();
        assertThat(audit.write(List.of(written.get(0), written.get(0))).get()).isZero();

        assertThat(audit.records(run).get()).containsExactlyElementsOf(written);
        assertThat(audit.find(run, new ToolCallId("c-02")).get()).contains(written.get(1));
        assertThat(audit.records(tool, CREATED, CREATED.plusSeconds(1), 10).get()).hasSize(3);
        assertThat(audit.records(tool, Instant.MIN, CREATED, 10).get()).isEmpty();
    }

    @Test
    void aBatchWithOneKeyTwiceInsertsItOnce() {
        RunId run = freshRun();
        AuditedRecord record = readyKept(run, "twice", freshTool(), CREATED);

        assertThat(audit.write(List.of(record, record)).get()).isEqualTo(1);
        assertThat(audit.records(run).get()).containsExactly(record);
    }
}
