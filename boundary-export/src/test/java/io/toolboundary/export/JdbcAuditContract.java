package io.toolboundary.export;

import static io.toolboundary.export.AuditSamples.CREATED;
import static io.toolboundary.export.AuditSamples.FOUR_BYTES;
import static io.toolboundary.export.AuditSamples.begun;
import static io.toolboundary.export.AuditSamples.failed;
import static io.toolboundary.export.AuditSamples.freshRun;
import static io.toolboundary.export.AuditSamples.freshTool;
import static io.toolboundary.export.AuditSamples.kept;
import static io.toolboundary.export.AuditSamples.readyKept;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.testsupport.sql.SqlServer;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TimeZone;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What {@link JdbcAudit} promises on every database it supports, run against a real server of each (the
 * subclasses). Each test writes its own runs and tools into the shared, migrated table.
 */
abstract class JdbcAuditContract {

    /** The reason of a database failure: what was done, the SQLSTATE and the vendor code; nothing else. */
    static final Pattern SAFE_REASON = Pattern.compile(
            "(writing|committing) \\d+ records?: (no connection, )?SQLSTATE ([0-9A-Z]{5}|none), vendor code -?\\d+");

    /** The shared database of this kind. */
    abstract AuditDatabase database();

    /** A server of this kind of the test's own. */
    abstract SqlServer newServer();

    /** The statement that sets a session time zone that is not UTC (nor the JVM's). */
    abstract String sessionZoneSql();

    /** A query of the session's time zone, to prove {@link #sessionZoneSql()} took. */
    abstract String sessionZoneQuery();

    /** A query of one row's {@code created_at} as UTC text {@code yyyy-MM-dd HH:mm:ss.ffffff}, by run and call. */
    abstract String createdAtAsUtcTextQuery();

    /** The indexes of {@code table}: each name and its columns in order. */
    abstract Map<String, List<String>> indexes(String table) throws SQLException;

    /** A data source of the driver's own, which opens a new connection each time. */
    abstract javax.sql.DataSource unpooled(SqlServer server);

    /** An insert of a raw row with the given run id, tool_call_id, status, content and raw policy. */
    abstract String rawInsert();

    JdbcAudit audit() {
        return database().audit();
    }

    @Test
    void readyAndErrorRecordsRoundTripEqual() {
        RunId run = freshRun();
        ToolName tool = freshTool();
        List<AuditedRecord> written = List.of(
                readyKept(run, "c-01", tool, CREATED),
                kept(begun(run, "c-02", tool, CREATED).ready("raw",
                        new AgentResult("", EvidenceStatus.NO_EVIDENCE, Option.of("pages 1-3 of the index")), CREATED.plusSeconds(1))),
                kept(begun(run, "c-03", tool, CREATED).ready("",
                        new AgentResult("found", EvidenceStatus.EVIDENCE_FOUND, Option.none()), CREATED)),
                kept(failed(run, "c-04", tool, ErrorCode.EXECUTION_FAILED, Option.of("partial raw " + FOUR_BYTES))
                        .because("java.io.IOException", "connection reset by *** " + FOUR_BYTES)),
                kept(failed(run, "c-05", tool, ErrorCode.PROJECTION_INVALID, Option.none())),
                kept(failed(run, "c-06", tool, ErrorCode.RESULT_TOO_LARGE, Option.of(""))),
                kept(failed(run, "c-07", tool, ErrorCode.EXECUTION_ABANDONED, Option.none()).because("", "")),
                kept(begun(run, "c-08", tool, CREATED).ready("late", new AgentResult("x", EvidenceStatus.EVIDENCE_FOUND,
                        Option.of(" ")), CREATED.minusSeconds(5))));

        assertThat(audit().write(written).get()).isEqualTo(written.size());

        for (AuditedRecord record : written) {
            Option<AuditedRecord> found = audit().find(run, record.record().key().toolCallId()).get();
            assertThat(found.isDefined()).as("record %s", record.record().key()).isTrue();
            assertThat(found.get()).isEqualTo(record);
            assertThat(found.get().record().status()).isEqualTo(record.record().status());
            assertThat(found.get().record().evidence()).isEqualTo(record.record().evidence());
        }
        assertThat(audit().records(run).get()).containsExactlyElementsOf(written.stream()
                .sorted((a, b) -> a.record().key().toolCallId().value().compareTo(b.record().key().toolCallId().value()))
                .toList());
        assertThat(audit().find(run, new ToolCallId("c-99")).get().isEmpty()).isTrue();
        assertThat(audit().find(freshRun(), new ToolCallId("c-01")).get().isEmpty()).isTrue();
    }

