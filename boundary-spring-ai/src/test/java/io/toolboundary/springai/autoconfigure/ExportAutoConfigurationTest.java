package io.toolboundary.springai.autoconfigure;

import static io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfigurationTest.execute;
import static io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfigurationTest.onlyResponse;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.export.AuditSink;
import io.toolboundary.export.AuditedRecord;
import io.toolboundary.export.JdbcAudit;
import io.toolboundary.export.RawResponsePolicy;
import io.toolboundary.export.RecordAudit;
import io.toolboundary.export.RecordExporter;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.toolboundary.testsupport.sql.PostgresServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;

/**
 * {@code toolboundary.export.*} on a real PostgreSQL server from the test support, its table made by
 * {@code boundary-export}'s own Flyway migrations, with the auto-configured in-memory store: a call through
 * the boundary ends up as a row, read back through the context's {@code RecordAudit}.
 */
class ExportAutoConfigurationTest {

    private static final String TOOL = "log-search";
    private static final String UNDERSCORED = "search_logs";
    private static final String COLON = "svc:logs";
    private static final String RAW = "rows: 3 timeouts password=hunter2";

    private static DataSource database;

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ToolBoundaryAutoConfiguration.class))
            .withBean(AccessPolicy.class, AccessPolicy::allowAll)
            .withBean("logs", ToolBinding.class, () -> ToolBinding.readOnly(TOOL, FakeTools.returning(RAW),
                    FakeProjectors.evidenceFound("3 timeouts")))
            .withBean("search", ToolBinding.class, () -> ToolBinding.readOnly(UNDERSCORED, FakeTools.returning(RAW),
                    FakeProjectors.evidenceFound("3 timeouts")))
            .withBean("svc", ToolBinding.class, () -> ToolBinding.readOnly(COLON, FakeTools.returning(RAW),
                    FakeProjectors.evidenceFound("3 timeouts")));

    private final ApplicationContextRunner exporting = runner
            .withBean(DataSource.class, () -> database)
            .withPropertyValues("toolboundary.export.enabled=true", "toolboundary.export.poll-interval=20ms");

    @BeforeAll
    static void migrate() {
        database = migratedPostgres();
    }

    /** {@return the JVM's shared PostgreSQL server as a data source, its table made by boundary-export's migrations} */
    static synchronized DataSource migratedPostgres() {
        PostgresServer server = PostgresServer.shared();
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setUrl(server.jdbcUrl());
        source.setUser(server.user());
        source.setPassword(server.password());
        Flyway.configure().dataSource(source).locations("classpath:io/toolboundary/export/db/postgresql").load().migrate();
        return source;
    }

    @Test
    void offByDefaultTheStoreHasNoOutboxAndNothingIsExported() {
        runner.withBean(DataSource.class, () -> database).run(context -> {
            assertThat(context).hasNotFailed()
                    .doesNotHaveBean(RecordExporter.class)
                    .doesNotHaveBean(AuditSink.class)
                    .doesNotHaveBean(RecordExporterLifecycle.class);
            assertThat(context.getBean(CanonicalInvocationStore.class).outbox().isEmpty()).isTrue();
        });
    }

    @Test
    void aCallThroughTheBoundaryEndsUpAsARowReadBackThroughTheContextsRecordAudit() {
        RunContext run = Fixtures.anyRunContext();
        exporting.withPropertyValues("toolboundary.export.raw-responses-by-tool." + UNDERSCORED + "=keep")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(JdbcAudit.class).hasSingleBean(RecordExporter.class);
                    assertThat(context.getBean(AuditSink.class)).isSameAs(context.getBean(RecordAudit.class));
                    assertThat(context.getBean(CanonicalInvocationStore.class).outbox().isDefined()).isTrue();
                    assertThat(context.getBean(RecordExporterLifecycle.class).isRunning()).isTrue();

                    assertThat(onlyResponse(execute(context, run, "call_masked", "{}"))).isEqualTo("EVIDENCE_FOUND\n3 timeouts");
                    assertThat(onlyResponse(execute(context, run, "call_kept", "{}", UNDERSCORED)))
                            .isEqualTo("EVIDENCE_FOUND\n3 timeouts");

                    RecordAudit audit = context.getBean(RecordAudit.class);
                    await(() -> audit.records(run.runId()).get().size() == 2);
                    List<AuditedRecord> rows = audit.records(run.runId()).get();
                    assertThat(rows).extracting(row -> row.record().key().toolCallId().value())
                            .containsExactly("call_kept", "call_masked");
                    assertThat(rows.get(0).rawPolicy()).isEqualTo(RawResponsePolicy.KEEP);
                    assertThat(rows.get(0).record().rawResponse().get()).isEqualTo(RAW);
                    assertThat(rows.get(1).rawPolicy()).as("masked by default").isEqualTo(RawResponsePolicy.MASK);
                    assertThat(rows.get(1).record().rawResponse().get()).contains("rows: 3 timeouts").doesNotContain("hunter2");
                    assertThat(context.getBean(RecordExporter.class).stats().exported()).isEqualTo(2);
                });
    }

    @Test
    void theExporterRunsFromContextStartToCloseAndDrainsWhatIsDueWhenItStops() {
        RunContext run = Fixtures.anyRunContext();
        RecordExporterLifecycle[] lifecycle = new RecordExporterLifecycle[1];
        exporting.withPropertyValues("toolboundary.export.poll-interval=1h").run(context -> {
            RecordExporter exporter = context.getBean(RecordExporter.class);
            await(() -> exporter.stats().backlog().isDefined()); // its first round ran: the next is an hour away
            execute(context, run, "call_last", "{}");
            assertThat(context.getBean(RecordAudit.class).find(run.runId(), new ToolCallId("call_last")).get().isEmpty())
                    .isTrue();
            lifecycle[0] = context.getBean(RecordExporterLifecycle.class);
            assertThat(lifecycle[0].isRunning()).isTrue();
        });

        assertThat(lifecycle[0].isRunning()).isFalse();
        assertThat(JdbcAudit.of(database).find(run.runId(), new ToolCallId("call_last")).get().isDefined())
                .as("exported at stop").isTrue();
    }

    @Test
    void anOutboxOfRecordsReachesARecordPastItsTtlWhereAnOutboxOfKeysCountsItLost() {
        RunContext carried = Fixtures.anyRunContext();
        RunContext keyed = Fixtures.anyRunContext();

        long lost = exportPastTtl(carried, "records");
        long lostByKeys = exportPastTtl(keyed, "keys");

        assertThat(lost).isZero();
        assertThat(JdbcAudit.of(database).records(carried.runId()).get()).hasSize(1);
        assertThat(lostByKeys).isEqualTo(1);
        assertThat(JdbcAudit.of(database).records(keyed.runId()).get()).isEmpty();
    }

    /** One call, its record expired before the exporter's next round, which is the one at stop; records lost. */
    private long exportPastTtl(RunContext run, String outbox) {
        MutableClock clock = MutableClock.at(Instant.now());
        long[] lost = new long[1];
        exporting.withBean(Clock.class, () -> clock)
                .withPropertyValues("toolboundary.export.poll-interval=1h", "toolboundary.export.outbox=" + outbox)
                .run(context -> {
                    RecordExporter exporter = context.getBean(RecordExporter.class);
                    await(() -> exporter.stats().backlog().isDefined());
                    execute(context, run, "call_old", "{}");
                    clock.advance(Duration.ofHours(25));
                    context.close();
                    lost[0] = exporter.stats().lost();
                });
        return lost[0];
    }

    @Test
    void theInMemoryOutboxHoldsAtMostItsCapacityAndCountsWhatItDropped() {
        RunContext run = Fixtures.anyRunContext();
        exporting.withPropertyValues("toolboundary.export.poll-interval=1h", "toolboundary.export.outbox-capacity=1")
                .run(context -> {
                    RecordExporter exporter = context.getBean(RecordExporter.class);
                    await(() -> exporter.stats().backlog().isDefined());
                    execute(context, run, "call_1", "{}");
                    execute(context, run, "call_2", "{}");
                    context.close();
                    assertThat(exporter.stats().backlog().get().lost()).isEqualTo(1);
                    assertThat(JdbcAudit.of(database).records(run.runId()).get())
                            .extracting(row -> row.record().key().toolCallId().value()).containsExactly("call_2");
                });
    }

    @Test
    void refusesToStartWithoutADataSource() {
        runner.withPropertyValues("toolboundary.export.enabled=true").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new ToolBoundaryFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("toolboundary.export.enabled=true",
                    "no single DataSource bean");
            assertThat(analysis.getAction()).contains("Add a DataSource", "toolboundary.export.enabled=false");
        });
    }

    @Test
    void refusesToStartWithAStoreOfTheApplicationsOwnThatHasNoOutbox() {
        exporting.withBean(CanonicalInvocationStore.class, InMemoryCanonicalInvocationStore::create).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new ToolBoundaryFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("built with export off", "outbox() is none");
            assertThat(analysis.getAction()).contains("InMemoryCanonicalInvocationStore.custom().outbox(100_000)",
                    "RedisStoreOptions.Outbox.KEYS");
        });
        exporting.withBean(CanonicalInvocationStore.class,
                        () -> InMemoryCanonicalInvocationStore.custom().outbox(10).build())
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(RecordExporter.class));
    }

    @Test
    void refusesToStartWhenBoundaryExportIsNotOnTheClassPath() {
        runner.withClassLoader(new FilteredClassLoader(RecordExporter.class))
                .withPropertyValues("toolboundary.export.enabled=true")
                .run(context -> {
                    assertThat(context).hasFailed().getFailure().rootCause()
                            .isInstanceOf(ToolBoundaryStartupException.class)
                            .hasMessageContaining("io.toolboundary:boundary-export is not on the class path");
                });
        runner.withClassLoader(new FilteredClassLoader(RecordExporter.class))
                .run(context -> assertThat(context).as("off by default, nothing is needed").hasNotFailed());
    }

    @Test
    void refusesInvalidValuesNamingEachPropertyAndItsRange() {
        exporting.withPropertyValues("toolboundary.export.batch-size=0", "toolboundary.export.claim-idle=0s",
                        "toolboundary.export.poll-interval=-5s", "toolboundary.export.raw-responses=hide",
                        "toolboundary.export.raw-responses-by-tool.[log-search]=blur", "toolboundary.export.outbox=rows",
                        "toolboundary.export.outbox-capacity=0", "toolboundary.export.consumer=two words")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().message().contains(
                            "export.batch-size", "must be 1 to 10000",
                            "export.claim-idle", "export.poll-interval", "must be at least 1ms",
                            "export.raw-responses'", "must be keep, mask or omit",
                            "export.raw-responses-by-tool", "of tool 'log-search' must be keep, mask or omit",
                            "export.outbox'", "must be keys or records",
                            "export.outbox-capacity", "must be at least 1 entry",
                            "export.consumer", "must be 1 to 64 characters");
                });
        exporting.withPropertyValues("toolboundary.export.batch-size=10001")
                .run(context -> assertThat(context).hasFailed());
        exporting.withPropertyValues("toolboundary.export.raw-responses=OMIT", "toolboundary.export.outbox=Records")
                .run(context -> assertThat(context).as("any case").hasNotFailed());
    }

    @Test
    void refusesAToolPolicyForAToolTheBoundaryDoesNotRegisterNamingTheBracketsItNeeds() {
        exporting.withInitializer(policy("toolboundary.export.raw-responses-by-tool." + COLON))
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new ToolBoundaryFailureAnalyzer().analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("names the tool 'svclogs'", COLON);
                    assertThat(analysis.getAction()).contains("raw-responses-by-tool.[svc\\:logs]=keep");
                });
        RunContext run = Fixtures.anyRunContext();
        exporting.withInitializer(policy("toolboundary.export.raw-responses-by-tool.[" + COLON + "]"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    execute(context, run, "call_svc", "{}", COLON);
                    RecordAudit audit = context.getBean(RecordAudit.class);
                    await(() -> audit.records(run.runId()).get().size() == 1);
                    assertThat(audit.records(run.runId()).get().get(0).rawPolicy()).isEqualTo(RawResponsePolicy.KEEP);
                });
    }

    /** A property as a .properties file or YAML leaves it (TestPropertyValues would split the key at its ':'). */
    private static org.springframework.context.ApplicationContextInitializer<
            org.springframework.context.ConfigurableApplicationContext> policy(String name) {
        return context -> context.getEnvironment().getPropertySources().addFirst(
                new MapPropertySource("policy", Map.of(name, "keep")));
    }

    static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached in 20 s");
            }
            Thread.sleep(20);
        }
    }
}
