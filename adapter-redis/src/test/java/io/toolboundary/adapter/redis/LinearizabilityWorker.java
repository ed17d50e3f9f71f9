package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.tck.reliability.history.History;
import io.toolboundary.tck.reliability.history.RecordModel.Answer;
import io.toolboundary.tck.reliability.history.RecordModel.Call;
import io.toolboundary.tck.reliability.history.RecordingStore;
import io.toolboundary.tck.store.StoreRecordFixtures;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.redisson.config.Config;

/**
 * One process of a linearizability run: a Redis store of its own behind a {@link RecordingStore}, several threads
 * making begins, tool executions, completions, ends, abandonments and reads on a few keys of one run (a
 * window of keys that moves on as operations are made), until the process has made its share of operations.
 * Every tool execution (between a begin answered CREATED and its completion) is appended to
 * {@code executions-<process>.txt} before the completion is sent; the history goes to
 * {@code history-<process>.tsv} at the end. Prints {@code READY} once its run is open, {@code PROGRESS <n>}
 * as it goes and {@code DONE <n>} at the end. Arguments: {@code name=value} pairs (see {@link #main}).
 */
public final class LinearizabilityWorker {

    static final String TOOL = "search_logs";
    static final String REQUEST = "{\"service\":\"checkout\"}";
    /** Operations a process makes on one window of keys before it moves on to the next. */
    static final int WINDOW_OPERATIONS = 40;
    static final Duration TTL = Duration.ofHours(1);
    /** Short, so that a record left PROJECTING can be abandoned while the run goes on. */
    static final Duration LEASE = Duration.ofMillis(300);

    private final int process;
    private final int operations;
    private final int keys;
    private final RunId run;
    private final RunToken runToken;
    private final Duration timeout;
    private final History<Call, Answer> history;
    private final AtomicLong attempts = new AtomicLong();
    private final BufferedWriter executions;
    private final long seed;
    private RecordingStore recorder;

    private LinearizabilityWorker(Map<String, String> args, History<Call, Answer> history, BufferedWriter executions) {
        this.history = history;
        this.process = Integer.parseInt(args.get("process"));
        this.operations = Integer.parseInt(args.get("operations"));
        this.keys = Integer.parseInt(args.get("keys"));
        this.run = new RunId(args.get("run"));
        this.runToken = new RunToken(args.get("runToken"));
        this.timeout = Duration.ofMillis(Long.parseLong(args.get("opTimeoutMillis")));
        this.seed = Long.parseLong(args.get("seed"));
        this.executions = executions;
    }

    /**
     * Runs one process. Arguments: {@code process}, {@code threads}, {@code operations} (this process's share),
     * {@code keys} (per window), {@code run}, {@code runToken}, {@code prefix}, {@code out} (a directory),
     * {@code mode} ({@code standalone}, {@code cluster} or {@code sentinel}), {@code nodes} (comma-separated
     * {@code host:port}), {@code master} (sentinel mode), {@code timeoutMillis} (Redisson's),
     * {@code opTimeoutMillis} (each store call's), {@code ack} ({@code none} or {@code <replicas>:<millis>}),
     * {@code seed}.
     *
     * @param argv the {@code name=value} pairs
     * @throws Exception when the run cannot be made; the process then exits non-zero
     */
    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (String arg : argv) {
            int eq = arg.indexOf('=');
            args.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        Path out = Path.of(args.get("out"));
        int process = Integer.parseInt(args.get("process"));
        int threads = Integer.parseInt(args.get("threads"));
        History<Call, Answer> history = new History<>();
        try (BufferedWriter executions = Files.newBufferedWriter(out.resolve("executions-" + process + ".txt"),
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
                RedisCanonicalInvocationStore store = store(args)) {
            LinearizabilityWorker worker = new LinearizabilityWorker(args, history, executions);
            worker.recorder = new RecordingStore(store, worker.history, process);
            worker.openRun(store);
            System.out.println("READY");
            System.out.flush();
            ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor();
            progress.scheduleAtFixedRate(() -> {
                System.out.println("PROGRESS " + worker.history.size());
                System.out.flush();
            }, 50, 50, TimeUnit.MILLISECONDS);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(worker.seed * 1_000_003L + process * 101L + t);
                workers.add(new Thread(() -> worker.loop(random), "p" + process + "-t" + t));
            }
            workers.forEach(Thread::start);
            for (Thread thread : workers) {
                thread.join();
            }
            progress.shutdownNow();
        }
        // Written complete under another name, then moved: the parent never reads half a file.
        Path partial = out.resolve("history-" + process + ".partial");
        history.write(partial, Call::text, Answer::text);
        Files.move(partial, out.resolve("history-" + process + ".tsv"));
        System.out.println("DONE " + history.size());
        System.out.flush();
        System.exit(0);
    }

