package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {

    private final ObjectMapper json = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void writesTheTargetTableWithMediansRangesAndWhatIsLeft() throws Exception {
        Path results = results("quick");

        ReportWriter.write(results, dir.resolve("BENCHMARKS.md"), dir.resolve("charts"));

        String report = Files.readString(dir.resolve("BENCHMARKS.md"));
        assertThat(report)
                .contains("| nproc | 2 |")
                .contains("java -jar boundary-benchmarks/target/benchmarks.jar")
                // boundary forks 1.6, 1.7, 1.8 µs less the baseline's median 0.1 µs
                // the hand-rolled map's forks 1.0, 1.1, 1.2 µs less the same baseline
                .contains("| in-memory overhead, 128 B request, 1 KiB raw | 1.60 (1.50–1.70) µs | ≤ 1.5 µs | 1.00"
                        + " (0.900–1.10) µs (a hand-rolled map making the decisions the record needs: JSON check and"
                        + " fingerprint, one call per id, run budget, raw response's byte limit, expiry) | **missed** |")
                .contains("The hand-rolled map takes 1.00 µs, so the boundary's own work beyond the decisions the record"
                        + " needs is 0.600 µs")
                .contains("| 128 B | 1 KiB | 0.100 (0.090–0.110) | 1.70 (1.60–1.80) | 1.60 (1.50–1.70) | 1.00 (0.900–1.10) |")
                // 3,000 B per call against the baseline's 100 B
                .contains("| in-memory allocation per call over the direct call | 2,900 (2,900–2,900) B | ≤ 1 KiB | — |")
                // the warm JVM's calls 24, 25, 26 µs, its scripts without checks 16, 17, 18 µs; replayed back to
                // back 32.1 µs; commands alone 9 + 4 µs, the SET 2 µs; empty scripts 5 and 3 µs
                .contains("| Redis server time per successful call from one warm caller (commandstats), 1 KiB raw |"
                        + " 25.0 (24.0–26.0) µs | ≤ 15 µs | 17.0 (16.0–18.0) µs (the same commands with no check in the"
                        + " scripts, sent by the same warm caller); 32.1 µs (the call's commands back to back);"
                        + " 15.0 µs (the same commands with no check in the scripts, back to back); 8.00 µs (two empty"
                        + " scripts with the store's keys and arguments) | **missed** |")
                .contains("| same, 64 KiB raw | 25.0 (24.0–26.0) µs | ≤ 15 µs | 17.0 (16.0–18.0) µs (the same commands"
                        + " with no check in the scripts, sent by the same warm caller); 32.1 µs (the call's commands"
                        + " back to back); 15.0 µs (the same commands with no check in the scripts, back to back);"
                        + " 8.00 µs (two empty scripts with the store's keys and arguments) | **missed** |")
                .contains("From the same warm caller, the call's commands sent with none of the boundary's work between"
                        + " them take 23.0 (22.0–24.0) µs, and the same commands in scripts without their checks 17.0"
                        + " (16.0–18.0) µs, already over the 15 µs target.")
                .contains("The same thread then sent the boundary's commands alone, with none of its work between them"
                        + " (`StoreCommands`): 23.0 (22.0–24.0) µs per call; and the same commands in scripts without"
                        + " their checks (the *commands alone* of *Where the scripts' time goes*): 17.0 (16.0–18.0) µs.")
                // boundary 8 callers / 1.6 ms = 5,000 calls/s against the peer's 8 / 0.8 ms = 10,000 and its own
                // commands' 8 / 1.2 ms = 6,667; CPU per call 150 + 50 µs against 95 + 30 µs (medians of 140, 150,
                // 160 and 85, 95, 105 in the client)
                .contains("| boundary / hand-rolled peer on the same client, 8 callers, 1 KiB raw | 0.50 (0.50–0.50) | ≥ 0.8"
                        + " | 0.67 (0.67–0.67) (the boundary's commands alone, sent the same way on the same client);"
                        + " 0.63 (the peer's CPU time per call over the boundary's, client and server) | **missed** |")
                .contains("| boundary / hand-rolled peer on the same client, 32 callers, 64 KiB raw | 0.50 (0.50–0.50) | ≥ 0.8"
                        + " | 0.67 (0.67–0.67) (the boundary's commands alone, sent the same way on the same client)"
                        + " | **missed** |")
                .contains("The boundary's commands alone, sent the same way on the same client with no boundary work"
                        + " between them, make 6,667 calls/s: the boundary makes 0.75 of that, and those commands 0.67"
                        + " of the peer's.")
                // 5,000 against a floor of 1 / (1/20,000 + 1/20,000) = 10,000
                .contains("| boundary / floor (redis-benchmark, same scripts), 8 callers, 1 KiB | 0.50 (0.50–0.50) | ≥ 0.5 | — | met |")
                // used_memory 100 B above MEMORY USAGE in each repeat
                .contains("| Redis used_memory growth per call over payload, run state included, 1 KiB raw | 800"
                        + " (750–850) B | ≤ 500 B | 610 (600–620) B (the cheapest other layout measured:"
                        + " one string per record); 370 (370–370) B (the peer's string) | **missed** |")
                .contains("| 1 KiB | one string per record | 610 (600–620) |")
                // the packed hash 29, 31, 33 µs for begin and complete against one string's 27, 30, 33 µs
                .contains("the least any took is 610 B (one string per record); the store keeps its packed hash, which"
                        + " took 31.0 µs for begin and complete in this run against 30.0 µs for one string, the repeats'"
                        + " ranges overlapping (29.0–33.0 and 27.0–33.0 µs) (see *Record layouts side by side*).")
                .contains("## Where the scripts' time goes")
                .contains("| begin.lua | the store's begin.lua | 20.0 (19.0–21.0) | 15.0 | HMGET 1.00, HSET 3.00 |")
                .contains("| 64 KiB | 20.0 | 2.00 | 10.1 | 32.1 |")
                .contains("## Record layouts side by side")
                // begin 20, 21, 22 µs and complete 9, 10, 11 µs in three repeats
                .contains("| packed hash | 21.0 (20.0–22.0) | 10.0 (9.00–11.0) | 31.0 (29.0–33.0) | 1,400 (1,350–1,450)"
                        + " | 1,300 (1,300–1,300) | `toolboundary:{<run>}:call:<id>` hash hashtable 2128 B |")
                .contains("## What is left")
                .contains("one warm caller: 25.0 µs per call, the peer's two SETs 2.00 µs. Replayed back to back from one"
                        + " connection the same commands take 32.1 µs: begin.lua 20.0 µs (its commands alone 9.00 µs, an"
                        + " empty script with its keys and arguments 5.00 µs), the raw response's SET 2.00 µs and"
                        + " complete.lua 10.1 µs")
                .contains("The commands a call's guarantees need cost 15.0 µs inside two scripts before any check, already"
                        + " over the 15 µs target.")
                .contains("CPU time per call: the boundary 150 µs in the client JVM and 50.0 µs in redis-server, the peer"
                        + " 95.0 µs and 30.0 µs")
                .contains("`rec<id>`: hash, listpack, 2,000 B; 12 fields, names 100 B, values beyond the payload 300 B.")
                .doesNotContain("SMOKE RUN")
                .contains("![Redis throughput, raw 1 KiB](charts/redis-throughput-1k.png)")
                .contains("![In-memory overhead against request size](charts/inmemory-overhead.png)");
        assertThat(report.lines().filter(line -> line.startsWith("| ") && line.endsWith(" |")
                && (line.contains("met |") || line.contains("missed** |")) && !line.startsWith("| 1 KiB")))
                .hasSize(12);
        for (String chart : List.of("redis-throughput-1k.png", "redis-throughput-64k.png", "inmemory-overhead.png",
                "redis-server-time.png")) {
            assertThat(dir.resolve("charts").resolve(chart)).isNotEmptyFile();
        }
    }

    @Test
    void marksASmokeRunAsNoMeasurement() throws Exception {
        Path results = results("smoke");

        ReportWriter.write(results, dir.resolve("BENCHMARKS.md"), dir.resolve("charts"));

        assertThat(Files.readString(dir.resolve("BENCHMARKS.md"))).contains("**SMOKE RUN.**")
                .contains("**not measurements**");
    }

    @Test
    void saysNotMeasuredWhereAStepLeftNoResults() throws Exception {
        Path results = Files.createDirectories(dir.resolve("empty"));

        ReportWriter.write(results, dir.resolve("BENCHMARKS.md"), dir.resolve("charts"));

        assertThat(Files.readString(dir.resolve("BENCHMARKS.md")))
                .contains("| boundary / floor (redis-benchmark, same scripts), 8 callers, 1 KiB | n/a | ≥ 0.5 | — | not measured |")
                .contains("Not run.");
    }

    @Test
    void saysWhatTheFreshMemoryLineMeansOnlyWhenTheMachineHasOne() throws Exception {
        Path results = results("quick");
        ReportWriter.write(results, dir.resolve("BENCHMARKS.md"), dir.resolve("charts"));
        assertThat(Files.readString(dir.resolve("BENCHMARKS.md"))).doesNotContain("*fresh memory*");

        Files.writeString(results.resolve("machine.txt"), "nproc: 2\nfresh memory: 10.1 µs per 4 KiB page written"
                + " first, 0.152 µs written again (128 MiB blocks, median of 3)\n");
        ReportWriter.write(results, dir.resolve("BENCHMARKS.md"), dir.resolve("charts"));

        assertThat(Files.readString(dir.resolve("BENCHMARKS.md")))
                .contains("| fresh memory | 10.1 µs per 4 KiB page written first, 0.152 µs written again (128 MiB"
                        + " blocks, median of 3) |")
                .contains("it keeps: 16 pages for a 64 KiB raw response, for the boundary and the peer alike.");
    }

    @Test
    void sizesCompactStringsAsTheJvmHoldsThem() {
        assertThat(ReportData.stringBytes(0)).isEqualTo(40);
        assertThat(ReportData.stringBytes(64)).isEqualTo(104);
        assertThat(ReportData.stringBytes(65)).isEqualTo(112);
    }

    private Path results(String profile) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        Files.writeString(results.resolve("profile.txt"), profile + "\n");
        Files.writeString(results.resolve("machine.txt"), "nproc: 2\nmemory: 23.5 GiB\n");
        Files.writeString(results.resolve("commands.txt"), "java -jar boundary-benchmarks/target/benchmarks.jar -f 3\n");
        ArrayNode inMemory = json.createArrayNode();
        for (int request : new int[] {128, 1024, 16384}) {
            inMemory.add(avgt("baseline", request, new double[] {0.09, 0.1, 0.11}, 100));
            double extra = (request - 128) / 1024.0;
            inMemory.add(avgt("boundary", request, new double[] {1.6 + extra, 1.7 + extra, 1.8 + extra}, 3000));
            inMemory.add(avgt("handRolled", request, new double[] {1.0 + extra, 1.1 + extra, 1.2 + extra}, 700));
        }
        json.writeValue(results.resolve("jmh-inmemory.json").toFile(), inMemory);
        // As bench/run writes them: each run's kinds in files of their own, one JVM each.
        for (int run = 1; run <= 3; run++) {
            Map<String, Double> perCallMillisAt8 = Map.of("boundary", 1.6, "peer", 0.8, "commands", 1.2);
            for (Map.Entry<String, Double> kind : perCallMillisAt8.entrySet()) {
                ArrayNode redis = json.createArrayNode();
                for (int raw : new int[] {1024, 65536}) {
                    for (int callers : new int[] {1, 8, 32}) {
                        redis.add(sample(kind.getKey(), callers, raw, kind.getValue() * callers / 8));
                    }
                }
                json.writeValue(results.resolve("jmh-redis-" + run + "-" + kind.getKey() + ".json").toFile(), redis);
            }
        }
        StringBuilder cpu = new StringBuilder();
        for (int client : new int[] {140, 150, 160}) {
            cpu.append("{\"benchmark\":\"boundary08\",\"threads\":8,\"rawBytes\":1024,\"calls\":1000,")
                    .append("\"clientCpuUsecPerCall\":").append(client).append(",\"serverCpuUsecPerCall\":50}\n")
                    .append("{\"benchmark\":\"peer08\",\"threads\":8,\"rawBytes\":1024,\"calls\":1000,")
                    .append("\"clientCpuUsecPerCall\":").append(client - 55).append(",\"serverCpuUsecPerCall\":30}\n");
        }
        Files.writeString(results.resolve("cpu-redis-1.jsonl"), cpu);
        json.writeValue(results.resolve("floor.json").toFile(), floor());
        json.writeValue(results.resolve("memory.json").toFile(), memory());
        json.writeValue(results.resolve("lua.json").toFile(), lua());
        json.writeValue(results.resolve("layouts.json").toFile(), layouts());
        return results;
    }

    /** One layout, three repeats. */
    private ObjectNode layouts() {
        ObjectNode layouts = json.createObjectNode().put("calls", 1000).put("repeats", 3).put("rawBytes", 1024)
                .put("argumentsBytes", 1024).put("agentResultBytes", 256);
        ArrayNode all = layouts.putArray("layouts");
        ObjectNode packed = all.addObject().put("layout", "PACKED").put("label", "packed hash");
        packed.putObject("oneCall").put("toolboundary:{<run>}:call:<id>", "hash hashtable 2128 B");
        ArrayNode repeats = packed.putArray("repeats");
        ObjectNode string = all.addObject().put("layout", "STRING").put("label", "one string");
        string.putObject("oneCall").put("toolboundary:{<run>}:call:<id>", "string raw 3160 B");
        ArrayNode stringRepeats = string.putArray("repeats");
        for (int rep = 0; rep < 3; rep++) {
            repeats.addObject().put("beginUsecPerCall", 20.0 + rep).put("completeUsecPerCall", 9.0 + rep)
                    .put("usedMemoryOverPayloadBytes", 1350.0 + 50 * rep).put("memoryUsageOverPayloadBytes", 1300.0);
            stringRepeats.addObject().put("beginUsecPerCall", 18.0 + 2 * rep).put("completeUsecPerCall", 9.0 + rep)
                    .put("usedMemoryOverPayloadBytes", 2400.0).put("memoryUsageOverPayloadBytes", 2300.0);
        }
        return layouts;
    }

    /** Begin: an empty script at 5 µs, the store's at 19 to 21 µs; complete: an empty one at 3 µs. */
    private ObjectNode lua() {
        ObjectNode lua = json.createObjectNode().put("calls", 1000).put("repeats", 3).put("beginArguments", 17)
                .put("beginArgumentBytes", 1500);
        ArrayNode begin = lua.putArray("begin");
        variant(begin, "empty", "an empty script", new double[] {5, 5, 5}, false);
        variant(begin, "begin.lua", "the store's begin.lua", new double[] {19, 20, 21}, true);
        variant(begin, "commands alone", "its commands", new double[] {9, 9, 9}, true);
        ArrayNode complete = lua.putArray("complete");
        variant(complete, "empty", "an empty script", new double[] {3, 3, 3}, false);
        variant(complete, "complete.lua", "the store's complete.lua", new double[] {9, 10, 11}, true);
        variant(complete, "commands alone", "its commands", new double[] {4, 4, 4}, true);
        ArrayNode perCall = lua.putArray("perCall");
        for (int raw : new int[] {1024, 65536}) {
            ObjectNode size = perCall.addObject().put("rawBytes", raw);
            size.putArray("repeats").addObject().put("evalshaUsecPerCall", 20.0).put("setUsecPerCall", 2.0)
                    .put("completeUsecPerCall", 10.1).put("usecPerCall", 32.1);
        }
        return lua;
    }

    private static void variant(ArrayNode variants, String label, String part, double[] micros, boolean inner) {
        ObjectNode variant = variants.addObject().put("label", label).put("part", part);
        ArrayNode repeats = variant.putArray("repeats");
        for (double value : micros) {
            ObjectNode repeat = repeats.addObject().put("usecPerCall", value);
            ObjectNode commands = repeat.putObject("innerUsecPerCall");
            if (inner) {
                commands.put("hmget", 1.0).put("hset", 3.0);
            }
        }
    }

    private ObjectNode floor() {
        ObjectNode floor = json.createObjectNode();
        ArrayNode sizes = floor.putArray("sizes");
        for (int raw : new int[] {1024, 65536}) {
            ObjectNode size = sizes.addObject().put("rawBytes", raw);
            ArrayNode commands = size.putArray("boundaryCommands");
            commands.addObject().put("label", "EVALSHA begin.lua").put("name", "evalsha").put("arguments", 29)
                    .put("argumentBytes", 1561);
            commands.addObject().put("label", "EVALSHA complete.lua").put("name", "evalsha").put("arguments", 16)
                    .put("argumentBytes", 1484);
            size.putArray("boundarySkipped");
            ArrayNode peer = size.putArray("peerCommands");
            peer.addObject().put("label", "SET NX PX").put("name", "set").put("arguments", 5).put("argumentBytes", 1078);
            peer.addObject().put("label", "SET XX KEEPTTL").put("name", "set").put("arguments", 4).put("argumentBytes", 2356);
            size.putArray("peerSkipped");
            ArrayNode repeats = size.putArray("repeats");
            for (int rep = 0; rep < 3; rep++) {
                ObjectNode one = repeats.addObject();
                one.putObject("warmJvm").put("boundaryUsecPerCall", 24.0 + rep).put("peerUsecPerCall", 2.0)
                        .put("commandsUsecPerCall", 22.0 + rep).put("noChecksUsecPerCall", 16.0 + rep);
                ArrayNode boundary = one.putArray("boundary");
                command(boundary, 20 + rep, 20_000).putObject("innerUsecPerRequest").put("hset", 7.0).put("hmget", 4.0);
                command(boundary, 10, 20_000);
                ArrayNode peerReps = one.putArray("peer");
                command(peerReps, 2, 50_000);
                command(peerReps, 2, 50_000);
            }
        }
        return floor;
    }

    private ObjectNode command(ArrayNode commands, double p50, double floorRps) {
        ObjectNode command = commands.addObject();
        ObjectNode server = command.putObject("server").put("p50Usec", p50).put("p99Usec", p50 * 3)
                .put("p999Usec", p50 * 5).put("usecPerCall", p50 * 1.1).put("cpuMainUsecPerRequest", p50 * 2)
                .put("rps", 10_000.0);
        command.putArray("floors").addObject().put("callers", 8).put("rps", floorRps);
        return server;
    }

    private ObjectNode memory() {
        ObjectNode memory = json.createObjectNode();
        ArrayNode sizes = memory.putArray("sizes");
        for (int raw : new int[] {1024, 65536}) {
            ObjectNode size = sizes.addObject().put("rawBytes", raw).put("records", 10).put("payloadBytes", 2330.0)
                    .put("rawAllocatorSlackBytes", 240);
            size.putArray("oneCallKeys").addObject().put("key", "rec<id>").put("type", "hash").put("encoding", "listpack")
                    .put("memoryUsageBytes", 2000).put("fields", 12).put("fieldNameBytes", 100).put("valueBytes", 2600)
                    .put("payloadValueBytes", 2300);
            ArrayNode repeats = size.putArray("repeats");
            for (double overhead : new double[] {650, 700, 750}) {
                repeats.addObject().put("perRecordBytes", 2330 + overhead).put("overheadBytes", overhead)
                        .put("addedKeysPerRecordBytes", 2900.0).put("runKeysGrowthPerRecordBytes", 80.0)
                        .put("usedMemoryPerRecordBytes", 2330 + overhead + 100)
                        .put("peerOverheadBytes", 344.0).put("peerPerRecordBytes", 2674.0);
            }
            ObjectNode alternatives = size.putObject("alternatives");
            alternatives.putArray("one string per record").add(600.0).add(610.0).add(620.0);
            alternatives.putArray("hand-rolled peer: one string").add(370.0).add(370.0).add(370.0);
        }
        return memory;
    }

    private ObjectNode avgt(String method, int request, double[] forks, double allocated) {
        ObjectNode row = json.createObjectNode();
        row.put("benchmark", "io.toolboundary.benchmarks.InMemoryBoundaryBenchmark." + method).put("mode", "avgt")
                .put("threads", 1);
        row.putObject("params").put("argumentsBytes", Integer.toString(request)).put("rawBytes", "1024");
        ObjectNode primary = row.putObject("primaryMetric").put("score", forks[1]).put("scoreUnit", "us/op");
        ArrayNode raw = primary.putArray("rawData");
        ArrayNode alloc = row.putObject("secondaryMetrics").putObject("gc.alloc.rate.norm").putArray("rawData");
        for (double fork : forks) {
            raw.addArray().add(fork).add(fork);
            alloc.addArray().add(allocated);
        }
        return row;
    }

    private ObjectNode sample(String kind, int callers, int raw, double millis) {
        ObjectNode row = json.createObjectNode();
        row.put("benchmark", "io.toolboundary.benchmarks.RedisBoundaryBenchmark." + ReportData.method(kind, callers))
                .put("mode", "sample").put("threads", callers);
        row.putObject("params").put("rawBytes", Integer.toString(raw));
        ObjectNode primary = row.putObject("primaryMetric").put("score", millis).put("scoreUnit", "ms/op");
        primary.putArray("rawDataHistogram").addArray().addArray().addArray().add(millis).add(100);
        row.putObject("secondaryMetrics").putObject("gc.alloc.rate.norm").putArray("rawData").addArray().add(9000.0);
        return row;
    }
}
