package io.toolboundary.benchmarks;

import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.json.JsonArguments;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.util.concurrent.TimeUnit;
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

/**
 * The JSON check and fingerprint of a call's arguments alone ({@link JsonArguments#fingerprint}), with
 * the default limits, on the same arguments {@link InMemoryBoundaryBenchmark} sends. Run with
 * {@code -prof gc} for the bytes allocated per call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 3, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class JsonArgumentsBenchmark {

    /** The arguments' size in UTF-8 bytes. */
    @Param({"128", "4096"})
    public int argumentsBytes;

    private JsonArguments json;
    private ToolName tool;
    private String arguments;

    /** Builds the checker and the arguments once per trial. */
    @Setup(Level.Trial)
    public void arguments() {
        json = new JsonArguments(ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH, ToolBoundaryConfig.DEFAULT_MAX_NUMBER_LENGTH,
                ToolBoundaryConfig.DEFAULT_ARGUMENTS_BYTES);
        tool = new ToolName(Payloads.TOOL_NAME);
        arguments = Payloads.request(argumentsBytes);
    }

    /** One check and fingerprint. */
    @Benchmark
    public String fingerprint() {
        Either<BoundaryError, String> fingerprint = json.fingerprint(tool, arguments);
        if (fingerprint.isLeft()) {
            throw new IllegalStateException("refused the benchmark arguments: " + fingerprint.getLeft().code());
        }
        return fingerprint.get();
    }
}