    private void openRun(RedisCanonicalInvocationStore store) {
        RunOpening opening = new RunOpening(run, runToken, TTL);
        for (int tries = 0; ; tries++) {
            Either<StoreFailure, RunToken> opened = store.openRun(opening, timeout);
            if (opened.isRight()) {
                if (!opened.get().equals(runToken)) {
                    throw new IllegalStateException("the run was opened with another token: " + opened.get());
                }
                return;
            }
            if (tries > 50) {
                throw new IllegalStateException("the run could not be opened: " + opened.getLeft());
            }
            hold(100);
        }
    }

    private void loop(Random random) {
        while (history.size() < operations) {
            // An agent's pace: a little time between calls, so that the faults meet the calls for a while.
            hold(3 + random.nextInt(10));
            int window = history.size() / WINDOW_OPERATIONS;
            String id = "call-" + window + "-" + random.nextInt(keys);
            InvocationKey key = InvocationKey.of(run, new ToolCallId(id));
            int dice = random.nextInt(100);
            if (dice < 50) {
                beginAndRun(key, random);
            } else if (dice < 85) {
                paced(recorder.find(key, timeout));
            } else if (dice < 95) {
                paced(recorder.abandon(key, Instant.now(), timeout));
            } else {
                // Another attempt's completion: refused CONFLICT, or EXPIRED when nothing was begun.
                CanonicalRecord.Projecting stranger = projecting(key);
                paced(recorder.complete(AttemptToken.random(), ready(stranger), timeout));
            }
        }
    }

    private void beginAndRun(InvocationKey key, Random random) {
        CanonicalRecord.Projecting record = projecting(key);
        AttemptToken token = AttemptToken.random();
        Either<StoreFailure, CanonicalRecord.Projecting> begun = paced(recorder.begin(new InvocationStart(record, token,
                runToken, TTL, LEASE, 1_000_000, 1_000_000, Long.MAX_VALUE), timeout));
        if (begun.isLeft()) {
            if (begun.getLeft().kind() == StoreFailure.Kind.OUTCOME_UNKNOWN) {
                // As the boundary does: the tool does not run, and the attempt's record (if any) is ended.
                endUntilKnown(key, token, ErrorCode.STORE_OUTCOME_UNKNOWN);
            }
            return;
        }
        executed(key);
        hold(2 + random.nextInt(10));
        if (random.nextInt(5) == 0) {
            recorder.find(key, timeout);
        }
        int how = random.nextInt(100);
        if (how < 5) {
            return; // left PROJECTING: abandoned once its lease has passed
        }
        if (how >= 90) {
            endUntilKnown(key, token, ErrorCode.EXECUTION_FAILED);
            return;
        }
        CanonicalRecord.Final done = how < 75 ? ready(record)
                : record.failed(ErrorCode.EXECUTION_FAILED, Option.none(), record.createdAt().plusSeconds(1));
        Either<StoreFailure, CanonicalRecord.Final> completed = paced(recorder.complete(token, done, timeout));
        if (completed.isLeft() && unsure(completed.getLeft())) {
            endUntilKnown(key, token, ErrorCode.STORE_OUTCOME_UNKNOWN);
        }
    }

