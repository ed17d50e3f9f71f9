package io.toolboundary.export;

import static io.toolboundary.export.AuditSamples.freshRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.toolboundary.citations.Citation;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.citations.CitationVerdict;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.export.AuditedCitationCheck.Verdict;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What {@link CitationAudit} promises on every database it writes to, against a real one of each (the
 * subclasses): each report a row read back equal, in checked order, once whatever the failures; a bounded queue
 * that never blocks the check; failures that name only the database's codes.
 */
abstract class CitationAuditContract {

    /** The reason of a write's failure: what was done, the SQLSTATE and the vendor code; nothing else. */
    static final Pattern SAFE_REASON = Pattern.compile(
            "writing \\d+ citation checks?: (no connection, )?SQLSTATE ([0-9A-Z]{5}|none), vendor code -?\\d+");
    /** An instant with nanoseconds below the microsecond, which the table keeps in checked_nanos. */
    static final Instant CHECKED = Instant.parse("2026-03-01T10:15:30.123456789Z");

    private final List<CitationAudit> opened = new ArrayList<>();

    /** The migrated database, V1 and V2. */
    abstract DataSource dataSource();

    /** The folder of the database's migrations: mysql, postgresql or h2. */
    abstract String migrations();

    @AfterEach
    void closeAudits() {
        opened.forEach(audit -> audit.close(Duration.ofSeconds(5)));
    }

    @Test
    void reportsAreWrittenAndReadBackEqualToTheNanosecondUnsafeIdsAsQuestionMarks() throws SQLException {
        RunId run = freshRun();
        CitationAudit audit = open(builder(dataSource()));
        CitationReport grounded = report(run, checked(Citation.evidence("call_1"), CitationVerdict.ACCEPTED),
                checked(Citation.notFound("call_2"), CitationVerdict.ACCEPTED));
        CitationReport refused = report(run,
                checked(Citation.evidence("../etc/passwd'; DROP TABLE x; --"), CitationVerdict.NOT_REFERENCABLE),
                checked(Citation.evidence("call_3"), CitationVerdict.NEGATIVE_AS_EVIDENCE),
                checked(Citation.notFound("call:4.x-y_Z"), CitationVerdict.EVIDENCE_AS_NOT_FOUND),
                checked(Citation.evidence("x".repeat(129)), CitationVerdict.NOT_REFERENCABLE));
        CitationReport uncited = new CitationReport(run, List.of(), true);

        audit.accept(grounded);
        audit.accept(refused);
        audit.accept(uncited);
        await().untilAsserted(() -> assertThat(audit.written()).isEqualTo(3));

        List<AuditedCitationCheck> found = reader().citationChecks(run).get();
        assertThat(found).hasSize(3);
        assertThat(found).extracting(AuditedCitationCheck::checkId).doesNotHaveDuplicates();
        assertThat(found.get(0)).isEqualTo(new AuditedCitationCheck(found.get(0).checkId(), run, CHECKED, true, false, 2,
                List.of(verdict("EVIDENCE", "call_1", "ACCEPTED"), verdict("NOT_FOUND", "call_2", "ACCEPTED"))));
        assertThat(found.get(1)).isEqualTo(new AuditedCitationCheck(found.get(1).checkId(), run, CHECKED, false, false, 4,
                List.of(new Verdict("EVIDENCE", Option.none(), "NOT_REFERENCABLE"),
                        verdict("EVIDENCE", "call_3", "NEGATIVE_AS_EVIDENCE"),
                        verdict("NOT_FOUND", "call:4.x-y_Z", "EVIDENCE_AS_NOT_FOUND"),
                        new Verdict("EVIDENCE", Option.none(), "NOT_REFERENCABLE"))));
        assertThat(found.get(2)).isEqualTo(new AuditedCitationCheck(found.get(2).checkId(), run, CHECKED, false, true, 0,
                List.of()));
        assertThat(found.get(0).checkedAt().getNano() % 1_000).isEqualTo(789);
        assertThat(verdictsColumn(CitationAudit.DEFAULT_TABLE, run)).containsExactly(
                "EVIDENCE:call_1=ACCEPTED;NOT_FOUND:call_2=ACCEPTED",
                "EVIDENCE:?=NOT_REFERENCABLE;EVIDENCE:call_3=NEGATIVE_AS_EVIDENCE;NOT_FOUND:call:4.x-y_Z=EVIDENCE_AS_NOT_FOUND;"
                        + "EVIDENCE:?=NOT_REFERENCABLE",
                "");
        assertThat(reader().citationChecks(freshRun()).get()).isEmpty();
        assertThat(audit.lost()).isZero();
        assertThat(audit.failures()).isZero();
        assertThat(audit.unwritten()).isZero();
    }