    @Test
    void fourByteCharactersLongIdsAndAMebibyteRawResponseRoundTrip() {
        RunId run = new RunId(("r" + UUID.randomUUID()).repeat(4).substring(0, 124) + "-.:_");
        assertThat(run.value()).hasSize(128);
        ToolName tool = new ToolName(("t" + UUID.randomUUID()).repeat(4).substring(0, 128));
        String callId = ("C" + UUID.randomUUID()).repeat(4).substring(0, 128);
        String mebibyte = AuditSamples.textOfBytes(1024 * 1024);
        assertThat(mebibyte.getBytes(StandardCharsets.UTF_8)).hasSize(1024 * 1024);
        CanonicalRecord.Projecting begun = new CanonicalRecord.Projecting(
                InvocationKey.of(run, new ToolCallId(callId)), tool,
                "{\"q\":\"" + FOUR_BYTES + "\\ud83d\\ude00\",\"n\":[1,2.50,-0e3]}", "fp-" + FOUR_BYTES, CREATED);
        AuditedRecord big = kept(begun.ready(mebibyte,
                new AgentResult(FOUR_BYTES.repeat(1000), EvidenceStatus.EVIDENCE_FOUND, Option.of(FOUR_BYTES)),
                CREATED.plus(1, ChronoUnit.MICROS)));

        assertThat(audit().write(List.of(big)).get()).isEqualTo(1);

        AuditedRecord found = audit().find(run, new ToolCallId(callId)).get().get();
        assertThat(found).isEqualTo(big);
        assertThat(found.record().rawResponse().get()).isEqualTo(mebibyte);
        assertThat(found.record().arguments()).isEqualTo(big.record().arguments());
        assertThat(audit().records(tool, CREATED, CREATED.plusSeconds(1), 5).get()).containsExactly(big);
    }

    @Test
    void theRawResponsePolicyIsKeptAndOmitWritesNoRawResponse() throws SQLException {
        RunId run = freshRun();
        ToolName tool = freshTool();
        CanonicalRecord.Ready ready = AuditSamples.ready(run, "omit-ready", tool, CREATED);
        AuditedRecord omittedReady = AuditedRecord.of(ready, RawResponsePolicy.OMIT);
        AuditedRecord omittedError = AuditedRecord.of(failed(run, "omit-error", tool, ErrorCode.EXECUTION_FAILED,
                Option.of("token=abc")), RawResponsePolicy.OMIT);
        AuditedRecord masked = AuditedRecord.of(begun(run, "mask", tool, CREATED).ready(
                "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345",
                new AgentResult("ok", EvidenceStatus.EVIDENCE_FOUND, Option.none()), CREATED), RawResponsePolicy.MASK);
        assertThat(masked.record().rawResponse().get()).doesNotContain("abcdefghijklmnopqrstuvwxyz012345");

        assertThat(audit().write(List.of(omittedReady, omittedError, masked)).get()).isEqualTo(3);

        assertThat(audit().find(run, new ToolCallId("omit-ready")).get().get()).isEqualTo(omittedReady);
        assertThat(audit().find(run, new ToolCallId("omit-error")).get().get()).isEqualTo(omittedError);
        assertThat(audit().find(run, new ToolCallId("mask")).get().get()).isEqualTo(masked);
        assertThat(rawResponseColumn(run, "omit-ready")).as("OMIT writes no raw response at all").isNull();
        assertThat(rawResponseColumn(run, "omit-error")).isNull();
    }