    private void endUntilKnown(InvocationKey key, AttemptToken token, ErrorCode code) {
        for (int tries = 0; tries < 3; tries++) {
            Either<StoreFailure, CanonicalRecord.Final> ended = paced(recorder.end(key, token, code, Instant.now(),
                    timeout));
            if (ended.isRight() || !unsure(ended.getLeft())) {
                return;
            }
        }
    }

    /** After an unreachable store, a caller's pause before its next call. */
    private static <T> Either<StoreFailure, T> paced(Either<StoreFailure, T> result) {
        if (result.isLeft() && result.getLeft().kind() == StoreFailure.Kind.UNAVAILABLE) {
            hold(50);
        }
        return result;
    }

    private static boolean unsure(StoreFailure failure) {
        return failure.kind() == StoreFailure.Kind.OUTCOME_UNKNOWN || failure.kind() == StoreFailure.Kind.UNAVAILABLE;
    }

    /** A PROJECTING record of its own attempt: its creation instant is unique to the attempt, across processes. */
    private CanonicalRecord.Projecting projecting(InvocationKey key) {
        Instant createdAt = Instant.ofEpochSecond(1_900_000_000L + process, attempts.incrementAndGet());
        return new CanonicalRecord.Projecting(key, new ToolName(TOOL), REQUEST, StoreRecordFixtures.fingerprintOf(REQUEST),
                createdAt);
    }

    private static CanonicalRecord.Ready ready(CanonicalRecord.Projecting record) {
        return record.ready("raw of " + record.key().toolCallId().value(),
                new AgentResult("found", EvidenceStatus.EVIDENCE_FOUND, Option.none()),
                record.createdAt().plusSeconds(1));
    }

    /** The tool runs: counted outside the store, on disk, before its completion is sent. */
    private void executed(InvocationKey key) {
        synchronized (executions) {
            try {
                executions.write(key.toolCallId().value());
                executions.newLine();
                executions.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The time a tool takes, or the pause between tries: a delay, not a wait for a condition. */
    private static void hold(long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private static RedisCanonicalInvocationStore store(Map<String, String> args) {
        RedisStoreOptions.Builder options = RedisStoreOptions.custom().keyPrefix(args.get("prefix"));
        int timeoutMillis = Integer.parseInt(args.get("timeoutMillis"));
        String ack = args.getOrDefault("ack", "none");
        if (!ack.equals("none")) {
            String[] parts = ack.split(":");
            options.replicaAcknowledgement(Integer.parseInt(parts[0]), Duration.ofMillis(Long.parseLong(parts[1])));
        }
        List<RedisEndpoint> nodes = Arrays.stream(args.get("nodes").split(",")).map(hostPort -> {
            int colon = hostPort.lastIndexOf(':');
            return RedisEndpoint.of(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        }).toList();
        switch (args.get("mode")) {
            case "standalone" -> {
                return RedisCanonicalInvocationStoreFactory.create(
                        FaultRig.config(nodes.get(0), 8, timeoutMillis), options.build());
            }
            case "cluster" -> {
                Config config = new Config();
                var cluster = config.useClusterServers().setTimeout(timeoutMillis).setPingConnectionInterval(0);
                nodes.forEach(node -> cluster.addNodeAddress(node.uri()));
                return RedisCanonicalInvocationStoreFactory.create(config, options.build());
            }
            case "sentinel" -> {
                return RedisCanonicalInvocationStoreFactory.connectSentinel(args.get("master"),
                        nodes.stream().map(RedisEndpoint::uri).toList(),
                        options.responseTimeout(Duration.ofMillis(timeoutMillis)).build());
            }
            default -> throw new IllegalArgumentException("mode " + args.get("mode"));
        }
    }
}
