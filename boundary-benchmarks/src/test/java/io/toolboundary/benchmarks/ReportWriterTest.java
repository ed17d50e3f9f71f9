package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

    private final ObjectMapper json = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void writesTablesRatiosAndChartsFromOneRunsResults() throws Exception {
        Path results = results("quick");

        ReportWriter.write(results, dir.resolve("BENCHMARKS.md"), dir.resolve("charts"));

        String report = Files.readString(dir.resolve("BENCHMARKS.md"));
        assertThat(report)
                .contains("| nproc | 2 |")
                .contains("java -jar boundary-benchmarks/target/benchmarks.jar")
                // 600 calls/s against a floor of 1 / (1/2000 + 1/2000) = 1000 calls/s
                .contains("| boundary / floor ≥ 0.5 (8 callers, raw 1 KiB) | 0.60 | met |")
                // 600 against a peer of 1000
                .contains("| boundary / peer ≥ 0.8 (8 callers, raw 1 KiB) | 0.60 | **missed** |")
                .contains("| record overhead ≤ 1 KiB (raw 1 KiB) | 900 B | met |")
                .contains("| in-memory overhead ≤ 1.00 µs (request 128 B, raw 1 KiB) | 1.56 µs | **missed** |")
                .contains(String.format(Locale.ROOT, "| in-memory allocation ≤ 1 KiB per call beyond the record's own"
                        + " strings (request 128 B, raw 1 KiB) | %,.0f B | **missed** |",
                        9000 - 100 - ReportWriter.RECORD_STRING_BYTES))
                .contains("| in-memory overhead linear in request size (raw 1 KiB; R² ≥ 0.900) | 0.500 µs per KiB of"
                        + " request, R² 1.000 | met |")
                .contains("### In-memory overhead and allocation")
                .contains("| record overhead ≤ 1 KiB (raw 64 KiB) | 17,000 B | **missed** |")
                .contains("### boundary / peer")
                .contains("### Record overhead")
                .contains("| 1 KiB | 60.0 | 12.0 | 5.00 | 9.00 | 2.50 |")
                .contains("- Redis itself spends 60.0 µs per boundary call against 12.0 µs per peer call at raw 1 KiB"
                        + " (5.0×). Merely handing these raw bytes to a script costs 9.0 µs, a plain SET of them 2.5 µs.")
                .doesNotContain("### boundary / floor")
                .doesNotContain("SMOKE RUN")
                // in-memory: 3.5 µs boundary against 1.5 µs baseline
                .contains("| 1 KiB | 1 KiB | 1.50 ± 0.100 | 3.50 ± 0.100 | 2.00 |")
                .contains("![Redis throughput, raw 1 KiB](charts/redis-throughput-1k.png)")
                .contains("![In-memory overhead against request size](charts/inmemory-overhead.png)");
        for (String chart : List.of("redis-throughput-1k.png", "redis-throughput-64k.png", "inmemory-overhead.png")) {
            assertThat(dir.resolve("charts").resolve(chart)).isNotEmptyFile();
        }
    }

    @Test
    void fitsAStraightLineAndSaysHowWellItFits() {
        assertThat(ReportWriter.leastSquares(new double[] {0, 1, 2}, new double[] {1, 3, 5}))
                .containsExactly(new double[] {2, 1, 1}, within(1e-12));
        assertThat(ReportWriter.leastSquares(new double[] {0, 1, 2}, new double[] {0, 1, 0})[2]).isZero();
    }

    @Test
    void sizesCompactStringsAsTheJvmHoldsThem() {
        assertThat(ReportWriter.stringBytes(0)).isEqualTo(40);
        assertThat(ReportWriter.stringBytes(64)).isEqualTo(104);
        assertThat(ReportWriter.stringBytes(65)).isEqualTo(112);
    }

    @Test
    void marksASmokeRunAsNoMeasurement() throws Exception {
        Path results = results("smoke");

        ReportWriter.write(results, dir.resolve("BENCHMARKS.md"), dir.resolve("charts"));

        assertThat(Files.readString(dir.resolve("BENCHMARKS.md"))).contains("**SMOKE RUN.**")
                .contains("**not measurements**");
    }

    @Test
    void saysNotRunWhereAStepLeftNoResults() throws Exception {
        Path results = Files.createDirectories(dir.resolve("empty"));

        ReportWriter.write(results, dir.resolve("BENCHMARKS.md"), dir.resolve("charts"));

        assertThat(Files.readString(dir.resolve("BENCHMARKS.md")))
                .contains("| boundary / floor ≥ 0.5 (8 callers, raw 1 KiB) | n/a | not measured |")
                .contains("Not run.");
    }

    private Path results(String profile) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        Files.writeString(results.resolve("profile.txt"), profile + "\n");
        Files.writeString(results.resolve("machine.txt"), "nproc: 2\nmemory: 23.5 GiB\n");
        Files.writeString(results.resolve("commands.txt"),
                "java -jar boundary-benchmarks/target/benchmarks.jar -f 1\n");
        ArrayNode jmh = json.createArrayNode();
        for (int request : new int[] {128, 1024, 16384}) {
            for (int raw : new int[] {1024, 65536}) {
                jmh.add(row("InMemoryBoundaryBenchmark.baseline", "avgt", 1, Map.of("argumentsBytes", request, "rawBytes", raw), 1.5, "us/op", 100));
                // 0.5 µs more per KiB of request: 3.0625 µs at 128 B, 3.5 at 1 KiB, 11 at 16 KiB
                jmh.add(row("InMemoryBoundaryBenchmark.boundary", "avgt", 1, Map.of("argumentsBytes", request, "rawBytes", raw), 3.0 + 0.5 * request / 1024.0, "us/op", 9000));
                jmh.add(row("InMemoryBoundaryBenchmark.boundary", "sample", 1, Map.of("argumentsBytes", request, "rawBytes", raw), 3.6, "us/op", 9000));
            }
        }
        json.writeValue(results.resolve("jmh-inmemory.json").toFile(), jmh);
        jmh = json.createArrayNode();
        for (int raw : new int[] {1024, 65536}) {
            for (int callers : new int[] {1, 8, 32}) {
                String suffix = String.format("%02d", callers);
                jmh.add(row("RedisBoundaryBenchmark.boundary" + suffix, "thrpt", callers, Map.of("rawBytes", raw), 0.6, "ops/ms", 20000));
                jmh.add(row("RedisBoundaryBenchmark.boundary" + suffix, "sample", callers, Map.of("rawBytes", raw), 1.2, "ms/op", 20000));
                jmh.add(row("RedisBoundaryBenchmark.peer" + suffix, "thrpt", callers, Map.of("rawBytes", raw), 1.0, "ops/ms", 8000));
                jmh.add(row("RedisBoundaryBenchmark.peer" + suffix, "sample", callers, Map.of("rawBytes", raw), 0.9, "ms/op", 8000));
            }
        }
        json.writeValue(results.resolve("jmh-redis.json").toFile(), jmh);

        ObjectNode floor = json.createObjectNode();
        ArrayNode floorRows = floor.putArray("results");
        for (int raw : new int[] {1024, 65536}) {
            for (int callers : new int[] {1, 8, 32}) {
                ObjectNode row = floorRows.addObject().put("rawBytes", raw).put("callers", callers).put("floorRps", 1000.0);
                row.putObject("begin").put("rps", 2000.0).put("p50Ms", 0.1).put("p99Ms", 0.3);
                row.putObject("complete").put("rps", 2000.0).put("p50Ms", 0.1).put("p99Ms", 0.3);
            }
        }
        json.writeValue(results.resolve("floor.json").toFile(), floor);

        ObjectNode memory = json.createObjectNode();
        ArrayNode memoryRows = memory.putArray("results");
        memoryRows.addObject().put("rawBytes", 1024).put("records", 10).put("payloadBytes", 2304)
                .put("memoryUsageBytes", 3204.0).put("overheadBytes", 900.0).put("rawAllocatorSlackBytes", 240)
                .put("metadataFieldBytes", 299).put("usedMemoryPerRecordBytes", 3300.0)
                .put("peerMemoryUsageBytes", 2648.0).put("peerOverheadBytes", 344.0)
                .put("boundaryServerMicrosPerCall", 60.0).put("peerServerMicrosPerCall", 12.0)
                .put("luaArgumentMicros", 9.0).put("plainSetMicros", 2.5);
        memoryRows.addObject().put("rawBytes", 65536).put("records", 10).put("payloadBytes", 66816)
                .put("memoryUsageBytes", 83816.0).put("overheadBytes", 17000.0).put("rawAllocatorSlackBytes", 16368)
                .put("metadataFieldBytes", 300).put("usedMemoryPerRecordBytes", 84000.0)
                .put("peerMemoryUsageBytes", 82008.0).put("peerOverheadBytes", 15192.0)
                .put("boundaryServerMicrosPerCall", 150.0).put("peerServerMicrosPerCall", 50.0);
        json.writeValue(results.resolve("memory.json").toFile(), memory);
        return results;
    }

    private ObjectNode row(String benchmark, String mode, int threads, Map<String, Integer> params, double score,
            String unit, double allocated) {
        ObjectNode row = json.createObjectNode();
        row.put("benchmark", "io.toolboundary.benchmarks." + benchmark).put("mode", mode).put("threads", threads);
        ObjectNode p = row.putObject("params");
        params.forEach((name, value) -> p.put(name, Integer.toString(value)));
        ObjectNode primary = row.putObject("primaryMetric").put("score", score).put("scoreError", 0.1)
                .put("scoreUnit", unit);
        primary.putObject("scorePercentiles").put("50.0", score).put("99.0", score * 2);
        row.putObject("secondaryMetrics").putObject("gc.alloc.rate.norm").put("score", allocated)
                .put("scoreUnit", "B/op");
        return row;
    }
}
