package io.toolboundary.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.OutboxBacklog;
import io.toolboundary.application.spi.OutboxEntry;
import io.toolboundary.application.spi.RecordOutbox;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import io.toolboundary.testsupport.sql.SqlServer;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Export end to end, on real servers: calls through a boundary on Redis (and in memory), records exported
 * by {@link RecordExporter} through {@link JdbcAudit} into MariaDB and PostgreSQL, under the faults the
 * exporter must survive. Each case prints one line of the reliability table. The database outage lasts
 * {@code -Dtoolboundary.export.outage} (5 s by default; PT60S in the soak profile).
 */
class ExportReliabilityTest {

    static final int CALLS = Integer.getInteger("toolboundary.export.calls", 10_000);
    static final Duration OUTAGE = Duration.parse(System.getProperty("toolboundary.export.outage", "PT5S"));

    private static RedisServerProcess redis;
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeAll
    static void startRedis() {
        redis = RedisServerProcess.start(RedisServerProcess.Persistence.AOF);
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @org.junit.jupiter.api.AfterEach
    void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    private RedisCanonicalInvocationStore redisStore() {
        RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(redis.endpoint().uri(),
                RedisStoreOptions.custom().keyPrefix("export-" + UUID.randomUUID().toString().substring(0, 8))
                        .outbox(RedisStoreOptions.Outbox.KEYS).build());
        opened.add(store::close);
        return store;
    }

    private HikariDataSource database(AuditDatabases kind, SqlServer server) {
        HikariDataSource pool = kind.migratedAndEmpty(server);
        opened.add(pool);
        return pool;
    }

    private static RecordExporter.Builder exporter(CanonicalInvocationStore store, AuditSink sink) {
        return RecordExporter.builder(store, sink).rawResponses(RawResponsePolicy.KEEP).batchSize(200)
                .claimIdle(Duration.ofMillis(500)).pollInterval(Duration.ofMillis(20))
                .backoff(Duration.ofMillis(50), Duration.ofMillis(500));
    }

    /** Exports until the exporter measures an empty backlog; entries a killed exporter held become claimable after claimIdle. */
    private static void drain(RecordExporter exporter) {
        await("drained").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50)).until(() ->
                exporter.exportOnce().isRight() && exporter.stats().backlog().exists(backlog -> backlog.entries() == 0));
    }

    /** Every final record has exactly one row, equal to the stored record; no refused call has one. */
    private static Report verify(String scenario, AuditDatabases kind, ExportWorkload workload, JdbcAudit audit,
            javax.sql.DataSource database, CanonicalInvocationStore store) {
        long rows = AuditDatabases.count(database, "SELECT COUNT(*) FROM toolboundary_record");
        long distinct = AuditDatabases.count(database,
                "SELECT COUNT(*) FROM (SELECT DISTINCT run_id, tool_call_id FROM toolboundary_record) k");
        int missing = 0;
        int unequal = 0;
        for (InvocationKey key : workload.finals) {
            Option<AuditedRecord> row = audit.find(key.runId(), key.toolCallId()).get();
            if (row.isEmpty()) {
                missing++;
            } else if (!row.get().record().equals(workload.stored(key))) {
                unequal++;
            }
        }
        long refusedRows = workload.refused.stream()
                .filter(key -> audit.find(key.runId(), key.toolCallId()).get().isDefined()).count();
        OutboxBacklog backlog = store.outbox().get().backlog(Duration.ofSeconds(5)).get();
        Report report = new Report(scenario, kind, workload.finals.size() + workload.refused.size() + workload.duplicates,
                workload.finals.size(), rows, rows - distinct, missing, unequal, refusedRows, backlog.lost(),
                backlog.lag(Instant.now()));
        System.out.println(report);
        assertThat(report.missing()).as("records missing").isZero();
        assertThat(report.writtenTwice()).as("records written twice").isZero();
        assertThat(rows).as("rows").isEqualTo(workload.finals.size());
        assertThat(report.unequal()).as("rows unlike their records").isZero();
        assertThat(report.refusedRows()).as("rows of refused calls").isZero();
        assertThat(backlog.entries()).as("entries left").isZero();
        return report;
    }

    record Report(String scenario, AuditDatabases kind, int calls, int finals, long rows, long writtenTwice,
            int missing, int unequal, long refusedRows, long lost, Duration lag) {
        @Override
        public String toString() {
            return "RELIABILITY export | " + scenario + " | " + kind + " | calls " + calls + " | final records " + finals
                    + " | rows " + rows + " | missing " + missing + " | written twice " + writtenTwice
                    + " | refused calls with a row " + refusedRows + " | lost " + lost + " | lag after " + lag.toMillis() + " ms";
        }
    }

    @ParameterizedTest
    @EnumSource(AuditDatabases.class)
    void tenThousandCallsOnRedisGiveOneEqualRowPerFinalRecordAndNoneForARefusedCall(AuditDatabases kind) {
        CanonicalInvocationStore store = redisStore();
        HikariDataSource database = database(kind, kind.shared());
        JdbcAudit audit = JdbcAudit.of(database);
        ExportWorkload workload = new ExportWorkload(store, Clock.systemUTC());

        try (RecordExporter exporter = exporter(store, audit).build().start()) {
            for (int run = 0; run < CALLS / 500; run++) {
                workload.play("e2e-" + run, 500);
            }
            waitForEmptyBacklog(store);
        }
        verify("10k calls, Redis", kind, workload, audit, database, store);
    }

    @ParameterizedTest
    @EnumSource(AuditDatabases.class)
    void tenThousandCallsInMemoryGiveOneEqualRowPerFinalRecord(AuditDatabases kind) {
        InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().outbox(CALLS).build();
        HikariDataSource database = database(kind, kind.shared());
        JdbcAudit audit = JdbcAudit.of(database);
        ExportWorkload workload = new ExportWorkload(store, Clock.systemUTC());
        for (int run = 0; run < CALLS / 500; run++) {
            workload.play("mem-" + run, 500);
        }

        drain(exporter(store, audit).build());

        verify("10k calls, in memory", kind, workload, audit, database, store);
    }

    /** Where an exporter dies: it read its entries, it wrote them, or it was about to acknowledge them. */
    enum Death { AFTER_READ, AFTER_WRITE, BEFORE_ACKNOWLEDGEMENT }

    @ParameterizedTest
    @EnumSource(AuditDatabases.class)
    void anExporterKilledAtEachPointIsReplacedWithNothingMissingAndNothingWrittenTwice(AuditDatabases kind) {
        HikariDataSource database = database(kind, kind.shared());
        JdbcAudit audit = JdbcAudit.of(database);
        for (Death death : Death.values()) {
            AuditDatabases.execute(database, "DELETE FROM toolboundary_record");
            RedisCanonicalInvocationStore redisStore = redisStore();
            ExportWorkload workload = new ExportWorkload(redisStore, Clock.systemUTC());
            workload.play("killed-" + death, 300);

            AtomicBoolean dying = new AtomicBoolean(true);
            AuditSink sink = death == Death.BEFORE_ACKNOWLEDGEMENT ? audit : records -> {
                if (dying.get() && death == Death.AFTER_READ) {
                    throw new Killed();
                }
                Either<AuditFailure, Integer> written = audit.write(records);
                if (dying.get()) {
                    throw new Killed();
                }
                return written;
            };
            CanonicalInvocationStore store = death == Death.BEFORE_ACKNOWLEDGEMENT
                    ? new OutboxWrapper(redisStore, outbox -> new DyingOutbox(outbox, dying)) : redisStore;
            RecordExporter first = exporter(store, sink).consumer("first").build();
            assertThatThrownBy(first::exportOnce).isInstanceOf(Killed.class);
            dying.set(false);

            drain(exporter(redisStore, audit).consumer("successor").build());

            verify("exporter killed " + death.name().toLowerCase().replace('_', ' '), kind, workload, audit, database,
                    redisStore);
        }
    }

    @ParameterizedTest
    @EnumSource(AuditDatabases.class)
    void twoExportersRacingWriteEachRecordOnce(AuditDatabases kind) throws Exception {
        RedisCanonicalInvocationStore store = redisStore();
        HikariDataSource database = database(kind, kind.shared());
        JdbcAudit audit = JdbcAudit.of(database);
        ExportWorkload workload = new ExportWorkload(store, Clock.systemUTC());

        try (RecordExporter one = exporter(store, audit).consumer("one").build().start();
                RecordExporter two = exporter(store, audit).consumer("two").build().start()) {
            for (int run = 0; run < 6; run++) {
                workload.play("race-" + run, 500);
            }
            waitForEmptyBacklog(store);
            assertThat(one.stats().exported()).isPositive();
            assertThat(two.stats().exported()).isPositive();
        }
        verify("two exporters racing", kind, workload, audit, database, store);
    }

    @ParameterizedTest
    @EnumSource(AuditDatabases.class)
    void aDatabaseStoppedUnderLoadAndStartedAgainLosesNothing(AuditDatabases kind) throws Exception {
        SqlServer server = kind.startNew();
        opened.add(server);
        RedisCanonicalInvocationStore store = redisStore();
        HikariDataSource database = database(kind, server);
        JdbcAudit audit = JdbcAudit.of(database);
        ExportWorkload workload = new ExportWorkload(store, Clock.systemUTC());

        try (RecordExporter exporter = exporter(store, audit).build().start()) {
            workload.play("outage-before", 500);
            server.stop();
            long during = System.nanoTime();
            int run = 0;
            while (System.nanoTime() - during < OUTAGE.toNanos()) {
                // Calls go on while the database is down: the agent sees nothing of it.
                assertThat(workload.play("outage-" + run++, 100)).allSatisfy(outcome -> assertThat(outcome.isRight()
                        || outcome.getLeft().code() != ErrorCode.STORE_UNAVAILABLE).isTrue());
            }
            assertThat(exporter.stats().failures()).as("rounds failed while the database was down").isPositive();
            assertThat(exporter.stats().lastFailure().get().stage()).isEqualTo(RecordExporter.Stage.DATABASE);
            server.start();
            workload.play("outage-after", 500);
            waitForEmptyBacklog(store);
        }
        verify("database stopped " + OUTAGE.toSeconds() + " s under load", kind, workload, audit, database, store);
    }

    @ParameterizedTest
    @EnumSource(AuditDatabases.class)
    void aRowTheDatabaseRefusesStopsTheExportKeepsItsEntriesAndResumesOnceAccepted(AuditDatabases kind) {
        RedisCanonicalInvocationStore store = redisStore();
        HikariDataSource database = database(kind, kind.shared());
        JdbcAudit audit = JdbcAudit.of(database);
        ExportWorkload workload = new ExportWorkload(store, Clock.systemUTC());
        workload.play("refused", 60);
        AuditDatabases.execute(database, "ALTER TABLE toolboundary_record ADD CONSTRAINT no_bad_projection"
                + " CHECK (tool <> '" + ExportWorkload.BAD_PROJECTION + "')");
        RecordExporter exporter = exporter(store, audit).build();
        Either<RecordExporter.Failure, RecordExporter.Round> refused = exporter.exportOnce();
        Either<RecordExporter.Failure, RecordExporter.Round> again = exporter.exportOnce();
        long rowsWhileRefused = AuditDatabases.count(database, "SELECT COUNT(*) FROM toolboundary_record");
        long keptWhileRefused = store.outbox().get().backlog(Duration.ofSeconds(5)).get().entries();
        AuditDatabases.execute(database, "ALTER TABLE toolboundary_record DROP CONSTRAINT no_bad_projection");

        assertThat(refused.getLeft().stage()).isEqualTo(RecordExporter.Stage.DATABASE);
        assertThat(refused.getLeft().reason()).startsWith("REFUSED").doesNotContain("raw kept");
        assertThat(again.isLeft()).as("still refused, still kept").isTrue();
        assertThat(rowsWhileRefused).as("the refused batch rolled back").isZero();
        assertThat(keptWhileRefused).isEqualTo(workload.finals.size());
        drain(exporter);
        verify("a row refused, then accepted", kind, workload, audit, database, store);
    }

    @ParameterizedTest
    @EnumSource(AuditDatabases.class)
    void redisRestartedWithAofLosesNoEntry(AuditDatabases kind) {
        RedisCanonicalInvocationStore store = redisStore();
        HikariDataSource database = database(kind, kind.shared());
        JdbcAudit audit = JdbcAudit.of(database);
        ExportWorkload workload = new ExportWorkload(store, Clock.systemUTC());
        workload.play("aof-1", 600);
        RecordExporter exporter = exporter(store, audit).batchSize(50).build();
        exporter.exportOnce();
        exporter.exportOnce();

        redis.kill();
        redis.restart();

        workload.play("aof-2", 300);
        drain(exporter);
        verify("Redis killed and restarted with AOF", kind, workload, audit, database, store);
    }

    private static void waitForEmptyBacklog(CanonicalInvocationStore store) {
        await("the outbox drained").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50)).until(() -> {
            Either<StoreFailure, OutboxBacklog> backlog = store.outbox().get().backlog(Duration.ofSeconds(5));
            return backlog.isRight() && backlog.get().entries() == 0;
        });
    }

    /** The exporter's thread ends here, as a killed process would. */
    static final class Killed extends RuntimeException {
        Killed() {
            super("killed", null, false, false);
        }
    }

    /** An outbox whose acknowledgement never leaves the process while {@code dying}. */
    record DyingOutbox(RecordOutbox outbox, AtomicBoolean dying) implements RecordOutbox {
        @Override
        public Either<StoreFailure, List<OutboxEntry>> poll(String consumer, int max, Duration claimIdle, Duration timeout) {
            return outbox.poll(consumer, max, claimIdle, timeout);
        }

        @Override
        public Either<StoreFailure, Integer> acknowledge(List<OutboxEntry> entries, List<OutboxEntry> lost, Duration timeout) {
            if (dying.get()) {
                throw new Killed();
            }
            return outbox.acknowledge(entries, lost, timeout);
        }

        @Override
        public Either<StoreFailure, OutboxBacklog> backlog(Duration timeout) {
            return outbox.backlog(timeout);
        }
    }

    /** A store as it is, its outbox seen through {@code wrap}. */
    static final class OutboxWrapper extends ForwardingStore {
        private final UnaryOperator<RecordOutbox> wrap;

        OutboxWrapper(CanonicalInvocationStore store, UnaryOperator<RecordOutbox> wrap) {
            super(store);
            this.wrap = wrap;
        }

        @Override
        public Option<RecordOutbox> outbox() {
            return super.outbox().map(wrap);
        }
    }
}