    @Test
    void writingTheSameRecordsTwiceKeepsOneRowEachAndCountsNothingTheSecondTime() throws SQLException {
        RunId run = freshRun();
        ToolName tool = freshTool();
        List<AuditedRecord> records = new ArrayList<>();
        for (int i = 0; i < 130; i++) {
            records.add(readyKept(run, String.format("call-%03d", i), tool, CREATED.plusMillis(i)));
        }

        assertThat(audit().write(records).get()).isEqualTo(130);
        assertThat(audit().write(records).get()).isEqualTo(0);
        List<AuditedRecord> someAgainAndTwoNew = new ArrayList<>(records.subList(0, 3));
        someAgainAndTwoNew.add(readyKept(run, "call-new-1", tool, CREATED));
        someAgainAndTwoNew.add(readyKept(run, "call-new-2", tool, CREATED));
        someAgainAndTwoNew.add(kept(failed(run, "call-new-1", tool, ErrorCode.EXECUTION_FAILED, Option.none())));
        assertThat(audit().write(someAgainAndTwoNew).get()).as("a key twice in one batch counts once").isEqualTo(2);
        assertThat(audit().find(run, new ToolCallId("call-new-1")).get().get()).as("the first of the two is written")
                .isEqualTo(someAgainAndTwoNew.get(3));

        assertThat(rowCount(run)).isEqualTo(132);
        assertThat(audit().records(run).get()).hasSize(132);
    }

    @Test
    void aSecondWriteOfAKeyWithOtherValuesChangesNothing() {
        RunId run = freshRun();
        ToolName tool = freshTool();
        AuditedRecord first = readyKept(run, "same", tool, CREATED);
        AuditedRecord other = kept(failed(run, "same", tool, ErrorCode.EXECUTION_FAILED, Option.none()));

        assertThat(audit().write(List.of(first)).get()).isEqualTo(1);
        assertThat(audit().write(List.of(other)).get()).isEqualTo(0);

        assertThat(audit().find(run, new ToolCallId("same")).get().get()).isEqualTo(first);
    }

    @Test
    void aRowTheDatabaseRefusesRollsBackTheWholeBatch() throws SQLException {
        RunId run = freshRun();
        ToolName tool = freshTool();
        List<AuditedRecord> batch = new ArrayList<>();
        for (int i = 0; i < 149; i++) {
            batch.add(readyKept(run, String.format("ok-%03d", i), tool, CREATED));
        }
        String notJson = "{\"query\": secret-value-1234";
        batch.add(kept(new CanonicalRecord.Projecting(InvocationKey.of(run, new ToolCallId("bad")),
                tool, notJson, "fp", CREATED).ready("raw", new AgentResult("c", EvidenceStatus.EVIDENCE_FOUND, Option.none()),
                CREATED)));

        Either<AuditFailure, Integer> refused = audit().write(batch);

        assertThat(refused.isLeft()).isTrue();
        assertThat(refused.getLeft().kind()).isEqualTo(AuditFailure.Kind.REFUSED);
        assertThat(refused.getLeft().reason()).matches(SAFE_REASON).startsWith("writing 150 records: SQLSTATE ")
                .doesNotContain("secret-value");
        assertThat(rowCount(run)).as("the first statement's 100 rows were rolled back too").isZero();
        assertThat(audit().records(run).get()).isEmpty();

        assertThat(audit().write(batch.subList(0, 149)).get()).as("without the refused row it is written").isEqualTo(149);
    }

