package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmhResultsTest {

    @TempDir
    Path dir;

    @Test
    void derivesCallsPerSecondFromTheMeanOfASampleTimeRun() throws IOException {
        Path file = write("sample.json", row("peer08", "sample", 8, 2.0, 0.5, "ms/op"));

        JmhResults.Row derived = JmhResults.read(List.of(file)).find("RedisBoundaryBenchmark", "peer08", "thrpt",
                "rawBytes", 1024, null, 0).orElseThrow();

        assertThat(derived.score()).as("8 callers / 2 ms").isCloseTo(4_000.0, within(1e-6));
        assertThat(derived.error()).as("the mean's relative error, 25%").isCloseTo(1_000.0, within(1e-6));
        assertThat(derived.allocatedBytesPerCall()).contains(1234.0);
    }

    @Test
    void keepsAMeasuredThroughputAndDerivesNoSecondOne() throws IOException {
        Path samples = write("sample.json", row("peer08", "sample", 8, 2.0, 0.5, "ms/op"));
        Path throughput = write("thrpt.json", row("peer08", "thrpt", 8, 3.0, 0.1, "ops/ms"));

        List<JmhResults.Row> rows = JmhResults.read(List.of(samples, throughput))
                .select("RedisBoundaryBenchmark", "peer08", "thrpt");

        assertThat(rows).singleElement().satisfies(row -> assertThat(row.score()).isCloseTo(3_000.0, within(1e-6)));
    }

    private Path write(String name, String json) throws IOException {
        return Files.writeString(dir.resolve(name), "[" + json + "]");
    }

    private static String row(String method, String mode, int threads, double score, double error, String unit) {
        return """
                {"benchmark": "io.toolboundary.benchmarks.RedisBoundaryBenchmark.%s", "mode": "%s", "threads": %d,
                 "params": {"rawBytes": "1024"},
                 "primaryMetric": {"score": %s, "scoreError": %s, "scoreUnit": "%s"},
                 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 1234.0}}}
                """.formatted(method, mode, threads, score, error, unit);
    }
}
