package io.toolboundary.benchmarks;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the boundary adds to a tool call on the in-memory store: {@link #boundary} against {@link #handRolled}
 * ({@link HandRolledInMemory}) and {@link #baseline}, the same executor and projector called directly. Every
 * call has a new tool_call_id; a refused call fails the run. Memory stays bounded: a new store per iteration,
 * a clock one millisecond per call (records outlive {@value #TTL_CALLS} calls), a new run every
 * {@value #RUN_CALLS} calls.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class InMemoryBoundaryBenchmark {

    /** How many calls a record outlives: the store's clock moves one millisecond per call. */
    static final long TTL_CALLS = 10_000;
    /** How many calls one run makes before the next is opened. */
    static final long RUN_CALLS = 1_000;
    /** How far ahead of its opening, on the wall clock, a run's deadline is: far more than its calls take. */
    static final Duration RUN_DEADLINE = Duration.ofSeconds(5);
    /** The execution lease: shorter than the run's deadline, so that every call's lease is the configured one. */
    static final Duration EXECUTION_LEASE = Duration.ofSeconds(1);

    /** The arguments' size in UTF-8 bytes. */
    @Param({"128", "1024", "16384"})
    public int argumentsBytes;

    /** The raw response's size in UTF-8 bytes. */
    @Param({"1024", "65536"})
    public int rawBytes;

    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong iterations = new AtomicLong();
    private String arguments;
    private ToolExecutor executor;
    private Projector projector;
    private ToolName tool;
    private InvocationKey baselineKey;
    private ToolBoundary boundary;
    private RunContext run;
    private String runId;
    private HandRolledInMemory handRolledStore;
    private String handRolledRunId;

    /** Builds the payloads and the fake tool once per trial. */
    @Setup(Level.Trial)
    public void payloads() {
        arguments = Payloads.request(argumentsBytes);
        executor = FakeTools.returning(Payloads.raw(rawBytes));
        projector = FakeProjectors.evidenceFound(Payloads.agentContent());
        tool = new ToolName(Payloads.TOOL_NAME);
        baselineKey = InvocationKey.of(new RunId("bench-baseline"), new ToolCallId("c0"));
    }

    /** A new store, boundary and opened run for every iteration. */
    @Setup(Level.Iteration)
    public void freshStore() {
        ToolBoundaryConfig config = ToolBoundaryConfig.custom().recordTtl(Duration.ofMillis(TTL_CALLS))
                .executionLease(EXECUTION_LEASE).build();
        boundary = ToolBoundary.builder()
                .store(InMemoryCanonicalInvocationStore.create(new CallCountClock(calls)))
                .accessPolicy(AccessPolicy.allowAll())
                .config(config)
                .tool(ToolBinding.readOnly(Payloads.TOOL_NAME, executor, projector))
                .build();
        runId = "bench-inmemory-" + iterations.incrementAndGet();
        run = Fixtures.opened(boundary, shortRun(runId));
        handRolledStore = new HandRolledInMemory(new CallCountClock(calls), TTL_CALLS, Long.MAX_VALUE, executor, projector);
        handRolledRunId = runId;
        handRolledStore.openRun(handRolledRunId);
    }

    /** An active run with an unlimited call budget whose deadline is {@link #RUN_DEADLINE} from now. */
    private static RunContext shortRun(String runId) {
        return RunContext.active(new RunId(runId), Instant.now().plus(RUN_DEADLINE), RunContext.UNLIMITED);
    }

    /** One call through the boundary. */
    @Benchmark
    public AgentResult boundary() {
        long call = calls.incrementAndGet();
        if (call % RUN_CALLS == 0) {
            runId = "bench-inmemory-" + iterations.get() + "-" + call;
            run = Fixtures.opened(boundary, shortRun(runId));
        }
        Either<BoundaryError, AgentResult> result = boundary.invoke(run,
                ToolCallEnvelope.of(runId, "c" + call, Payloads.TOOL_NAME, arguments));
        if (result.isLeft()) {
            throw new IllegalStateException("the boundary refused a benchmark call: " + result.getLeft().code());
        }
        return result.get();
    }

    /**
     * The same call on {@link HandRolledInMemory}, a map that makes the decisions the record needs and no
     * more, with a run opened every {@value #RUN_CALLS} calls as {@link #boundary} does; only its mean is reported.
     */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    public Projection handRolled() throws Exception {
        long call = calls.incrementAndGet();
        if (call % RUN_CALLS == 0) {
            handRolledRunId = "bench-inmemory-" + iterations.get() + "-" + call;
            handRolledStore.openRun(handRolledRunId);
        }
        Projection result = handRolledStore.call(handRolledRunId, "c" + call, arguments);
        if (result == null) {
            throw new IllegalStateException("the hand-rolled map refused a benchmark call");
        }
        return result;
    }

    /** The same executor and projector, called directly; only its mean is reported. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    public Projection baseline(Blackhole blackhole) throws Exception {
        blackhole.consume("c" + calls.incrementAndGet());
        ToolRequest request = new ToolRequest(baselineKey, tool, arguments);
        return projector.project(request, executor.execute(request));
    }
}
