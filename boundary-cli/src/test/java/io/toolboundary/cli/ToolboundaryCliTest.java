package io.toolboundary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
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
import io.toolboundary.testsupport.redis.RedisServerProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The command line end to end against real redis-server processes: each test has a key prefix of its own,
 * so that {@code runs} and {@code doctor} see only what the test left.
 */
class ToolboundaryCliTest {

    private static final String TOOL = "search_logs";

    /** What one run of the command line printed, and its exit code. */
    record Outcome(int code, String out, String err) {
        String all() {
            return out + err;
        }
    }

    static Outcome cli(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Toolboundary.run(args, new PrintWriter(out, true), new PrintWriter(err, true), env,
                Toolboundary.PasswordConsole.none());
        return new Outcome(code, out.toString(), err.toString());
    }

    private final String prefix = "cli" + UUID.randomUUID().toString().substring(0, 8);
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : toClose) {
            closeable.close();
        }
    }

    private RedisCanonicalInvocationStore store(List<String> urls, boolean cluster) {
        RedisStoreOptions options = RedisStoreOptions.custom().keyPrefix(prefix).build();
        RedisCanonicalInvocationStore store = cluster ? RedisCanonicalInvocationStoreFactory.connectCluster(urls, options)
                : RedisCanonicalInvocationStoreFactory.connectStandalone(urls.get(0), options);
        toClose.add(store);
        return store;
    }

    /** The runs a test opened, by run id: each is opened once, as a harness opens a run when it starts. */
    private final Map<String, RunContext> openedRuns = new HashMap<>();

    /** The run {@code runId}, opened in {@code store} the first time a test asks for it. */
    private RunContext run(RedisCanonicalInvocationStore store, String runId) {
        return openedRuns.computeIfAbsent(runId, id -> Fixtures.runContext(id).opened(
                store.openRun(new RunOpening(new RunId(id), RunToken.random(), Duration.ofHours(1)), Duration.ofSeconds(5))
                        .getOrElseThrow(error -> new AssertionError("openRun: " + error))));
    }

    /** Runs one call through a boundary over the store: a READY record. */
    private void callThroughTheBoundary(RedisCanonicalInvocationStore store, String runId, String callId) {
        ToolBoundary boundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .tool(ToolBinding.readOnly(TOOL, FakeTools.returning("raw rows: 3 errors at 10:02"),
                        FakeProjectors.evidenceFound("3 timeouts")))
                .build();
        RunContext run = run(store, runId);
        assertThat(boundary.invoke(run, Fixtures.envelope(run).withToolName(TOOL).withToolCallId(callId).build()).isRight())
                .isTrue();
    }

    /** Runs one call whose tool throws {@code failure} through a boundary over the store: an ERROR record. */
    private void callFailingThroughTheBoundary(RedisCanonicalInvocationStore store, String runId, String callId,
            Exception failure) {
        ToolBoundary boundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .tool(ToolBinding.readOnly(TOOL, FakeTools.throwing(failure), FakeProjectors.evidenceFound("unused")))
                .build();
        RunContext run = run(store, runId);
        assertThat(boundary.invoke(run, Fixtures.envelope(run).withToolName(TOOL).withToolCallId(callId).build()).isLeft())
                .isTrue();
    }

    /** Begins a record, in its opened run, as a process would that then stopped: PROJECTING, with a lease of 5 minutes. */
    private InvocationKey leftProjecting(RedisCanonicalInvocationStore store, String runId, String callId) {
        InvocationKey key = InvocationKey.of(new RunId(runId), new ToolCallId(callId));
        RunToken runToken = run(store, runId).runToken().get();
        CanonicalRecord.Projecting record = new CanonicalRecord.Projecting(key, new ToolName(TOOL), "{\"q\":1}",
                "sha256:0", Instant.now());
        assertThat(store.begin(new InvocationStart(record, AttemptToken.random(), runToken, Duration.ofMinutes(10),
                Duration.ofMinutes(5), 100, 100, Long.MAX_VALUE), Duration.ofSeconds(5)).isRight()).isTrue();
        return key;
    }

    /**
     * Puts a record's lease in the past: the fourth value of its head ({@code leaseLeft}, in
     * {@code 5|<status>|<token>|<leaseLeft>|...}, the remaining TTL at which the lease ends) becomes larger
     * than any TTL, so that the record's PTTL is already below it. The TTL is not touched ({@code KEEPTTL}).
     */
    private static void passLease(java.util.function.Function<String[], Object> redis, String key) {
        String[] head = ((String) redis.apply(new String[] {"GET", key})).split("\\|", 5);
        assertThat(head[0]).isEqualTo("5");
        head[3] = "999999999999999";
        assertThat(redis.apply(new String[] {"SET", key, String.join("|", head), "XX", "KEEPTTL"})).isEqualTo("OK");
    }

    private String recordKey(String runId, String callId) {
        return prefix + ":{" + runId + "}:call:" + callId;
    }

    @Nested
    class Standalone {

        private final RedisDeployment redis = RedisServerFixture.standalone();
        private final String url = redis.nodes().get(0).uri();
        private final RedisCanonicalInvocationStore store = store(List.of(url), false);
        private final String run = "run-" + UUID.randomUUID();

        private Outcome cli(String... args) {
            List<String> all = new ArrayList<>(List.of(args));
            all.addAll(List.of("--redis", url, "--prefix", prefix));
            return ToolboundaryCliTest.cli(Map.of(), all.toArray(String[]::new));
        }

        @Test
        void recordsListsWhatABoundaryLeft() {
            callThroughTheBoundary(store, run, "call_ready");
            leftProjecting(store, run, "call_stuck");

            Outcome records = cli("records", run);

            assertThat(records.code()).as(records.all()).isZero();
            assertThat(records.out()).contains("ID", "TOOL", "STATUS", "LEASE", "MEMORY");
            assertThat(records.out().lines().filter(line -> line.startsWith("call_ready")).findFirst().orElseThrow())
                    .contains(TOOL, "READY", "EVIDENCE_FOUND");
            assertThat(records.out().lines().filter(line -> line.startsWith("call_stuck")).findFirst().orElseThrow())
                    .contains("PROJECTING", "4m");
            assertThat(records.out()).contains("2 record(s)");
        }

        @Test
        void showPrintsTheWholeRecordRawIncludedAndJsonForMachines() {
            callThroughTheBoundary(store, run, "call_ready");

            Outcome text = cli("show", run, "call_ready");
            Outcome json = cli("show", run, "call_ready", "--json");

            assertThat(text.code()).as(text.all()).isZero();
            assertThat(text.out()).contains("raw rows: 3 errors at 10:02", "3 timeouts", "READY");
            assertThat(json.code()).as(json.all()).isZero();
            assertThat(json.out().strip()).startsWith("{").endsWith("}")
                    .contains("\"rawResponse\":\"raw rows: 3 errors at 10:02\"", "\"status\":\"READY\"", "\"ttlMillis\":");
            assertThat(cli("show", run, "call_missing").code()).isEqualTo(Toolboundary.USAGE);
        }

        @Test
        void showPrintsWhyARecordFailedOnlyWhenItSays() {
            callFailingThroughTheBoundary(store, run, "call_failed",
                    new java.net.SocketTimeoutException("read timed out | after 30000 ms \u00e9"));
            leftProjecting(store, run, "call_stuck");
            passLease(redis::call, recordKey(run, "call_stuck"));
            assertThat(cli("abandon", run, "call_stuck", "--apply").code()).isZero();

            Outcome text = cli("show", run, "call_failed");
            Outcome json = cli("show", run, "call_failed", "--json");
            Outcome without = cli("show", run, "call_stuck");
            Outcome withoutJson = cli("show", run, "call_stuck", "--json");

            assertThat(text.code()).as(text.all()).isZero();
            assertThat(text.out().lines()).contains(
                    String.format("%-16s %s", "failureType:", "java.net.SocketTimeoutException"),
                    String.format("%-16s %s", "failureMessage:", "read timed out | after 30000 ms \u00e9"));
            assertThat(json.out()).contains("\"failureType\":\"java.net.SocketTimeoutException\"",
                    "\"failureMessage\":\"read timed out | after 30000 ms \u00e9\"", "\"errorCode\":\"EXECUTION_FAILED\"");
            assertThat(without.code()).as(without.all()).isZero();
            assertThat(without.out()).contains("EXECUTION_ABANDONED").doesNotContain("failureType", "failureMessage");
            assertThat(withoutJson.out()).contains("EXECUTION_ABANDONED").doesNotContain("failureType", "failureMessage");
        }

        @Test
        void abandonIsADryRunUntilApplyThenEndsTheRecordPastItsLeaseOnly() {
            InvocationKey stuck = leftProjecting(store, run, "call_stuck");
            InvocationKey running = leftProjecting(store, run, "call_running");
            callThroughTheBoundary(store, run, "call_ready");
            // The lease of call_stuck in the past, by the server's clock, as the store's own tests plant it.
            passLease(redis::call, recordKey(run, "call_stuck"));

            Outcome dry = cli("abandon", run);

            assertThat(dry.code()).as(dry.all()).isZero();
            assertThat(dry.out()).contains("would abandon call_stuck", "still leased call_running", "dry run: 1 of 3");
            assertThat(store.find(stuck, Duration.ofSeconds(5)).get().get().status().name()).isEqualTo("PROJECTING");

            Outcome applied = cli("abandon", run, "--apply");

            assertThat(applied.code()).as(applied.all()).isZero();
            assertThat(applied.out()).contains("abandoned call_stuck", "still leased call_running",
                    "looked at 3, abandoned 1, still leased 1, errors 0");
            assertThat(store.find(stuck, Duration.ofSeconds(5)).get().get().errorCode().get()).isEqualTo(ErrorCode.EXECUTION_ABANDONED);
            assertThat(store.find(running, Duration.ofSeconds(5)).get().get().status().name()).isEqualTo("PROJECTING");

            Outcome one = cli("abandon", run, "call_running", "--apply");
            assertThat(one.out()).contains("not abandoned call_running: LEASE_NOT_EXPIRED");
        }

        @Test
        void doctorFindsAKeyWithoutTtlAndARecordPastItsLease() {
            callThroughTheBoundary(store, run, "call_ready");

            Outcome healthy = cli("doctor");
            assertThat(healthy.code()).as(healthy.all()).isZero();
            assertThat(healthy.out()).contains("eviction policy: noeviction", "records: 1", "ok: nothing to fix");

            redis.call("SET", prefix + ":{" + run + "}:stray", "planted by the test");
            leftProjecting(store, run, "call_stuck");
            passLease(redis::call, recordKey(run, "call_stuck"));

            Outcome sick = cli("doctor");

            assertThat(sick.code()).as(sick.all()).isEqualTo(Toolboundary.FINDINGS);
            assertThat(sick.out()).contains("FINDING no TTL: " + prefix + ":{" + run + "}:stray",
                    "FINDING PROJECTING past its lease: " + recordKey(run, "call_stuck"), "2 finding(s)");
        }

        @Test
        void runsListsTheRunsUnderThePrefixAPageAtATime() {
            callThroughTheBoundary(store, run, "call_1");
            callThroughTheBoundary(store, run + "b", "call_1");

            Outcome runs = cli("runs");

            assertThat(runs.code()).as(runs.all()).isZero();
            assertThat(runs.out()).contains(run + " ", run + "b ", "2 run(s)");
            assertThat(runs.out().lines().filter(line -> line.startsWith(run + " ")).findFirst().orElseThrow())
                    .as("one record; one other key, the run's state").matches(".* +1 +1");
            Outcome page = cli("runs", "--limit", "1");
            assertThat(page.code()).as(page.all()).isZero();
            assertThat(cli("runs", "--cursor", "x").code()).isEqualTo(Toolboundary.USAGE);
        }

        @Test
        void usageErrorsExitWith1() {
            assertThat(ToolboundaryCliTest.cli(Map.of()).code()).isEqualTo(Toolboundary.USAGE);
            assertThat(ToolboundaryCliTest.cli(Map.of(), "records").code()).isEqualTo(Toolboundary.USAGE);
            assertThat(cli("records", "run with spaces").code()).isEqualTo(Toolboundary.USAGE);
            assertThat(cli("nonsense").code()).isEqualTo(Toolboundary.USAGE);
        }
    }

    @Test
    void anUnreachableRedisExitsWith2() {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            String url = server.endpoint().uri();
            server.kill();

            Outcome outcome = cli(Map.of(), "records", "run-1", "--redis", url, "--timeout", "PT1S");

            assertThat(outcome.code()).as(outcome.all()).isEqualTo(Toolboundary.UNREACHABLE);
            assertThat(outcome.err()).contains("cannot connect");
        }
    }

    @Test
    void thePasswordComesFromTheEnvironmentAndIsNeverPrinted() {
        String password = "pw-" + UUID.randomUUID();
        try (RedisServerProcess server = RedisServerProcess.start()) {
            RedisEndpoint endpoint = server.endpoint();
            String url = "redis://" + endpoint.hostAndPort();
            server.call("CONFIG", "SET", "requirepass", password);
            RedisCanonicalInvocationStore store = store(List.of("redis://:" + password + "@" + endpoint.hostAndPort()), false);
            String run = "run-" + UUID.randomUUID();
            callThroughTheBoundary(store, run, "call_1");

            List<Outcome> outcomes = List.of(
                    cli(Map.of(Connection.PASSWORD_VARIABLE, password), "records", run, "--redis", url, "--prefix", prefix),
                    cli(Map.of(Connection.PASSWORD_VARIABLE, password), "doctor", "--redis", url, "--prefix", prefix),
                    cli(Map.of(), "records", run, "--redis", "redis://:" + password + "@" + endpoint.hostAndPort(),
                            "--prefix", prefix),
                    cli(Map.of(Connection.PASSWORD_VARIABLE, password + "-wrong"), "records", run, "--redis", url),
                    cli(Map.of(), "records", run, "--redis", url),
                    cli(Map.of(), "records", run, "--redis", url, "--password"));

            assertThat(outcomes.get(0).code()).as(outcomes.get(0).all()).isZero();
            assertThat(outcomes.get(0).out()).contains("call_1", "READY");
            assertThat(outcomes.get(1).code()).as(outcomes.get(1).all()).isZero();
            assertThat(outcomes.get(2).code()).as(outcomes.get(2).all()).isZero();
            assertThat(outcomes.get(3).code()).as(outcomes.get(3).all()).isEqualTo(Toolboundary.UNREACHABLE);
            assertThat(outcomes.get(3).err()).contains("refused the credentials");
            assertThat(outcomes.get(4).code()).as(outcomes.get(4).all()).isEqualTo(Toolboundary.UNREACHABLE);
            assertThat(outcomes.get(5).code()).as("no console to prompt on").isEqualTo(Toolboundary.USAGE);
            for (Outcome outcome : outcomes) {
                assertThat(outcome.all()).doesNotContain(password);
            }
        }
    }

    @Test
    void aClusterIsReadThroughItsSeeds() {
        RedisDeployment cluster = RedisServerFixture.cluster();
        List<String> seeds = cluster.nodes().stream().map(RedisEndpoint::uri).toList();
        RedisCanonicalInvocationStore store = store(seeds, true);
        String run = "run-" + UUID.randomUUID();
        callThroughTheBoundary(store, run, "call_ready");
        leftProjecting(store, run, "call_stuck");
        passLease(cluster::call, recordKey(run, "call_stuck"));

        Outcome records = cli(Map.of(), "records", run, "--redis-cluster", "--redis", seeds.get(0), "--prefix", prefix);
        Outcome runs = cli(Map.of(), "runs", "--redis-cluster", "--redis", seeds.get(0), "--prefix", prefix);
        Outcome abandon = cli(Map.of(), "abandon", run, "--apply", "--redis-cluster", "--redis", seeds.get(0),
                "--prefix", prefix);
        Outcome doctor = cli(Map.of(), "doctor", "--redis-cluster", "--redis", seeds.get(0), "--prefix", prefix);

        assertThat(records.code()).as(records.all()).isZero();
        assertThat(records.out()).contains("call_ready", "call_stuck", "2 record(s)");
        assertThat(runs.out()).contains(run);
        assertThat(abandon.out()).contains("abandoned call_stuck");
        assertThat(doctor.code()).as(doctor.all()).isZero();
        assertThat(doctor.out()).contains("records: 2");
    }
}
