package io.toolboundary.benchmarks;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.Projection;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The boundary on the Redis store against its own commands sent alone ({@link StoreCommands}, the floor) and
 * the hand-rolled peer ({@link HandRolledToolCalls}), on one Redisson client at 1, 8 and 32 callers: the time
 * of one call, and per iteration the client's and server's CPU and the server's execution time per call. The
 * {@code export} kind is the same boundary call on the store with export on ({@code Outbox.KEYS}: the script
 * that makes the record final also appends it to the outbox stream), beside {@code boundary} (export off). A
 * refused call fails the run, and so does an outbox that does not hold exactly one entry per call made with
 * export on and none without. Run without forks, one kind per JVM after warming every kind on
 * {@value #JVM_WARMUP_THREADS} threads ({@code bench/run}); see BENCHMARKS.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
public class RedisBoundaryBenchmark {

    /** How long the first trial of a JVM calls, every kind at every raw size, before any measuring. */
    static final double JVM_WARMUP_SECONDS = Double.parseDouble(System.getProperty("bench.jvmWarmupSeconds", "8"));
    /** How long each trial then calls, of its own kind on as many threads as it measures, before JMH's warmup. */
    static final double SOLO_WARMUP_SECONDS = Double.parseDouble(System.getProperty("bench.soloWarmupSeconds", "1"));

    /** How many threads the first, long warm-up of a JVM calls on. */
    static final int JVM_WARMUP_THREADS = 8;
    /** How many calls of each kind a warm-up makes between two flushes of the server, over all its threads. */
    private static final int WARMUP_ROUND_CALLS = 1000;

    /** Whether this JVM already made its first, long warm-up (JMH without forks runs every trial in one JVM). */
    private static boolean jvmWarm;

    /** The raw response's size in UTF-8 bytes. */
    @Param({"1024", "65536"})
    public int rawBytes;

    /** Where {@link #account} appends its lines; empty: nowhere. */
    static final String CPU_OUT = System.getProperty("bench.cpuOut", "");
    /**
     * Where {@link #flush} writes the commands of the first call it captures in this JVM (with export on in
     * the {@code export} kind's JVM, off in the others); empty: nowhere.
     */
    static final String CALL_OUT = System.getProperty("bench.callOut", "");
    /** A captured command's argument longer than this, or not printable ASCII, is written as its length. */
    private static final int CALL_ARGUMENT_CHARS = 48;

    /** Whether this JVM already wrote the commands of a captured call to {@link #CALL_OUT}. */
    private static boolean callWritten;

    private final AtomicLong calls = new AtomicLong();
    private long iterationCalls;
    private long iterationClientCpuNanos;
    private double iterationServerCpuSeconds;
    private final AtomicLong iterations = new AtomicLong();
    private BenchRedis redis;
    private ToolBoundary boundary;
    /** The same boundary on the store with export on. */
    private ToolBoundary exportingBoundary;
    /** The kind this trial measures: its calls are the ones captured before every iteration. */
    private Kind measured;
    private HandRolledToolCalls peer;
    /**
     * The commands of a call captured in the current run, sent without the boundary: a call with export on when
     * the trial measures {@code export}, else one with export off.
     */
    private volatile StoreCommands storeCommands;
    private String arguments;
    private volatile String runId;
    private volatile RunContext run;

    /** Starts the server and client, checks the peer once, and warms the JVM (once) and the measured kind. */
    @Setup(Level.Trial)
    public void start(BenchmarkParams params) throws Exception {
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        measured = Kind.valueOf(method.substring(0, method.length() - 2).toUpperCase(Locale.ROOT));
        redis = BenchRedis.start();
        arguments = Payloads.request(Payloads.REDIS_REQUEST_BYTES);
        if (!jvmWarm) {
            for (int size : BenchRedis.RAW_BYTES) {
                boundary = redis.boundary(FakeTools.returning(Payloads.raw(size)));
                exportingBoundary = redis.exportingBoundary(FakeTools.returning(Payloads.raw(size)));
                peer = redis.peer(FakeTools.returning(Payloads.raw(size)));
                warm(JVM_WARMUP_SECONDS / BenchRedis.RAW_BYTES.length, JVM_WARMUP_THREADS, Kind.values());
                // Every trial has a client of its own: the shutdown of one and the start of the next, met
                // here first, invalidate compiled client code that the next calls compile again.
                redis.close();
                redis = BenchRedis.start();
            }
            jvmWarm = true;
        }
        String raw = Payloads.raw(rawBytes);
        boundary = redis.boundary(FakeTools.returning(raw));
        exportingBoundary = redis.exportingBoundary(FakeTools.returning(raw));
        redis.flush();
        peer = redis.peer(FakeTools.returning(raw));
        warm(SOLO_WARMUP_SECONDS, params.getThreads(), measured);
    }

    /**
     * What a benchmark method calls: the boundary (export off), the peer, the boundary's commands alone, or the
     * boundary on the store with export on.
     */
    enum Kind { BOUNDARY, PEER, COMMANDS, EXPORT }

    /**
     * Calls on {@code threads} threads for {@code seconds}, in rounds: the server flushed and a run opened,
     * then {@value #WARMUP_ROUND_CALLS} calls of each kind shared by the threads, so that memory stays small.
     */
    private void warm(double seconds, int threads, Kind... kinds) throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try {
            long until = System.nanoTime() + (long) (seconds * 1e9);
            for (long round = 0; System.nanoTime() < until; round++) {
                redis.flush();
                openRun("bench-redis-warmup-" + round);
                List<Future<?>> done = new ArrayList<>();
                for (int thread = 0; thread < threads; thread++) {
                    done.add(callers.submit(() -> {
                        for (int i = 0; i < WARMUP_ROUND_CALLS / threads; i++) {
                            for (Kind kind : kinds) {
                                call(kind);
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> thread : done) {
                    thread.get();
                }
            }
        } finally {
            callers.shutdownNow();
        }
    }

    private void call(Kind kind) throws Exception {
        switch (kind) {
            case BOUNDARY -> boundaryCall();
            case PEER -> peerCall();
            case COMMANDS -> commandsCall();
            case EXPORT -> exportCall();
        }
    }

    /**
     * Opens a run through the boundary and captures one call's commands in it, for the commands' calls: through
     * the boundary with export on when the trial measures {@code export} (both stores share the runs' keys).
     */
    private void openRun(String id) {
        ToolBoundary captured = measured == Kind.EXPORT ? exportingBoundary : boundary;
        runId = id;
        run = Fixtures.opened(captured, Fixtures.runContext(id));
        storeCommands = redis.captureCommands(captured, run, arguments);
    }

    /**
     * An empty server and a new run, opened in it, before every iteration; then the clocks are read. The flush
     * deletes the outbox stream too, so that it holds one iteration's entries at most.
     */
    @Setup(Level.Iteration)
    public void flush() {
        redis.flush();
        openRun("bench-redis-" + iterations.incrementAndGet());
        if (!CALL_OUT.isEmpty() && !callWritten) {
            writeCall();
            callWritten = true;
        }
        iterationCalls = calls.get();
        iterationClientCpuNanos = processCpuNanos();
        iterationServerCpuSeconds = redis.cpuSeconds();
        redis.resetCommandStats();
    }

    /** Writes the commands of the call captured last, one a line, to {@link #CALL_OUT}. */
    private void writeCall() {
        StringBuilder text = new StringBuilder("# The commands one successful boundary call sent, export ")
                .append(measured == Kind.EXPORT ? "on (RedisStoreOptions.Outbox.KEYS)" : "off (no outbox)")
                .append(", rawBytes=").append(rawBytes).append(", as the server received them (MONITOR): the commands its scripts ran and connection upkeep\n"
                        + "# left out; an argument longer than " + CALL_ARGUMENT_CHARS
                        + " characters or with a character outside printable ASCII is written as <its UTF-8 bytes>.\n");
        for (List<String> command : storeCommands.sent()) {
            text.append(command.stream().map(argument -> argument.length() <= CALL_ARGUMENT_CHARS
                            && argument.chars().allMatch(c -> c > ' ' && c < 127) ? argument
                            : "<" + argument.getBytes(StandardCharsets.UTF_8).length + " bytes>")
                    .collect(Collectors.joining(" "))).append('\n');
        }
        try {
            Files.writeString(Path.of(CALL_OUT), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * After a measurement iteration, when {@code bench.cpuOut} names a file: one JSON line with, per call,
     * the CPU time of this JVM (every thread) and of the server process, and the server's execution time
     * of the iteration's commands ({@code INFO commandstats}); and the iteration's count and time of each
     * command ({@code INFO commandstats}, the commands run by scripts included). Then, after every iteration, the
     * outbox is checked (its {@code XLEN} is not counted: the statistics are read first and reset before the
     * next iteration): with export on, one entry for each call of the iteration and the captured call; with
     * export off, none.
     */
    @TearDown(Level.Iteration)
    public void account(BenchmarkParams params, IterationParams iteration) throws IOException {
        if (!CPU_OUT.isEmpty() && iteration.getType() == IterationType.MEASUREMENT) {
            writeAccount(params);
        }
        long made = calls.get() - iterationCalls;
        long expected = measured == Kind.EXPORT ? made + 1 : 0;
        long entries = redis.outboxLength();
        if (entries != expected) {
            throw new IllegalStateException("the outbox holds " + entries + " entries after " + made + " calls of "
                    + measured + " and the captured one; expected " + expected);
        }
    }

    private void writeAccount(BenchmarkParams params) throws IOException {
        double serverMicros = redis.commandMicros();
        double clientCpuMicros = (processCpuNanos() - iterationClientCpuNanos) / 1e3;
        double serverCpuMicros = (redis.cpuSeconds() - iterationServerCpuSeconds) * 1e6;
        long made = calls.get() - iterationCalls;
        String commandCalls = redis.commandCalls().entrySet().stream()
                .map(command -> "\"" + command.getKey() + "\":" + command.getValue())
                .collect(Collectors.joining(",", "{", "}"));
        String commandMicros = redis.commandMicrosByName().entrySet().stream()
                .map(command -> String.format(Locale.ROOT, "\"%s\":%.1f", command.getKey(), command.getValue()))
                .collect(Collectors.joining(",", "{", "}"));
        String benchmark = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        String line = String.format(Locale.ROOT, "{\"benchmark\":\"%s\",\"threads\":%d,\"rawBytes\":%d,\"calls\":%d,"
                + "\"clientCpuUsecPerCall\":%.3f,\"serverCpuUsecPerCall\":%.3f,\"serverUsecPerCall\":%.3f,"
                + "\"commandCalls\":%s,\"commandUsec\":%s}%n",
                benchmark, params.getThreads(), rawBytes, made, clientCpuMicros / made, serverCpuMicros / made,
                serverMicros / made, commandCalls, commandMicros);
        Files.writeString(Path.of(CPU_OUT), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Shuts the client down. */
    @TearDown(Level.Trial)
    public void stop() {
        redis.close();
    }

    @Benchmark
    @Threads(1)
    public AgentResult boundary01() {
        return boundaryCall();
    }

    @Benchmark
    @Threads(8)
    public AgentResult boundary08() {
        return boundaryCall();
    }

    @Benchmark
    @Threads(32)
    public AgentResult boundary32() {
        return boundaryCall();
    }

    @Benchmark
    @Threads(1)
    public Projection peer01() throws Exception {
        return peerCall();
    }

    @Benchmark
    @Threads(8)
    public Projection peer08() throws Exception {
        return peerCall();
    }

    @Benchmark
    @Threads(32)
    public Projection peer32() throws Exception {
        return peerCall();
    }

    @Benchmark
    @Threads(1)
    public AgentResult export01() {
        return exportCall();
    }

    @Benchmark
    @Threads(8)
    public AgentResult export08() {
        return exportCall();
    }

    @Benchmark
    @Threads(32)
    public AgentResult export32() {
        return exportCall();
    }

    @Benchmark
    @Threads(1)
    public String commands01() {
        return commandsCall();
    }

    @Benchmark
    @Threads(8)
    public String commands08() {
        return commandsCall();
    }

    @Benchmark
    @Threads(32)
    public String commands32() {
        return commandsCall();
    }

    private String commandsCall() {
        String toolCallId = "c" + calls.incrementAndGet();
        storeCommands.call(toolCallId);
        return toolCallId;
    }

    private AgentResult boundaryCall() {
        return invoke(boundary);
    }

    /** The same call as {@link #boundaryCall()}, on the store with export on. */
    private AgentResult exportCall() {
        return invoke(exportingBoundary);
    }

    private AgentResult invoke(ToolBoundary boundary) {
        Either<BoundaryError, AgentResult> result = boundary.invoke(run,
                ToolCallEnvelope.of(runId, "c" + calls.incrementAndGet(), Payloads.TOOL_NAME, arguments));
        if (result.isLeft()) {
            throw new IllegalStateException("the boundary refused a benchmark call: " + result.getLeft().code());
        }
        return result.get();
    }

    private Projection peerCall() throws Exception {
        Projection projection = peer.call(runId, "c" + calls.incrementAndGet(), arguments);
        if (projection == null) {
            throw new IllegalStateException("the peer found a fresh tool_call_id already claimed");
        }
        return projection;
    }
}
