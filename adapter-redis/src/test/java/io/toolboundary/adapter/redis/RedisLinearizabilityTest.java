package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toolboundary.tck.reliability.history.History;
import io.toolboundary.tck.reliability.history.Linearizability;
import io.toolboundary.tck.reliability.history.Operation;
import io.toolboundary.tck.reliability.history.RecordModel;
import io.toolboundary.tck.reliability.history.RecordModel.Answer;
import io.toolboundary.tck.reliability.history.RecordModel.Call;
import io.toolboundary.testsupport.redis.FaultProxy;
import io.toolboundary.testsupport.redis.OwnCluster;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import io.toolboundary.testsupport.redis.SentinelGroup;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every history of the Redis store, recorded by {@value #PROCESSES} worker processes ({@link LinearizabilityWorker},
 * child JVMs, {@value #THREADS} threads each) on a few keys of one run while faults are injected, is checked
 * against the canonical record's model ({@link RecordModel}) by {@link Linearizability}; and every tool execution,
 * counted on disk by the processes, is at most one per key. Five scenarios: connections cut, replies dropped
 * and delayed (a {@link FaultProxy}); the server frozen ({@code SIGSTOP}); the server killed and restarted with
 * AOF; a Sentinel failover with {@code replicaAcknowledgement}, checked against the weaker promise
 * {@link RecordModel.Promise#ANSWERED_WRITES_SURVIVE_FAILOVER}; a Cluster slot migration. Each prints
 * {@code RELIABILITY linearizability scenario=<name> operations=N processes=P faults=F histories=K anomalies=0
 * executions_per_key_max=1}. {@value #OPERATIONS_PROPERTY} sets the operations per scenario (default
 * {@value #DEFAULT_OPERATIONS}; the {@code soak} profile raises it).
 */
class RedisLinearizabilityTest {

    static final String OPERATIONS_PROPERTY = "toolboundary.linearizability.operations";
    static final int DEFAULT_OPERATIONS = 2_000;
    static final int PROCESSES = 2;
    static final int THREADS = 4;
    /** Keys per window: few, so that the processes meet on each. */
    static final int KEYS = 4;
    static final String PREFIX = "tblin";
    static final Duration STARTUP = Duration.ofSeconds(60);
    static final Duration FINISH = Duration.ofMinutes(10);

    @TempDir
    Path dir;

    @Test
    void connectionsCutRepliesDroppedAndDelayed() {
        try (RedisServerProcess redis = RedisServerProcess.start(); FaultProxy proxy = FaultProxy.start(redis.endpoint());
                Workers workers = Workers.start(dir, "standalone", List.of(proxy.endpoint()), 400, 1_000, "none", "")) {
            Random random = new Random(workers.seed);
            int faults = 0;
            while (workers.running()) {
                pause(300 + random.nextInt(300));
                switch (faults % 4) {
                    case 0 -> proxy.resetAll();
                    case 1 -> {
                        proxy.delayReplies(Duration.ofMillis(100 + random.nextInt(500)));
                        pause(200);
                        proxy.delayReplies(Duration.ZERO);
                    }
                    case 2 -> {
                        proxy.mode(FaultProxy.Mode.DROP_REPLIES);
                        pause(20 + random.nextInt(1_200));
                        proxy.mode(FaultProxy.Mode.PASS);
                    }
                    default -> {
                        proxy.mode(FaultProxy.Mode.BLACK_HOLE);
                        pause(100 + random.nextInt(300));
                        proxy.mode(FaultProxy.Mode.PASS);
                    }
                }
                faults++;
            }
            workers.checkAndReport("connections-cut-and-delayed", RecordModel.linearizable(), faults, List.of());
        }
    }

    @Test
    void serverFrozen() {
        // Freezes of 0.4 to 1.6 s against a 1 s budget per call: some calls end without an answer.
        try (RedisServerProcess redis = RedisServerProcess.start();
                Workers workers = Workers.start(dir, "standalone", List.of(redis.endpoint()), 400, 1_000, "none", "")) {
            Random random = new Random(workers.seed);
            int faults = 0;
            while (workers.running()) {
                pause(300 + random.nextInt(400));
                redis.freeze();
                pause(400 + random.nextInt(1_200));
                redis.thaw();
                faults++;
            }
            workers.checkAndReport("server-frozen", RecordModel.linearizable(), faults, List.of());
        }
    }

    @Test
    void serverKilledAndRestartedWithAof() {
        try (RedisServerProcess redis = RedisServerProcess.start(RedisServerProcess.Persistence.AOF);
                Workers workers = Workers.start(dir, "standalone", List.of(redis.endpoint()), 500, 2_000, "none", "")) {
            int faults = 0;
            for (double at : new double[] {0.3, 0.65}) {
                workers.awaitProgress(at);
                redis.kill();
                pause(300);
                redis.restart();
                faults++;
            }
            workers.checkAndReport("killed-restarted-aof", RecordModel.linearizable(), faults, List.of());
        }
    }

    @Test
    void sentinelFailoverWithReplicaAcknowledgement() {
        try (SentinelGroup group = SentinelGroup.start();
                Workers workers = Workers.start(dir, "sentinel", group.sentinels(), 1_000, 3_000, "1:500",
                        group.masterName())) {
            workers.awaitProgress(0.35);
            // The replica stops receiving: writes meanwhile are applied by the master, seen by reads, and not
            // acknowledged (their outcome unknown); the failover then loses them.
            group.cutReplicationLink();
            pause(600);
            long killed = System.nanoTime();
            group.killMaster();
            RedisEndpoint newMaster = group.awaitFailover(Duration.ofSeconds(20));
            long promoted = System.nanoTime();
            // The promotion happened between the kill and the new master's answer: any key may fall back there.
            Operation<Call, Answer> failover = new Operation<>(PROCESSES, "parent", killed, promoted, Call.failover(),
                    Answer.none());
            // A replica again, so that writes are acknowledged again for the rest of the run.
            group.startReplicaOf(newMaster, Duration.ofSeconds(30));
            workers.checkAndReport("sentinel-failover",
                    RecordModel.of(RecordModel.Promise.ANSWERED_WRITES_SURVIVE_FAILOVER), 2, List.of(failover));
        }
    }

    @Test
    void clusterSlotMigration() {
        try (OwnCluster cluster = RedisServerFixture.ownCluster();
                Workers workers = Workers.start(dir, "cluster", cluster.nodes(), 1_000, 3_000, "none", "")) {
            int slot = (int) (long) (Long) cluster.callOn(cluster.nodes().get(0), "CLUSTER", "KEYSLOT",
                    "{" + workers.run + "}");
            Map<RedisEndpoint, String> ids = new LinkedHashMap<>();
            for (RedisEndpoint node : cluster.nodes()) {
                ids.put(node, (String) cluster.callOn(node, "CLUSTER", "MYID"));
            }
            int faults = 0;
            while (workers.running()) {
                pause(400);
                RedisEndpoint source = SlotMigrationTest.owner(cluster, ids, slot);
                List<RedisEndpoint> others = new ArrayList<>(cluster.nodes());
                others.remove(source);
                SlotMigrationTest.migrate(cluster, ids, slot, source, others.get(faults % others.size()));
                faults++;
            }
            workers.checkAndReport("cluster-slot-migration", RecordModel.linearizable(), faults, List.of());
        }
    }

    /** Waits out a fault's length or the gap between faults: a schedule, not a wait for a condition. */
    static void pause(long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** The worker processes of one scenario, and what they report. */
    static final class Workers implements AutoCloseable {
        final Path dir;
        final String run = "lin-" + UUID.randomUUID().toString().substring(0, 13);
        final long seed = Long.getLong("toolboundary.linearizability.seed", System.nanoTime());
        final int operations = Integer.getInteger(OPERATIONS_PROPERTY, DEFAULT_OPERATIONS);
        final List<Process> processes = new ArrayList<>();
        final AtomicInteger ready = new AtomicInteger();
        final Map<Integer, Integer> progress = new HashMap<>();
        final long started = System.nanoTime();

        private Workers(Path dir) {
            this.dir = dir;
        }

        static Workers start(Path dir, String mode, List<RedisEndpoint> nodes, int timeoutMillis, int opTimeoutMillis,
                String ack, String master) {
            Workers workers = new Workers(dir);
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String nodeList = nodes.stream().map(RedisEndpoint::hostAndPort).collect(Collectors.joining(","));
            int share = (workers.operations + PROCESSES - 1) / PROCESSES;
            for (int p = 0; p < PROCESSES; p++) {
                List<String> command = List.of(java, "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-cp", System.getProperty("java.class.path"), LinearizabilityWorker.class.getName(),
                        "process=" + p, "threads=" + THREADS, "operations=" + share, "keys=" + KEYS,
                        "run=" + workers.run, "runToken=tok-" + workers.run, "prefix=" + PREFIX, "out=" + dir,
                        "mode=" + mode, "nodes=" + nodeList, "master=" + master, "timeoutMillis=" + timeoutMillis,
                        "opTimeoutMillis=" + opTimeoutMillis, "ack=" + ack, "seed=" + workers.seed);
                try {
                    Process process = new ProcessBuilder(command)
                            .redirectError(dir.resolve("stderr-" + p + ".txt").toFile()).start();
                    workers.processes.add(process);
                    workers.follow(p, process);
                } catch (IOException e) {
                    workers.close();
                    throw new UncheckedIOException(e);
                }
            }
            try {
                await("the worker processes to open the run").atMost(STARTUP).pollInterval(Duration.ofMillis(20))
                        .until(() -> workers.ready.get() == PROCESSES || workers.processes.stream().anyMatch(
                                process -> !process.isAlive()));
                assertThat(workers.ready.get()).as("workers ready; stderr: %s", workers.stderr()).isEqualTo(PROCESSES);
            } catch (RuntimeException | Error failure) {
                workers.close();
                throw failure;
            }
            return workers;
        }

        private void follow(int p, Process process) {
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        if (line.equals("READY")) {
                            ready.incrementAndGet();
                        } else if (line.startsWith("PROGRESS ") || line.startsWith("DONE ")) {
                            int n = Integer.parseInt(line.substring(line.indexOf(' ') + 1));
                            synchronized (progress) {
                                progress.put(p, n);
                            }
                        }
                    }
                } catch (IOException | RuntimeException ignored) {
                    // The process is gone; its exit code tells the rest.
                }
            }, "worker-" + p + "-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        /** True while a process still runs. */
        boolean running() {
            return processes.stream().anyMatch(Process::isAlive);
        }

        /** The share of all operations made so far. */
        double progress() {
            synchronized (progress) {
                return progress.values().stream().mapToInt(Integer::intValue).sum() / (double) operations;
            }
        }

        void awaitProgress(double share) {
            await("the workers to make " + share + " of their operations").atMost(FINISH)
                    .pollInterval(Duration.ofMillis(10)).until(() -> progress() >= share || !running());
        }

        /** Waits for the processes, merges their histories, checks them and the executions, prints, asserts. */
        void checkAndReport(String scenario, RecordModel model, int faults, List<Operation<Call, Answer>> markers) {
            try {
                for (Process process : processes) {
                    assertThat(process.waitFor(FINISH.toSeconds(), TimeUnit.SECONDS)).as("worker finished").isTrue();
                    assertThat(process.exitValue()).as("worker exit; stderr: %s", stderr()).isZero();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                close();
            }
            long runNanos = System.nanoTime() - started;
            List<History<Call, Answer>> histories = new ArrayList<>();
            Map<String, Integer> executions = new HashMap<>();
            for (int p = 0; p < PROCESSES; p++) {
                histories.add(History.read(dir.resolve("history-" + p + ".tsv"), Call::parse, Answer::parse));
                try {
                    for (String id : Files.readAllLines(dir.resolve("executions-" + p + ".txt"))) {
                        executions.merge(id, 1, Integer::sum);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            History<Call, Answer> merged = History.merge(histories);
            List<Operation<Call, Answer>> all = new ArrayList<>(merged.operations());
            int operationsMade = all.size();
            all.addAll(markers);
            long checkStarted = System.nanoTime();
            Linearizability.Result<Call, Answer> result = Linearizability.check(model, all);
            long checkNanos = System.nanoTime() - checkStarted;
            // Under a weaker promise, whether this run needed it: the same history against the strict model.
            String strict = model.promise() == RecordModel.Promise.LINEARIZABLE ? ""
                    : " strictlyLinearizable=" + Linearizability.check(RecordModel.linearizable(), all).linearizable();
            int maxExecutions = executions.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            Map<String, Long> answers = new java.util.TreeMap<>(all.stream().collect(Collectors.groupingBy(
                    op -> op.input().kind() + ":" + (op.undetermined() ? "UNDETERMINED"
                            : op.output().reply() + (op.output().reply() == RecordModel.Reply.REFUSED
                                    ? "_" + op.output().value() : "")),
                    Collectors.counting())));

            System.out.println("RELIABILITY linearizability scenario=" + scenario + " operations=" + operationsMade
                    + " processes=" + PROCESSES + " faults=" + faults + " histories=" + histories.size()
                    + " anomalies=" + result.anomalies() + " executions_per_key_max=" + maxExecutions);
            System.out.println("LINEARIZABILITY scenario=" + scenario + " promise=" + model.promise() + " keys="
                    + result.parts() + " executions=" + executions.values().stream().mapToInt(Integer::intValue).sum()
                    + " undetermined=" + all.stream().filter(Operation::undetermined).count() + " runMillis="
                    + TimeUnit.NANOSECONDS.toMillis(runNanos) + " checkMillis=" + TimeUnit.NANOSECONDS.toMillis(checkNanos)
                    + strict + " seed=" + seed + " answers=" + answers.toString().replace(" ", ""));
            for (List<Operation<Call, Answer>> part : result.refused().subList(0, Math.min(3, result.anomalies()))) {
                System.out.println("LINEARIZABILITY refused key " + part.get(0).input().key() + ":");
                part.stream().sorted(Comparator.comparingLong(Operation::invokedAt)).limit(80)
                        .forEach(op -> System.out.println("  " + op));
            }

            assertThat(operationsMade).as("operations made").isGreaterThanOrEqualTo(operations);
            assertThat(faults).as("faults injected").isPositive();
            assertThat(result.verdict()).as("%s: %d keys not linearizable", scenario, result.anomalies())
                    .isEqualTo(Linearizability.Verdict.LINEARIZABLE);
            assertThat(result.anomalies()).isZero();
            assertThat(maxExecutions).as("tool executions of one key, counted on disk by every process")
                    .isLessThanOrEqualTo(1);
            assertThat(executions).as("keys executed").isNotEmpty();
        }

        private String stderr() {
            StringBuilder text = new StringBuilder();
            for (int p = 0; p < PROCESSES; p++) {
                try {
                    Path file = dir.resolve("stderr-" + p + ".txt");
                    if (Files.exists(file)) {
                        List<String> lines = Files.readAllLines(file);
                        text.append("\n[worker ").append(p).append("] ")
                                .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
                    }
                } catch (IOException e) {
                    text.append(e);
                }
            }
            return text.toString();
        }

        /** Ends the worker processes that still run: this scenario's own children, by their handles. */
        @Override
        public void close() {
            processes.forEach(Process::destroyForcibly);
        }
    }
}