    @Test
    void checksOfARunComeInCheckedOrderThoseOfOneInstantInTheOrderAccepted() {
        RunId run = freshRun();
        RunId other = freshRun();
        MutableClock clock = MutableClock.at(CHECKED);
        CitationAudit audit = open(builder(dataSource()).clock(clock));
        List<Instant> at = new ArrayList<>();
        for (int i = 0; i < 160; i++) {
            // 120 at one instant, then later ones a nanosecond apart within its microsecond, one later, one earlier.
            at.add(i < 120 ? CHECKED : i == 159 ? CHECKED.minusSeconds(1) : i == 158 ? CHECKED.plusSeconds(2)
                    : CHECKED.plusNanos(i - 119));
        }
        for (int i = 0; i < at.size(); i++) {
            clock.set(at.get(i));
            audit.accept(report(run, checked(Citation.evidence("call_" + i), CitationVerdict.ACCEPTED)));
            audit.accept(report(other, checked(Citation.evidence("other_" + i), CitationVerdict.ACCEPTED)));
        }
        await().untilAsserted(() -> assertThat(audit.written()).isEqualTo(320));

        List<AuditedCitationCheck> found = reader().citationChecks(run).get();

        List<Integer> expected = IntStream.range(0, at.size()).boxed()
                .sorted(Comparator.comparing(at::get)).toList();
        assertThat(found).extracting(check -> check.verdicts().get(0).toolCallId().get().value())
                .containsExactlyElementsOf(expected.stream().map(i -> "call_" + i).toList());
        assertThat(found).extracting(AuditedCitationCheck::checkedAt)
                .containsExactlyElementsOf(expected.stream().map(at::get).toList());
        assertThat(reader().citationChecks(other).get()).hasSize(160);
    }