    @Test
    void aCheckConstraintRefusalRollsBackTheBatchInATableOfAnotherName() throws SQLException {
        String table = "tb_audit_checked_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        database().createTableLikeTheMigration(table);
        database().execute("ALTER TABLE " + table + " ADD CONSTRAINT " + table + "_no_forbidden CHECK (content IS NULL"
                + " OR content NOT LIKE '%forbidden%')");
        JdbcAudit checked = JdbcAudit.of(database().pool(), table);
        assertThat(checked.table()).isEqualTo(table);
        RunId run = freshRun();
        ToolName tool = freshTool();
        AuditedRecord fine = readyKept(run, "fine", tool, CREATED);
        AuditedRecord forbidden = kept(begun(run, "forbidden", tool, CREATED).ready("raw",
                new AgentResult("a forbidden word", EvidenceStatus.EVIDENCE_FOUND, Option.none()), CREATED));

        Either<AuditFailure, Integer> refused = checked.write(List.of(fine, forbidden));

        assertThat(refused.getLeft().kind()).isEqualTo(AuditFailure.Kind.REFUSED);
        assertThat(refused.getLeft().reason()).matches(SAFE_REASON).doesNotContain("forbidden");
        assertThat(checked.records(run).get()).isEmpty();
        assertThat(checked.write(List.of(fine)).get()).isEqualTo(1);
        assertThat(checked.records(run).get()).containsExactly(fine);
        assertThat(audit().records(run).get()).as("the default table is another one").isEmpty();
        assertThat(indexes(table).values()).as("the migration's SQL runs without Flyway")
                .contains(List.of("tool", "created_at"));
    }

    @Test
    void recordsOfARunComeInToolCallIdOrder() {
        RunId run = freshRun();
        ToolName tool = freshTool();
        List<String> ids = new ArrayList<>(List.of("b", "B", "a.1", "a-1", "a_1", "A", "0", "z:9", "-x", "a", "aa", "Z"));
        Collections.shuffle(ids, new Random(7));
        List<AuditedRecord> records = ids.stream().map(id -> readyKept(run, id, tool, CREATED)).toList();
        audit().write(records).get();
        audit().write(List.of(readyKept(freshRun(), "a", tool, CREATED))).get();

        List<String> read = audit().records(run).get().stream().map(r -> r.record().key().toolCallId().value()).toList();

        assertThat(read).containsExactlyElementsOf(ids.stream().sorted().toList());
        assertThat(read).startsWith("-x", "0", "A", "B", "Z", "a");
    }

    @Test
    void recordsOfAToolKeepToTheHalfOpenIntervalOldestFirstUpToTheLimit() {
        ToolName tool = freshTool();
        RunId run = freshRun();
        Instant t0 = CREATED;
        AuditedRecord atT0 = readyKept(run, "t0", tool, t0);
        AuditedRecord atT0PlusMicro = readyKept(run, "t0-1us", tool, t0.plus(1, ChronoUnit.MICROS));
        AuditedRecord atT1 = readyKept(run, "t1", tool, t0.plusSeconds(1));
        AuditedRecord atT1b = readyKept(freshRun(), "t1", tool, t0.plusSeconds(1));
        AuditedRecord atT2 = readyKept(run, "t2", tool, t0.plusSeconds(2));
        AuditedRecord otherTool = readyKept(run, "other", freshTool(), t0.plusSeconds(1));
        audit().write(List.of(atT2, atT1, otherTool, atT0, atT1b, atT0PlusMicro)).get();
        List<AuditedRecord> atOneSecond = atT1.record().key().runId().value()
                .compareTo(atT1b.record().key().runId().value()) < 0 ? List.of(atT1, atT1b) : List.of(atT1b, atT1);

        assertThat(audit().records(tool, t0, t0.plusSeconds(2), 10).get())
                .containsExactly(atT0, atT0PlusMicro, atOneSecond.get(0), atOneSecond.get(1));
        assertThat(audit().records(tool, t0, t0.plusSeconds(3), 2).get()).containsExactly(atT0, atT0PlusMicro);
        assertThat(audit().records(tool, t0.plusNanos(500), t0.plusSeconds(1).plusNanos(500), 10).get())
                .as("a bound between two microseconds is the next one").containsExactly(atT0PlusMicro,
                        atOneSecond.get(0), atOneSecond.get(1));
        assertThat(audit().records(tool, t0.plusSeconds(2), t0.plusSeconds(2), 10).get()).isEmpty();
        assertThat(audit().records(tool, t0.plusSeconds(3), t0, 10).get()).isEmpty();
        assertThat(audit().records(tool, Instant.MIN, Instant.MAX, 1).get()).containsExactly(atT0);
        assertThat(audit().records(tool, Instant.EPOCH, t0, 10).get()).isEmpty();
        assertThat(audit().records(freshTool(), Instant.MIN, Instant.MAX, 10).get()).isEmpty();
    }

