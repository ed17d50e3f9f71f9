package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JmhResultsTest {

    @TempDir
    Path dir;

    @Test
    void splitsAForkedRunIntoItsForks() throws IOException {
        Path file = write("avgt.json", """
                {"benchmark": "io.toolboundary.benchmarks.InMemoryBoundaryBenchmark.boundary", "mode": "avgt",
                 "threads": 1, "params": {"rawBytes": "1024"},
                 "primaryMetric": {"score": 2.0, "scoreUnit": "ns/op", "rawData": [[1000, 3000], [4000, 4000], [5000, 7000]]},
                 "secondaryMetrics": {"gc.alloc.rate.norm": {"score": 1.0, "rawData": [[10, 20], [30, 30], [40, 40]]}}}
                """);

        List<JmhResults.Fork> forks = JmhResults.read(List.of(file))
                .forks("InMemoryBoundaryBenchmark", "boundary", "avgt", Map.of("rawBytes", 1024));

        assertThat(forks).extracting(JmhResults.Fork::score).containsExactly(2.0, 4.0, 6.0);
        assertThat(forks).extracting(JmhResults.Fork::allocatedBytes).containsExactly(15.0, 30.0, 40.0);
    }

    @Test
    void takesMeanAndPercentilesOfASampledForkFromItsHistogram() throws IOException {
        Path first = write("run-1.json", sample(1.0));
        Path second = write("run-2.json", sample(2.0));

        List<JmhResults.Fork> forks = JmhResults.read(List.of(first, second))
                .forks("RedisBoundaryBenchmark", "peer08", "sample", Map.of("rawBytes", 1024));

        assertThat(forks).extracting(JmhResults.Fork::source).containsExactly(0, 1);
        // 98 samples of 1 ms and 2 of 11 ms: mean 1.2 ms, p50 1 ms, p99 11 ms
        assertThat(forks.get(0).score()).isCloseTo(1_200.0, within(1e-6));
        assertThat(forks.get(0).p50Micros()).isCloseTo(1_000.0, within(1e-6));
        assertThat(forks.get(0).p99Micros()).isCloseTo(11_000.0, within(1e-6));
        assertThat(forks.get(1).score()).isCloseTo(2_400.0, within(1e-6));
    }

    @Test
    void convertsEveryUnitToMicrosecondsOrCallsPerSecond() {
        assertThat(JmhResults.convert(1, "ms/op")).isEqualTo(1_000.0);
        assertThat(JmhResults.convert(2, "ops/ms")).isEqualTo(2_000.0);
    }

    private Path write(String name, String json) throws IOException {
        return Files.writeString(dir.resolve(name), "[" + json + "]");
    }

    private static String sample(double scale) {
        return """
                {"benchmark": "io.toolboundary.benchmarks.RedisBoundaryBenchmark.peer08", "mode": "sample", "threads": 8,
                 "params": {"rawBytes": "1024"},
                 "primaryMetric": {"score": 1.2, "scoreUnit": "ms/op",
                   "rawDataHistogram": [[[[%s, 50]], [[%s, 48], [%s, 2]]]]},
                 "secondaryMetrics": {"gc.alloc.rate.norm": {"rawData": [[1234.0]]}}}
                """.formatted(scale, scale, 11 * scale);
    }
}