    @Test
    void acceptPastTheCapacityCountsLostAndNeverBlocks() {
        RunId run = freshRun();
        ControlledDataSource database = new ControlledDataSource(dataSource());
        CitationAudit audit = open(builder(database).capacity(3));
        database.hold();
        audit.accept(numbered(run, 0));
        await().until(() -> database.waiting() == 1);

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (int i = 1; i <= 5; i++) {
                audit.accept(numbered(run, i));
            }
        }, "accept waited for the database");

        assertThat(audit.lost()).as("the queue holds 3 while the writer holds the first").isEqualTo(2);
        assertThat(audit.unwritten()).isEqualTo(4);
        assertThat(audit.written()).isZero();
        database.release();
        await().untilAsserted(() -> assertThat(audit.written()).isEqualTo(4));
        assertThat(reader().citationChecks(run).get()).extracting(check -> check.verdicts().get(0).toolCallId().get().value())
                .containsExactly("call_0", "call_1", "call_2", "call_3");
        assertThat(audit.lost()).isEqualTo(2);
        assertThat(audit.unwritten()).isZero();
    }

    @Test
    void aTableTheDatabaseRefusesKeepsTheBatchWhichIsWrittenOnceItIsBack() throws SQLException {
        String table = "tb_cite_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        createTableLikeTheMigration(table);
        RunId run = freshRun();
        CitationAudit audit = open(builder(dataSource()).table(table));
        execute("ALTER TABLE " + table + " RENAME TO " + table + "_away");

        audit.accept(report(run, checked(Citation.evidence("secret-value-1234"), CitationVerdict.NOT_REFERENCABLE)));
        audit.accept(numbered(run, 2));
        await().untilAsserted(() -> assertThat(audit.failures()).isGreaterThanOrEqualTo(3));

        AuditFailure failure = audit.lastFailure().get();
        assertThat(failure.reason()).matches(SAFE_REASON)
                .doesNotContain("secret").doesNotContain(table).doesNotContain(run.value());
        assertThat(audit.written()).isZero();
        assertThat(audit.unwritten()).as("the batch is kept").isEqualTo(2);
        assertThat(audit.lost()).isZero();

        execute("ALTER TABLE " + table + "_away RENAME TO " + table);
        await().untilAsserted(() -> assertThat(audit.written()).isEqualTo(2));

        List<AuditedCitationCheck> found = JdbcAudit.of(dataSource(), JdbcAudit.DEFAULT_TABLE, table).citationChecks(run).get();
        assertThat(found).hasSize(2);
        assertThat(found.get(0).verdicts().get(0)).isEqualTo(verdict("EVIDENCE", "secret-value-1234", "NOT_REFERENCABLE"));
        assertThat(verdictsColumn(table, run)).hasSize(2);
        assertThat(audit.lastFailure().isEmpty()).isTrue();
        assertThat(reader().citationChecks(run).get()).as("the default table is another one").isEmpty();
    }

    @Test
    void aCommitWhoseOutcomeIsUnknownIsTriedAgainWithoutASecondRow() throws SQLException {
        RunId run = freshRun();
        ControlledDataSource database = new ControlledDataSource(dataSource());
        CitationAudit audit = open(builder(database));
        database.loseCommits(1);

        audit.accept(numbered(run, 0));
        audit.accept(numbered(run, 1));
        await().untilAsserted(() -> assertThat(audit.written()).isEqualTo(2));

        assertThat(audit.failures()).isEqualTo(1);
        assertThat(verdictsColumn(CitationAudit.DEFAULT_TABLE, run)).as("one row each")
                .containsExactly("EVIDENCE:call_0=ACCEPTED", "EVIDENCE:call_1=ACCEPTED");
    }

    @Test
    void aDatabaseThatCannotBeReachedIsUnavailableByItsSqlStateOnlyAndTheReportWrittenOnceLater() throws SQLException {
        RunId run = freshRun();
        ControlledDataSource database = new ControlledDataSource(dataSource());
        CitationAudit audit = open(builder(database));
        database.refuse("08001");

        audit.accept(numbered(run, 0));
        await().untilAsserted(() -> assertThat(audit.failures()).isGreaterThanOrEqualTo(2));

        assertThat(audit.lastFailure().get()).isEqualTo(new AuditFailure(AuditFailure.Kind.UNAVAILABLE,
                "writing 1 citation check: no connection, SQLSTATE 08001, vendor code 0"));
        assertThat(audit.lastFailure().get().reason()).matches(SAFE_REASON);
        database.refuse(null);
        await().untilAsserted(() -> assertThat(audit.written()).isEqualTo(1));
        assertThat(verdictsColumn(CitationAudit.DEFAULT_TABLE, run)).containsExactly("EVIDENCE:call_0=ACCEPTED");
    }

    @Test
    void closeWritesWhatIsQueuedAndAcceptsNothingAfter() throws SQLException {
        RunId run = freshRun();
        ControlledDataSource database = new ControlledDataSource(dataSource());
        CitationAudit audit = open(builder(database));
        database.hold();
        for (int i = 0; i < 150; i++) {
            audit.accept(numbered(run, i));
        }
        await().until(() -> database.waiting() == 1);
        database.release();

        assertThat(audit.close(Duration.ofSeconds(30))).as("nothing left").isZero();

        assertThat(audit.written()).isEqualTo(150);
        audit.accept(numbered(run, 150));
        assertThat(audit.lost()).isEqualTo(1);
        assertThat(verdictsColumn(CitationAudit.DEFAULT_TABLE, run)).hasSize(150);
    }

    @Test
    void closeReportsWhatItCouldNotWrite() {
        RunId run = freshRun();
        ControlledDataSource database = new ControlledDataSource(dataSource());
        CitationAudit audit = open(builder(database));
        database.refuse("08001");
        for (int i = 0; i < 3; i++) {
            audit.accept(numbered(run, i));
        }

        assertThat(audit.close(Duration.ofMillis(300))).isEqualTo(3);

        assertThat(audit.written()).isZero();
        assertThat(audit.failures()).isPositive();
        assertThat(reader().citationChecks(run).get()).isEmpty();
    }

    @Test
    void moreCitationsThanARowHoldsKeepTheFirstVerdictsAndTheirCount() {
        RunId run = freshRun();
        CitationAudit audit = open(builder(dataSource()));
        List<CitationReport.Checked> citations = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            citations.add(checked(Citation.notFound("c" + "x".repeat(120) + String.format("%03d", i)),
                    CitationVerdict.EVIDENCE_AS_NOT_FOUND));
        }

        audit.accept(new CitationReport(run, citations, false));
        await().untilAsserted(() -> assertThat(audit.written()).isEqualTo(1));

        AuditedCitationCheck found = reader().citationChecks(run).get().get(0);
        assertThat(found.citations()).isEqualTo(300);
        assertThat(found.verdicts()).hasSize(AuditedCitationCheck.MAX_VERDICTS);
        assertThat(found.verdicts().get(255).toolCallId().get().value()).endsWith("255");
        assertThat(found.grounded()).isFalse();
    }

    @Test
    void aRowThatIsNotACheckIsDataInvalid() throws SQLException {
        RunId run = freshRun();
        try (Connection connection = dataSource().getConnection(); PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO toolboundary_citation_check (check_id, run_id, checked_at, checked_nanos, grounded, uncited,"
                        + " citations, verdicts) VALUES (?, ?, ?, 0, ?, ?, 1, ?)")) {
            SqlDialect dialect = SqlDialect.of(connection.getMetaData());
            insert.setString(1, UUID.randomUUID().toString());
            insert.setString(2, run.value());
            dialect.bindInstant(insert, 3, CHECKED.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
            insert.setBoolean(4, false);
            insert.setBoolean(5, false);
            insert.setString(6, "EVIDENCE:call_1=secret value");
            insert.executeUpdate();
        }

        Either<AuditFailure, List<AuditedCitationCheck>> read = reader().citationChecks(run);

        assertThat(read.getLeft()).isEqualTo(new AuditFailure(AuditFailure.Kind.DATA_INVALID,
                "reading the citation checks of a run: row 0 is not a valid citation check (column verdicts)"));
    }

    // Support.

    JdbcAudit reader() {
        return JdbcAudit.of(dataSource());
    }

    CitationAudit.Builder builder(DataSource database) {
        return CitationAudit.builder(database).clock(Clock.fixed(CHECKED, ZoneOffset.UTC))
                .backoff(Duration.ofMillis(10), Duration.ofMillis(50));
    }

    CitationAudit open(CitationAudit.Builder builder) {
        CitationAudit audit = builder.build();
        opened.add(audit);
        return audit;
    }

    static CitationReport report(RunId run, CitationReport.Checked... citations) {
        return new CitationReport(run, List.of(citations), false);
    }

    static CitationReport numbered(RunId run, int i) {
        return report(run, checked(Citation.evidence("call_" + i), CitationVerdict.ACCEPTED));
    }

    static CitationReport.Checked checked(Citation citation, CitationVerdict verdict) {
        return new CitationReport.Checked(citation, verdict);
    }

    static Verdict verdict(String kind, String id, String verdict) {
        return new Verdict(kind, Option.of(new ToolCallId(id)), verdict);
    }

    void execute(String... statements) {
        for (String sql : statements) {
            AuditDatabases.execute(dataSource(), sql);
        }
    }

    /** The verdicts column of a run's rows in {@code table}, in the order written. */
    List<String> verdictsColumn(String table, RunId run) throws SQLException {
        List<String> verdicts = new ArrayList<>();
        try (Connection connection = dataSource().getConnection(); PreparedStatement statement = connection.prepareStatement(
                "SELECT verdicts FROM " + table + " WHERE run_id = ? ORDER BY seq")) {
            statement.setString(1, run.value());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    verdicts.add(rows.getString(1));
                }
            }
        }
        return verdicts;
    }

    /** Creates {@code table} from the shipped V2 migration, every name in it renamed, as a user without Flyway would. */
    void createTableLikeTheMigration(String table) {
        String location = "io/toolboundary/export/db/" + migrations() + "/V2__toolboundary_citation_check.sql";
        String script;
        try (InputStream in = CitationAuditContract.class.getClassLoader().getResourceAsStream(location)) {
            if (in == null) {
                throw new IllegalStateException("no migration at " + location);
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
        StringBuilder withoutComments = new StringBuilder();
        for (String line : script.split("\n")) {
            if (!line.strip().startsWith("--")) {
                withoutComments.append(line).append('\n');
            }
        }
        for (String statement : withoutComments.toString().split(";")) {
            if (!statement.isBlank()) {
                execute(statement.replace(CitationAudit.DEFAULT_TABLE, table));
            }
        }
    }
}
