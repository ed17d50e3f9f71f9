package io.toolboundary.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.citations.CitationCheck;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** {@link CitationAudit} on the embedded H2 database of the demo; and as the listener of a real check. */
class H2CitationAuditTest extends CitationAuditContract {

    private final JdbcDataSource database = new JdbcDataSource();

    H2CitationAuditTest() {
        database.setURL("jdbc:h2:mem:citations-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(database).locations("classpath:io/toolboundary/export/db/h2").load().migrate();
    }

    @Override
    DataSource dataSource() {
        return database;
    }

    @Override
    String migrations() {
        return "h2";
    }

    @Test
    void asTheListenerOfACheckEachAnswerIsARow() {
        ToolBoundary boundary = ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create())
                .accessPolicy(AccessPolicy.allowAll())
                .tool(ToolBinding.readOnly("logs", FakeTools.returning("ERROR payments timeout"),
                        FakeProjectors.evidenceFound("payments timed out at 10:02")))
                .build();
        RunContext run = Fixtures.opened(boundary, Fixtures.runContext("run-cited"));
        boundary.invoke(run, ToolCallEnvelope.of("run-cited", "call_found", "logs", "{}"));
        CitationAudit audit = open(builder(database));
        CitationCheck check = CitationCheck.builder(boundary).listener(audit).build();
        List<InvocationKey> shown = List.of(InvocationKey.of(run.runId(), new ToolCallId("call_found")));

        check.check(run.runId(), "Payments timed out [evidence: call_found].", shown).get();
        check.check(run.runId(), "It was the database [evidence: call_found, no such call!].", shown).get();
        await().untilAsserted(() -> assertThat(audit.written()).isEqualTo(2));

        List<AuditedCitationCheck> found = reader().citationChecks(run.runId()).get();
        assertThat(found).extracting(AuditedCitationCheck::grounded).containsExactly(true, false);
        assertThat(found).extracting(AuditedCitationCheck::verdictsText).containsExactly(
                "EVIDENCE:call_found=ACCEPTED",
                "EVIDENCE:call_found=ACCEPTED;EVIDENCE:?=NOT_REFERENCABLE");
        assertThat(found).extracting(AuditedCitationCheck::checkedAt).containsOnly(CHECKED);
    }

    @Test
    void acceptNeverThrowsAndCountsWhatCannotBeARow() {
        CitationAudit audit = open(builder(database));
        CitationAudit farFuture = open(builder(database).clock(Clock.fixed(Instant.parse("+10000-01-01T00:00:00Z"),
                ZoneOffset.UTC)));

        audit.accept(null);
        farFuture.accept(new CitationReport(AuditSamples.freshRun(), List.of(), false));

        assertThat(audit.lost()).isEqualTo(1);
        assertThat(farFuture.lost()).isEqualTo(1);
        assertThat(audit.unwritten() + farFuture.unwritten()).isZero();
    }

    @Test
    void theBuilderRefusesWhatItCannotUseNamingIt() {
        assertThatThrownBy(() -> CitationAudit.builder(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("dataSource");
        CitationAudit.Builder builder = CitationAudit.builder(database);
        assertThatThrownBy(() -> builder.capacity(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity");
        assertThatThrownBy(() -> builder.table("x; DROP TABLE y")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table name");
        assertThatThrownBy(() -> builder.backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("backoff");
        assertThatThrownBy(() -> builder.clock(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("clock");
        assertThatThrownBy(() -> builder.closeTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("closeTimeout");
        CitationAudit audit = open(builder.capacity(7).table("audit.checks"));
        assertThat(audit.capacity()).isEqualTo(7);
        assertThat(audit.table()).isEqualTo("audit.checks");
        assertThat(CitationAudit.of(database).close(Duration.ofSeconds(1))).isZero();
        assertThat(JdbcAudit.of(database).citationTable()).isEqualTo("toolboundary_citation_check");
        assertThat(JdbcAudit.of(database, "audit.records").citationTable()).isEqualTo("audit.toolboundary_citation_check");
        assertThat(JdbcAudit.of(database, "records", "checks").citationTable()).isEqualTo("checks");
    }
}
