package io.toolboundary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.toolboundary.testsupport.sql.MariaDbServer;
import io.toolboundary.testsupport.sql.PostgresServer;
import io.toolboundary.testsupport.sql.SqlServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code export}, {@code audit} and {@code doctor}'s outbox end to end: a real {@code redis-server} whose store
 * has its outbox on (as the application's would), and a real MariaDB and PostgreSQL from the test support,
 * migrated with {@code boundary-export}'s own Flyway migrations. Each test has a key prefix and run ids of its
 * own; the database password reaches the command line only through {@code TOOLBOUNDARY_JDBC_PASSWORD} or the
 * prompt, and no output may hold it.
 */
class ExportCliTest {

    private static final String TOOL = "search_logs";
    private static final String OTHER_TOOL = "fetch_page";
    private static final String SECRET_RAW = "raw rows: 3 errors at 10:02 password=hunter2";

    /** The databases export is tested on, each the JVM's shared server of the test support. */
    enum Database {
        MARIADB(MariaDbServer::shared, "mysql"),
        POSTGRESQL(PostgresServer::shared, "postgresql");

        private final Supplier<SqlServer> server;
        private final String migrations;

        Database(Supplier<? extends SqlServer> server, String migrations) {
            this.server = server::get;
            this.migrations = migrations;
        }

        /** {@return the shared server, its table migrated} */
        SqlServer migrated() {
            return migrate(server.get(), migrations);
        }
    }

    static SqlServer migrate(SqlServer server, String migrations) {
        Flyway.configure().dataSource(server.jdbcUrl(), server.user(), server.password())
                .locations("classpath:io/toolboundary/export/db/" + migrations).load().migrate();
        return server;
    }

    private final RedisDeployment redis = RedisServerFixture.standalone();
    private final String url = redis.nodes().get(0).uri();
    private final String prefix = "exp" + UUID.randomUUID().toString().substring(0, 8);
    private final String run = "run-" + UUID.randomUUID();
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final Map<String, RunContext> openedRuns = new HashMap<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : toClose) {
            closeable.close();
        }
    }

    /** The application's store: export on, entries holding keys. */
    private RedisCanonicalInvocationStore exportingStore() {
        RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.connectStandalone(url,
                RedisStoreOptions.custom().keyPrefix(prefix).outbox(RedisStoreOptions.Outbox.KEYS).build());
        toClose.add(store);
        return store;
    }

    private RunContext run(RedisCanonicalInvocationStore store, String runId) {
        return openedRuns.computeIfAbsent(runId, id -> Fixtures.runContext(id).opened(
                store.openRun(new RunOpening(new RunId(id), RunToken.random(), Duration.ofHours(1)), Duration.ofSeconds(5))
                        .getOrElseThrow(error -> new AssertionError("openRun: " + error))));
    }

    private static ToolBoundary boundary(RedisCanonicalInvocationStore store, ToolBoundaryConfig config) {
        return ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll()).config(config)
                .tool(ToolBinding.readOnly(TOOL, FakeTools.returning(SECRET_RAW), FakeProjectors.evidenceFound("3 timeouts")))
                .tool(ToolBinding.readOnly(OTHER_TOOL, FakeTools.returning("<html>page</html>"),
                        FakeProjectors.noEvidence("nothing", "the page")))
                .build();
    }

    private void call(ToolBoundary boundary, RedisCanonicalInvocationStore store, String runId, String tool, String callId) {
        RunContext context = run(store, runId);
        boundary.invoke(context, Fixtures.envelope(context).withToolName(tool).withToolCallId(callId).build());
    }

    private InvocationKey leftProjecting(RedisCanonicalInvocationStore store, String runId, String callId) {
        InvocationKey key = InvocationKey.of(new RunId(runId), new ToolCallId(callId));
        CanonicalRecord.Projecting record = new CanonicalRecord.Projecting(key, new ToolName(TOOL), "{\"q\":1}",
                "sha256:0", Instant.now());
        assertThat(store.begin(new InvocationStart(record, AttemptToken.random(), run(store, runId).runToken().get(),
                Duration.ofMinutes(10), Duration.ofMinutes(5), 100, 100, Long.MAX_VALUE), Duration.ofSeconds(5)).isRight())
                .isTrue();
        return key;
    }

    private String recordKey(String runId, String callId) {
        return prefix + ":{" + runId + "}:call:" + callId;
    }

    private ToolboundaryCliTest.Outcome cli(SqlServer database, String... args) {
        return cli(database, Map.of(Jdbc.PASSWORD_VARIABLE, database.password()), Toolboundary.PasswordConsole.none(), args);
    }

    /** Runs the command line with the Redis and database options of this test after {@code args}. */
    private ToolboundaryCliTest.Outcome cli(SqlServer database, Map<String, String> env,
            Toolboundary.PasswordConsole console, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (!"audit".equals(args[0])) {
            all.addAll(List.of("--redis", url, "--prefix", prefix));
        }
        if (!"doctor".equals(args[0])) {
            all.addAll(List.of("--jdbc-url", database.jdbcUrl(), "--jdbc-user", database.user()));
        }
        return raw(env, console, all.toArray(String[]::new));
    }

    static ToolboundaryCliTest.Outcome raw(Map<String, String> env, Toolboundary.PasswordConsole console, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Toolboundary.run(args, new PrintWriter(out, true), new PrintWriter(err, true), env, console);
        return new ToolboundaryCliTest.Outcome(code, out.toString(), err.toString());
    }

    private static DataSource dataSource(SqlServer server) {
        return new Jdbc.DriverManagerDataSource(server.jdbcUrl(), server.user(), server.password(), 5);
    }

    private static long rows(SqlServer server, String runId) {
        try (java.sql.Connection connection = dataSource(server).getConnection();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(
                        "SELECT COUNT(*) FROM toolboundary_record WHERE run_id = '" + runId + "'")) {
            result.next();
            return result.getLong(1);
        } catch (SQLException failure) {
            throw new IllegalStateException(failure);
        }
    }

    private static String line(String text, String start) {
        return text.lines().filter(each -> each.startsWith(start)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting with " + start + " in\n" + text));
    }

    @ParameterizedTest
    @EnumSource(Database.class)
    void exportOnceWritesTheFinalRecordsAuditPrintsThemAndDoctorSeesTheBacklogGo(Database which) {
        SqlServer database = which.migrated();
        RedisCanonicalInvocationStore store = exportingStore();
        ToolBoundary boundary = boundary(store, ToolBoundaryConfig.ofDefaults());
        call(boundary, store, run, TOOL, "call_ready");
        call(boundary, store, run, OTHER_TOOL, "call_page");
        leftProjecting(store, run, "call_stuck");
        String before = (String) redis.call("GET", recordKey(run, "call_ready"));

        ToolboundaryCliTest.Outcome doctorBefore = cli(database, "doctor");

        assertThat(doctorBefore.code()).as(doctorBefore.all()).as("the outbox's key has no TTL by design").isZero();
        assertThat(doctorBefore.out()).contains("outbox: 2 entries not exported, lag ", "0 record(s) lost before export",
                "an exporter may be down for the record TTL").doesNotContain("FINDING");

        ToolboundaryCliTest.Outcome export = cli(database, "export", "--once", "--raw-tool", OTHER_TOOL + "=omit");

        assertThat(export.code()).as(export.all()).isZero();
        assertThat(export.out().strip()).isEqualTo("exported 2, lost 0, backlog left 0");
        assertThat(rows(database, run)).isEqualTo(2);
        assertThat(redis.call("GET", recordKey(run, "call_ready"))).as("export changes no record").isEqualTo(before);
        assertThat(redis.callLong("PTTL", recordKey(run, "call_ready"))).isPositive();

        ToolboundaryCliTest.Outcome audit = cli(database, "audit", run);
        ToolboundaryCliTest.Outcome json = cli(database, "audit", run, "--json");
        ToolboundaryCliTest.Outcome doctorAfter = cli(database, "doctor");
        ToolboundaryCliTest.Outcome again = cli(database, "export", "--once");

        assertThat(audit.code()).as(audit.all()).isZero();
        assertThat(audit.out()).contains("ID", "TOOL", "STATUS", "EVIDENCE", "RAW-POLICY", "2 record(s)")
                .doesNotContain("call_stuck");
        assertThat(line(audit.out(), "call_ready")).contains(TOOL, "READY", "EVIDENCE_FOUND", "mask");
        assertThat(line(audit.out(), "call_page")).contains(OTHER_TOOL, "READY", "NO_EVIDENCE", "omit");
        assertThat(json.code()).as(json.all()).isZero();
        assertThat(json.out().lines()).hasSize(2);
        assertThat(line(json.out(), "{\"runId\":\"" + run + "\",\"toolCallId\":\"call_ready\""))
                .contains("\"rawPolicy\":\"mask\"", "\"status\":\"READY\"", "raw rows: 3 errors at 10:02")
                .doesNotContain("hunter2");
        assertThat(doctorAfter.out()).contains("outbox: 0 entries not exported, lag 0ms");
        assertThat(doctorAfter.code()).as(doctorAfter.all()).isZero();
        assertThat(again.out().strip()).isEqualTo("exported 0, lost 0, backlog left 0");
        assertThat(rows(database, run)).isEqualTo(2);
        for (ToolboundaryCliTest.Outcome outcome : List.of(doctorBefore, export, audit, json, doctorAfter, again)) {
            assertThat(outcome.all()).doesNotContain(database.password());
        }
    }

    @Test
    void aRecordWhoseTtlEndedBeforeExportIsCountedLostAndDoctorSaysSo() {
        SqlServer database = Database.POSTGRESQL.migrated();
        RedisCanonicalInvocationStore store = exportingStore();
        call(boundary(store, ToolBoundaryConfig.custom().recordTtl(Duration.ofMillis(300)).build()), store, run, TOOL,
                "call_short");
        InvocationKey key = InvocationKey.of(new RunId(run), new ToolCallId("call_short"));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> store.find(key, Duration.ofSeconds(5)).get().isEmpty());

        ToolboundaryCliTest.Outcome export = cli(database, "export", "--once");
        ToolboundaryCliTest.Outcome doctor = cli(database, "doctor");

        assertThat(export.out().strip()).as(export.all()).isEqualTo("exported 0, lost 1, backlog left 0");
        assertThat(rows(database, run)).isZero();
        assertThat(doctor.out()).contains("outbox: 0 entries not exported", "1 record(s) lost before export");
        assertThat(doctor.code()).as("the lost tally has no TTL by design: " + doctor.all()).isZero();
    }

    @Test
    void aRecordTheCliAbandonsReachesTheOutboxWhenExportIsOn() {
        SqlServer database = Database.MARIADB.migrated();
        RedisCanonicalInvocationStore store = exportingStore();
        call(boundary(store, ToolBoundaryConfig.ofDefaults()), store, run, TOOL, "call_ready");
        leftProjecting(store, run, "call_stuck");
        String key = recordKey(run, "call_stuck");
        String[] head = ((String) redis.call("GET", key)).split("\\|", 5);
        head[3] = "999999999999999";
        redis.call("SET", key, String.join("|", head), "XX", "KEEPTTL");

        ToolboundaryCliTest.Outcome abandon = ToolboundaryCliTest.cli(Map.of(), "abandon", run, "--apply",
                "--redis", url, "--prefix", prefix);
        ToolboundaryCliTest.Outcome export = cli(database, "export", "--once");
        ToolboundaryCliTest.Outcome audit = cli(database, "audit", run);

        assertThat(abandon.out()).as(abandon.all()).contains("abandoned call_stuck");
        assertThat(export.out().strip()).as(export.all()).isEqualTo("exported 2, lost 0, backlog left 0");
        assertThat(line(audit.out(), "call_stuck")).contains("ERROR", "EXECUTION_ABANDONED");
    }

    @Test
    void thePasswordMayBeTypedAndAWrongOneIsRefusedWithoutBeingPrinted() {
        SqlServer database = Database.POSTGRESQL.migrated();
        RedisCanonicalInvocationStore store = exportingStore();
        call(boundary(store, ToolBoundaryConfig.ofDefaults()), store, run, TOOL, "call_ready");
        List<String> prompts = new ArrayList<>();
        Toolboundary.PasswordConsole console = prompt -> {
            prompts.add(prompt);
            return Optional.of(database.password().toCharArray());
        };
        String wrong = "wrong-" + UUID.randomUUID();

        ToolboundaryCliTest.Outcome typed = cli(database, Map.of(), console, "export", "--once", "--jdbc-password");
        ToolboundaryCliTest.Outcome refused = cli(database, Map.of(Jdbc.PASSWORD_VARIABLE, wrong),
                Toolboundary.PasswordConsole.none(), "audit", run);
        ToolboundaryCliTest.Outcome noConsole = cli(database, Map.of(), Toolboundary.PasswordConsole.none(), "audit", run,
                "--jdbc-password");

        assertThat(typed.code()).as(typed.all()).isZero();
        assertThat(typed.out()).contains("exported 1");
        assertThat(prompts).containsExactly("Database password: ");
        assertThat(refused.code()).as(refused.all()).isEqualTo(Toolboundary.UNREACHABLE);
        assertThat(refused.err()).contains("cannot be reached", database.jdbcUrl());
        assertThat(noConsole.code()).as(noConsole.all()).isEqualTo(Toolboundary.USAGE);
        assertThat(noConsole.err()).contains("--jdbc-password needs a console");
        for (ToolboundaryCliTest.Outcome outcome : List.of(typed, refused, noConsole)) {
            assertThat(outcome.all()).doesNotContain(database.password()).doesNotContain(wrong);
        }
    }

    @Test
    void aJdbcUrlWithCredentialsIsNeverEchoedAndUsageErrorsExitWith1() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String secret = "s3cret-" + UUID.randomUUID();
        String withCredentials = "jdbc:postgresql://audit:" + secret + "@127.0.0.1:" + closedPort
                + "/db?user=audit&password=" + secret + "&loginTimeout=2";

        ToolboundaryCliTest.Outcome unreachable = raw(Map.of(), Toolboundary.PasswordConsole.none(), "export", "--once",
                "--redis", url, "--prefix", prefix, "--jdbc-url", withCredentials);
        ToolboundaryCliTest.Outcome noDriver = raw(Map.of(), Toolboundary.PasswordConsole.none(), "audit", run,
                "--jdbc-url", "jdbc:nosuchdb://audit:" + secret + "@db/x;password=" + secret);
        ToolboundaryCliTest.Outcome badPolicy = raw(Map.of(), Toolboundary.PasswordConsole.none(), "export", "--once",
                "--redis", url, "--jdbc-url", withCredentials, "--raw", "hide");
        ToolboundaryCliTest.Outcome badBatch = raw(Map.of(), Toolboundary.PasswordConsole.none(), "export", "--once",
                "--redis", url, "--jdbc-url", withCredentials, "--batch", "0");
        ToolboundaryCliTest.Outcome badConsumer = raw(Map.of(), Toolboundary.PasswordConsole.none(), "export", "--once",
                "--redis", url, "--jdbc-url", withCredentials, "--consumer", "two words");
        ToolboundaryCliTest.Outcome noUrl = raw(Map.of(), Toolboundary.PasswordConsole.none(), "export", "--redis", url);

        assertThat(unreachable.code()).as(unreachable.all()).isEqualTo(Toolboundary.UNREACHABLE);
        assertThat(unreachable.err()).contains("cannot be reached",
                "jdbc:postgresql://***@127.0.0.1:" + closedPort + "/db?user=audit&password=***&loginTimeout=2");
        assertThat(noDriver.code()).as(noDriver.all()).isEqualTo(Toolboundary.USAGE);
        assertThat(noDriver.err()).contains("no JDBC driver takes --jdbc-url jdbc:nosuchdb://***@db/x;password=***");
        assertThat(badPolicy.code()).isEqualTo(Toolboundary.USAGE);
        assertThat(badPolicy.err()).contains("--raw must be keep, mask or omit");
        assertThat(badBatch.code()).isEqualTo(Toolboundary.USAGE);
        assertThat(badBatch.err()).contains("--batch must be 1 to 10000");
        assertThat(badConsumer.code()).isEqualTo(Toolboundary.USAGE);
        assertThat(badConsumer.err()).contains("--consumer must be 1 to 64 characters");
        assertThat(noUrl.code()).isEqualTo(Toolboundary.USAGE);
        for (ToolboundaryCliTest.Outcome outcome : List.of(unreachable, noDriver, badPolicy, badBatch, badConsumer, noUrl)) {
            assertThat(outcome.all()).doesNotContain(secret);
        }
    }

    @Test
    void exportRefusesARedisCluster() {
        SqlServer database = Database.POSTGRESQL.migrated();
        RedisDeployment cluster = RedisServerFixture.cluster();
        List<String> seeds = cluster.nodes().stream().map(RedisEndpoint::uri).toList();

        ToolboundaryCliTest.Outcome export = raw(Map.of(Jdbc.PASSWORD_VARIABLE, database.password()),
                Toolboundary.PasswordConsole.none(), "export", "--once", "--redis-cluster", "--redis", seeds.get(0),
                "--jdbc-url", database.jdbcUrl(), "--jdbc-user", database.user());

        assertThat(export.code()).as(export.all()).isEqualTo(Toolboundary.USAGE);
        assertThat(export.err()).contains("Redis Cluster refuses export");
    }

    /**
     * The exporter as operators run it: its own JVM ({@code java -cp … io.toolboundary.cli.Main export}), until
     * SIGTERM. It exports a record made final while it runs; a database that goes down makes it print a line
     * per failed round and keep the record; once the database is back it says so and writes the record; SIGTERM
     * closes the exporter after its round, and the process prints its counts on the way out.
     */
    @Test
    void withoutOnceItRunsUntilSigtermPrintingEachFailureAndClosesCleanly(@TempDir Path directory) throws Exception {
        PostgresServer database = PostgresServer.startNew();
        toClose.add(database);
        migrate(database, "postgresql");
        RedisCanonicalInvocationStore store = exportingStore();
        ToolBoundary boundary = boundary(store, ToolBoundaryConfig.ofDefaults());
        Path out = directory.resolve("out.txt");
        Path err = directory.resolve("err.txt");
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "export",
                "--redis", url, "--prefix", prefix, "--jdbc-url", database.jdbcUrl(), "--jdbc-user", database.user(),
                "--poll-interval", "PT0.1S", "--consumer", "cli-test")
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put(Jdbc.PASSWORD_VARIABLE, database.password());
        Process exporter = builder.start();
        try {
            await(() -> read(out).contains("exporting " + prefix + ":outbox to " + database.jdbcUrl() + " as cli-test"),
                    exporter, out, err);

            call(boundary, store, run, TOOL, "call_1");
            await(() -> rows(database, run) == 1, exporter, out, err);

            database.stop();
            call(boundary, store, run, TOOL, "call_2");
            await(() -> read(err).lines().filter(each -> each.contains("export round failed at database")).count() >= 2,
                    exporter, out, err);
            database.start();
            await(() -> read(out).contains("export resumed"), exporter, out, err);
            await(() -> rows(database, run) == 2, exporter, out, err);

            exporter.destroy();
            assertThat(exporter.waitFor(40, TimeUnit.SECONDS)).as("stopped by SIGTERM").isTrue();
        } finally {
            exporter.destroyForcibly();
        }
        String printed = read(out);
        String failures = read(err);
        assertThat(exporter.exitValue()).as(printed + failures).isEqualTo(128 + 15);
        assertThat(printed.lines().toList().get(printed.lines().toList().size() - 1))
                .isEqualTo("stopped: exported 2, lost 0, backlog left 0");
        assertThat(failures.lines().filter(each -> !each.isBlank()))
                .allMatch(each -> each.startsWith("toolboundary: export round failed at database: UNAVAILABLE")
                        && each.contains("; retrying in "), "every line a failed round");
        assertThat(printed + failures).doesNotContain(database.password());
        assertThat(redis.callLong("XLEN", prefix + ":outbox")).as("every entry acknowledged").isZero();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    private static void await(BooleanSupplier condition, Process process, Path out, Path err) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("not reached (process " + (process.isAlive() ? "running" : "ended "
                        + process.exitValue()) + ")\nout:\n" + read(out) + "\nerr:\n" + read(err));
            }
            Thread.sleep(50);
        }
    }
}