    @Test
    void theSchemaHasItsKeyAndTheToolCreatedAtIndex() throws SQLException {
        Map<String, List<String>> indexes = indexes(JdbcAudit.DEFAULT_TABLE);

        assertThat(indexes.values()).contains(List.of("run_id", "tool_call_id"), List.of("tool", "created_at"));
        assertThat(audit().table()).isEqualTo("toolboundary_record");
        assertThat(audit().flywayLocation()).startsWith("classpath:io/toolboundary/export/db/");
    }

    @Test
    void instantsAreBoundAsUtcWhateverTheJvmAndSessionTimeZones() throws SQLException {
        TimeZone saved = TimeZone.getDefault();
        RunId run = freshRun();
        ToolName tool = freshTool();
        AuditedRecord record = readyKept(run, "zoned", tool, CREATED);
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
            try (HikariDataSource zoned = AuditDatabase.pool(database().server(),
                    config -> config.setConnectionInitSql(sessionZoneSql()))) {
                try (Connection connection = zoned.getConnection(); PreparedStatement statement =
                        connection.prepareStatement(sessionZoneQuery()); ResultSet zone = statement.executeQuery()) {
                    assertThat(zone.next()).isTrue();
                    assertThat(zone.getString(1)).as("the session is not in UTC").isIn("-09:30", "America/St_Johns");
                }
                JdbcAudit audit = JdbcAudit.of(zoned);

                assertThat(audit.write(List.of(record)).get()).isEqualTo(1);

                assertThat(audit.find(run, new ToolCallId("zoned")).get().get()).isEqualTo(record);
                assertThat(audit.records(tool, CREATED, CREATED.plus(1, ChronoUnit.MICROS), 5).get()).containsExactly(record);
                assertThat(audit.records(tool, CREATED.minusSeconds(1), CREATED, 5).get()).isEmpty();
                try (Connection connection = zoned.getConnection();
                        PreparedStatement statement = connection.prepareStatement(createdAtAsUtcTextQuery())) {
                    statement.setString(1, run.value());
                    statement.setString(2, "zoned");
                    try (ResultSet row = statement.executeQuery()) {
                        assertThat(row.next()).isTrue();
                        assertThat(row.getString(1)).isEqualTo("2026-03-01 10:15:30.123456");
                    }
                }
            }
        } finally {
            TimeZone.setDefault(saved);
        }
        assertThat(audit().find(run, new ToolCallId("zoned")).get().get()).as("read back in UTC").isEqualTo(record);
    }

    @Test
    void instantsAreKeptToTheNanosecondAndQueriedByTheirMicroseconds() throws SQLException {
        RunId run = freshRun();
        ToolName tool = freshTool();
        Instant nanos = CREATED.plusNanos(999);
        AuditedRecord record = readyKept(run, "nanos", tool, nanos);

        assertThat(audit().write(List.of(record)).get()).isEqualTo(1);

        CanonicalRecord.Final found = audit().find(run, new ToolCallId("nanos")).get().get().record();
        assertThat(found.createdAt()).isEqualTo(nanos);
        assertThat(found).isEqualTo(record.record());
        assertThat(found.updatedAt().getNano() % 1_000).isEqualTo(record.record().updatedAt().getNano() % 1_000);
        try (Connection connection = database().pool().getConnection(); java.sql.Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT created_nanos FROM toolboundary_record WHERE run_id = '"
                        + run.value() + "'")) {
            assertThat(row.next()).isTrue();
            assertThat(row.getInt(1)).isEqualTo(999);
        }
    }

    @Test
    void instantsOutsideWhatTheDatabasesHoldAreRefusedBeforeAnythingIsWritten() {
        RunId run = freshRun();
        ToolName tool = freshTool();
        AuditedRecord fine = readyKept(run, "fine", tool, CREATED);
        AuditedRecord farFuture = readyKept(run, "far", tool, Instant.parse("+10000-01-01T00:00:00Z"));
        AuditedRecord ancient = readyKept(run, "ancient", tool, Instant.parse("0000-12-31T23:59:59Z"));

        for (AuditedRecord outside : List.of(farFuture, ancient)) {
            Either<AuditFailure, Integer> refused = audit().write(List.of(fine, outside));
            assertThat(refused.getLeft().kind()).isEqualTo(AuditFailure.Kind.REFUSED);
            assertThat(refused.getLeft().reason()).contains("record 1");
        }
        assertThat(audit().records(run).get()).isEmpty();
        Instant last = Instant.parse("9999-12-31T23:59:59.999999Z");
        Instant earliest = Instant.parse("0001-01-01T00:00:00Z");
        AgentResult result = new AgentResult("c", EvidenceStatus.EVIDENCE_FOUND, Option.none());
        AuditedRecord edge = kept(begun(run, "edge", tool, last).ready("raw", result, last));
        AuditedRecord first = kept(begun(run, "first", tool, earliest).ready("raw", result, earliest));
        assertThat(audit().write(List.of(edge, first)).get()).isEqualTo(2);
        assertThat(audit().records(run).get()).containsExactly(edge, first);
    }

    @Test
    void aRowThatIsNotARecordIsDataInvalid() throws SQLException {
        RunId run = freshRun();
        String unsafeRun = "not a safe run id " + UUID.randomUUID();
        try (Connection connection = database().pool().getConnection();
                PreparedStatement insert = connection.prepareStatement(rawInsert())) {
            insert.setString(1, run.value());
            insert.setString(2, "ready-without-content");
            insert.setString(3, "READY");
            insert.setString(4, null);
            insert.setString(5, "KEEP");
            insert.executeUpdate();
            insert.setString(1, unsafeRun);
            insert.setString(2, "x");
            insert.setString(3, "READY");
            insert.setString(4, "content");
            insert.setString(5, "KEEP");
            insert.executeUpdate();
        }

        Either<AuditFailure, Option<AuditedRecord>> found = audit().find(run, new ToolCallId("ready-without-content"));
        assertThat(found.getLeft().kind()).isEqualTo(AuditFailure.Kind.DATA_INVALID);
        assertThat(found.getLeft().reason()).isEqualTo("reading a record: row 0 is not a valid record (column content)");
        assertThat(audit().records(run).getLeft().kind()).isEqualTo(AuditFailure.Kind.DATA_INVALID);
        try (Connection connection = database().pool().getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT COUNT(*) FROM toolboundary_record WHERE run_id = ?")) {
            statement.setString(1, unsafeRun);
            try (ResultSet count = statement.executeQuery()) {
                count.next();
                assertThat(count.getInt(1)).isEqualTo(1);
            }
        }
    }

    @Test
    void nullsAndABadLimitAreRefusedNamingTheParameter() {
        JdbcAudit audit = audit();
        RunId run = freshRun();
        ToolName tool = freshTool();
        assertThatThrownBy(() -> audit.write(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("records");
        List<AuditedRecord> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> audit.write(withNull)).isInstanceOf(NullPointerException.class).hasMessageContaining("records");
        assertThatThrownBy(() -> audit.find(null, new ToolCallId("x"))).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("runId");
        assertThatThrownBy(() -> audit.find(run, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("toolCallId");
        assertThatThrownBy(() -> audit.records(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("runId");
        assertThatThrownBy(() -> audit.records(null, CREATED, CREATED, 1)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("tool");
        assertThatThrownBy(() -> audit.records(tool, null, CREATED, 1)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("from");
        assertThatThrownBy(() -> audit.records(tool, CREATED, null, 1)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("to");
        assertThatThrownBy(() -> audit.records(tool, CREATED, CREATED, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit");
        assertThat(audit.write(List.of()).get()).isZero();
    }

    @Test
    void aStoppedDatabaseIsUnavailableWithoutAnExceptionAndWrittenAgainOnceStarted() {
        try (AuditDatabase own = AuditDatabase.own(newServer())) {
            SqlServer server = own.server();
            JdbcAudit pooled = own.audit();
            JdbcAudit unpooled = JdbcAudit.of(unpooled(server));
            RunId run = freshRun();
            ToolName tool = freshTool();
            AuditedRecord before = readyKept(run, "before", tool, CREATED);
            AuditedRecord during = readyKept(run, "during", tool, CREATED.plusSeconds(1));
            AuditedRecord after = readyKept(run, "after", tool, CREATED.plusSeconds(2));
            assertThat(pooled.write(List.of(before)).get()).isEqualTo(1);

            server.stop();
            long started = System.nanoTime();
            List<AuditFailure> failures = new ArrayList<>();
            for (JdbcAudit audit : List.of(pooled, pooled, pooled, unpooled)) {
                failures.add(audit.write(List.of(during)).getLeft());
            }
            for (JdbcAudit audit : List.of(pooled, unpooled)) {
                failures.add(audit.find(run, new ToolCallId("before")).getLeft());
                failures.add(audit.records(run).getLeft());
                failures.add(audit.records(tool, CREATED, CREATED.plusSeconds(5), 5).getLeft());
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(failures).extracting(AuditFailure::kind).containsOnly(AuditFailure.Kind.UNAVAILABLE);
            assertThat(failures.subList(0, 4)).extracting(AuditFailure::reason).allMatch(SAFE_REASON.asMatchPredicate());
            assertThat(failures).extracting(AuditFailure::reason).noneMatch(reason -> reason.contains(server.password())
                    || reason.contains(Integer.toString(server.port())) || reason.contains("jdbc:"));
            assertThat(took).as("the pool gives up after its connection timeout").isLessThan(Duration.ofSeconds(30));

            server.start();
            assertThat(unpooled.write(List.of(during)).get()).as("a new connection writes at once").isEqualTo(1);
            Either<AuditFailure, Integer> again = pooled.write(List.of(after));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (again.isLeft() && System.nanoTime() < deadline) {
                // The pool may still be backing off from the failed connections: it recovers by itself.
                assertThat(again.getLeft().kind()).isEqualTo(AuditFailure.Kind.UNAVAILABLE);
                again = pooled.write(List.of(after));
            }
            assertThat(again.isRight()).as("the pool writes again: %s", again).isTrue();
            assertThat(again.get()).isEqualTo(1);
            assertThat(pooled.records(run).get()).containsExactly(after, before, during);
        }
    }

    /** The raw_response column of a row, as stored. */
    private String rawResponseColumn(RunId run, String callId) throws SQLException {
        try (Connection connection = database().pool().getConnection(); PreparedStatement statement = connection.prepareStatement(
                "SELECT raw_response FROM toolboundary_record WHERE run_id = ? AND tool_call_id = ?")) {
            statement.setString(1, run.value());
            statement.setString(2, callId);
            try (ResultSet row = statement.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getString(1);
            }
        }
    }

    private int rowCount(RunId run) throws SQLException {
        try (Connection connection = database().pool().getConnection(); PreparedStatement statement = connection.prepareStatement(
                "SELECT COUNT(*) FROM toolboundary_record WHERE run_id = ?")) {
            statement.setString(1, run.value());
            try (ResultSet count = statement.executeQuery()) {
                count.next();
                return count.getInt(1);
            }
        }
    }
}
