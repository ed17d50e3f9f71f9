package io.toolboundary.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** The report's detail sections, each a table of medians and ranges, with its chart. */
final class ReportSections {

    static final int[] REQUEST_BYTES = {128, 1024, 16384};

    private final ReportData data;
    private final StringBuilder md;
    private final Path charts;
    private final Path reportFolder;

    ReportSections(ReportData data, StringBuilder md, Path charts, Path reportFolder) {
        this.data = data;
        this.md = md;
        this.charts = charts;
        this.reportFolder = reportFolder;
    }

    void inMemory() throws IOException {
        md.append("## In-memory store: what `ToolBoundary.invoke` adds\n\n");
        md.append("`boundary`: `ToolBoundary.invoke` on `InMemoryCanonicalInvocationStore`; `hand-rolled`: the same"
                + " call on a `ConcurrentHashMap` that makes only the decisions the record needs (`HandRolledInMemory`);"
                + " `baseline`: the same fake executor and projector called directly. Agent result "
                + Payloads.AGENT_RESULT_BYTES + " B. Mean µs per call (AverageTime) and bytes allocated per call"
                + " (`-prof gc`), median (min–max) over forks (the boundary and the hand-rolled map in one JMH run, the"
                + " baseline in one of its own: the boundary needs a longer warmup); overhead: each fork less the"
                + " baseline's median; p50/p99 from SampleTime where it ran.\n\n");
        md.append("| request | raw | baseline µs | boundary µs | overhead µs | hand-rolled overhead µs | p50 µs | p99 µs"
                + " | baseline B/call | boundary B/call | beyond the record's strings B/call |"
                + "\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        XYChart chart = new XYChartBuilder().width(900).height(520).title("In-memory store: boundary overhead per call")
                .xAxisTitle("request size (bytes, log scale)").yAxisTitle("overhead over a direct call (µs)").build();
        chart.getStyler().setXAxisLogarithmic(true).setXAxisDecimalPattern("#,###")
                .setLegendPosition(Styler.LegendPosition.InsideNW).setMarkerSize(8)
                .setChartBackgroundColor(java.awt.Color.WHITE);
        boolean any = false;
        for (int raw : RedisFloor.RAW_BYTES) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> lowest = new ArrayList<>();
            List<Double> highest = new ArrayList<>();
            for (int request : REQUEST_BYTES) {
                Spread boundary = data.inMemoryMicros("boundary", request, raw);
                if (!boundary.measured()) {
                    continue;
                }
                Spread overhead = data.inMemoryOverhead(request, raw);
                md.append("| ").append(Fmt.kib(request)).append(" | ").append(Fmt.kib(raw))
                        .append(" | ").append(data.inMemoryMicros("baseline", request, raw).format(Fmt::num))
                        .append(" | ").append(boundary.format(Fmt::num))
                        .append(" | ").append(overhead.format(Fmt::num))
                        .append(" | ").append(data.handRolledOverhead(request, raw).format(Fmt::num))
                        .append(" | ").append(data.inMemoryPercentile(request, raw, false).format(Fmt::num))
                        .append(" | ").append(data.inMemoryPercentile(request, raw, true).format(Fmt::num))
                        .append(" | ").append(data.inMemoryAllocation("baseline", request, raw).format(Fmt::whole))
                        .append(" | ").append(data.inMemoryAllocation("boundary", request, raw).format(Fmt::whole))
                        .append(" | ").append(data.allocationBeyondRecord(request, raw).format(Fmt::whole)).append(" |\n");
                x.add((double) request);
                y.add(overhead.median());
                lowest.add(overhead.min());
                highest.add(overhead.max());
            }
            if (!x.isEmpty()) {
                chart.addSeries("raw " + Fmt.kib(raw) + ", median", x, y);
                chart.addSeries("raw " + Fmt.kib(raw) + ", fastest fork", x, lowest)
                        .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                chart.addSeries("raw " + Fmt.kib(raw) + ", slowest fork", x, highest)
                        .setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                any = true;
            }
        }
        if (!any) {
            md.append("\nNot run.\n\n");
            return;
        }
        md.append("\n![In-memory overhead against request size](").append(save(chart, "inmemory-overhead"))
                .append(")\n\n");
    }

    void throughput() throws IOException {
        md.append("## Redis through the client: boundary, hand-rolled peer and floor\n\n");
        md.append("Arguments " + Fmt.kib(Payloads.REDIS_REQUEST_BYTES) + ", agent result " + Payloads.AGENT_RESULT_BYTES
                + " B. Calls per second: callers / mean time of a call (SampleTime; each caller starts its next call when"
                + " its last one ends); p50 and p99 of one call in ms; median (min–max) over runs. boundary / peer pairs"
                + " each run's boundary with the same run's peer. Floor: `1 / sum(1 / rate)` over the call's captured"
                + " commands, each replayed by `redis-benchmark` at the same number of connections (see the server"
                + " section); the peer's floor is its two SETs the same way.\n\n");
        for (int raw : RedisFloor.RAW_BYTES) {
            md.append("| raw | callers | boundary calls/s | p50 ms | p99 ms | peer calls/s | p50 ms | p99 ms | boundary / peer"
                    + " | floor calls/s | boundary / floor | peer floor calls/s | boundary B/call | peer B/call |\n"
                    + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            List<String> categories = new ArrayList<>();
            List<List<Double>> series = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            for (int callers : RedisFloor.CALLERS) {
                md.append("| ").append(Fmt.kib(raw)).append(" | ").append(callers)
                        .append(" | ").append(data.redisRps("boundary", callers, raw).format(Fmt::whole))
                        .append(" | ").append(data.redisLatencyMillis("boundary", callers, raw, false).format(Fmt::num))
                        .append(" | ").append(data.redisLatencyMillis("boundary", callers, raw, true).format(Fmt::num))
                        .append(" | ").append(data.redisRps("peer", callers, raw).format(Fmt::whole))
                        .append(" | ").append(data.redisLatencyMillis("peer", callers, raw, false).format(Fmt::num))
                        .append(" | ").append(data.redisLatencyMillis("peer", callers, raw, true).format(Fmt::num))
                        .append(" | ").append(data.peerRatio(callers, raw).format(Fmt::ratio))
                        .append(" | ").append(data.floorRps("boundary", callers, raw).format(Fmt::whole))
                        .append(" | ").append(data.floorRatio(callers, raw).format(Fmt::ratio))
                        .append(" | ").append(data.floorRps("peer", callers, raw).format(Fmt::whole))
                        .append(" | ").append(data.redisAllocation("boundary", callers, raw).format(Fmt::whole))
                        .append(" | ").append(data.redisAllocation("peer", callers, raw).format(Fmt::whole)).append(" |\n");
                categories.add(Fmt.callers(callers));
                series.get(0).add(zero(data.redisRps("boundary", callers, raw).median()));
                series.get(1).add(zero(data.redisRps("peer", callers, raw).median()));
                series.get(2).add(zero(data.floorRps("boundary", callers, raw).median()));
                series.get(3).add(zero(data.floorRps("peer", callers, raw).median()));
            }
            CategoryChart chart = new CategoryChartBuilder().width(900).height(520)
                    .title("Redis, raw " + Fmt.kib(raw) + ": calls per second against callers (median)")
                    .xAxisTitle("concurrent callers").yAxisTitle("calls per second").build();
            chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW).setChartBackgroundColor(java.awt.Color.WHITE);
            chart.addSeries("boundary", categories, series.get(0));
            chart.addSeries("hand-rolled peer", categories, series.get(1));
            chart.addSeries("floor: the boundary's commands in redis-benchmark", categories, series.get(2));
            chart.addSeries("floor: the peer's SETs in redis-benchmark", categories, series.get(3));
            md.append("\n![Redis throughput, raw ").append(Fmt.kib(raw)).append("](")
                    .append(save(chart, "redis-throughput-" + (raw / 1024) + "k")).append(")\n\n");
        }
    }

    void server() throws IOException {
        md.append("## Redis server time per call\n\n");
        md.append("One warm boundary call and one peer call were captured with `MONITOR` on the benchmark's own server;"
                + " each captured command is replayed by `redis-benchmark -c 1` on call ids of its own, the commands"
                + " before it having run for those ids first. p50, p99 and p99.9: `INFO latencystats`; mean:"
                + " `INFO commandstats` (usec / calls); both the command's execution only, a script's own commands"
                + " included; latencystats counts whole microseconds. CPU: the main thread's `used_cpu_sys_main_thread + used_cpu_user_main_thread` per"
                + " request, which also counts reading, parsing and answering it. Median (min–max) over repeats.\n\n");
        List<String> categories = new ArrayList<>();
        List<List<Double>> stacked = new ArrayList<>();
        for (int raw : RedisFloor.RAW_BYTES) {
            for (String kind : List.of("boundary", "peer")) {
                List<JsonNode> commands = data.commands(kind, raw);
                if (commands.isEmpty()) {
                    continue;
                }
                md.append("**").append(kind).append(", raw ").append(Fmt.kib(raw)).append("**");
                List<String> skipped = data.skipped(kind, raw);
                if (!skipped.isEmpty()) {
                    md.append(" (not replayed: ").append(String.join(", ", skipped)).append(")");
                }
                md.append("\n\n| command | arguments | argument bytes | p50 µs | p99 µs | p99.9 µs | mean µs | main-thread"
                        + " CPU µs | calls/s, 1 connection |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
                categories.add(kind + ", " + Fmt.kib(raw));
                for (int k = 0; k < commands.size(); k++) {
                    JsonNode command = commands.get(k);
                    md.append("| ").append(TargetTable.label(command)).append(" | ").append(command.path("arguments").asInt())
                            .append(" | ").append(Fmt.whole(command.path("argumentBytes").asDouble()))
                            .append(" | ").append(data.command(kind, raw, k, "p50Usec").format(Fmt::num))
                            .append(" | ").append(data.command(kind, raw, k, "p99Usec").format(Fmt::num))
                            .append(" | ").append(data.command(kind, raw, k, "p999Usec").format(Fmt::num))
                            .append(" | ").append(data.command(kind, raw, k, "usecPerCall").format(Fmt::num))
                            .append(" | ").append(data.command(kind, raw, k, "cpuMainUsecPerRequest").format(Fmt::num))
                            .append(" | ").append(data.command(kind, raw, k, "rps").format(Fmt::whole)).append(" |\n");
                    while (stacked.size() <= k) {
                        stacked.add(new ArrayList<>());
                    }
                }
                md.append("| **per call** | | | ").append(data.perCall(kind, raw, "p50Usec").format(Fmt::num))
                        .append(" | | | ").append(data.perCall(kind, raw, "usecPerCall").format(Fmt::num))
                        .append(" | ").append(data.perCall(kind, raw, "cpuMainUsecPerRequest").format(Fmt::num))
                        .append(" | |\n\n");
                for (int k = 0; k < stacked.size(); k++) {
                    stacked.get(k).add(k < commands.size() ? zero(data.command(kind, raw, k, "p50Usec").median()) : 0.0);
                }
            }
            md.append(String.format("The warm JVM's own calls, one thread, raw %s (commandstats of the commands each call sends, each counted once,"
                    + " mean): boundary %s µs per call, peer %s µs; main-thread CPU %s µs and %s µs. These include time"
                    + " the server thread waited for a core the client held.", Fmt.kib(raw),
                    data.warmJvm(raw, "boundaryUsecPerCall").format(Fmt::num), data.warmJvm(raw, "peerUsecPerCall").format(Fmt::num),
                    data.warmJvm(raw, "boundaryCpuMainUsecPerCall").format(Fmt::num),
                    data.warmJvm(raw, "peerCpuMainUsecPerCall").format(Fmt::num)));
            if (data.warmJvm(raw, "noChecksUsecPerCall").measured()) {
                md.append(String.format(" The same thread then sent the boundary's commands alone, with none of its"
                        + " work between them (`StoreCommands`): %s µs per call; and the same commands in scripts"
                        + " without their checks (the *commands alone* of *Where the scripts' time goes*): %s µs.",
                        data.warmJvm(raw, "commandsUsecPerCall").format(Fmt::num),
                        data.warmJvm(raw, "noChecksUsecPerCall").format(Fmt::num)));
            }
            md.append("\n\n");
        }
        if (categories.isEmpty()) {
            md.append("Not run.\n\n");
            return;
        }
        CategoryChart chart = new CategoryChartBuilder().width(900).height(520)
                .title("Redis server time per call: p50 of each captured command, stacked (median)")
                .xAxisTitle("").yAxisTitle("µs").build();
        chart.getStyler().setStacked(true).setLegendPosition(Styler.LegendPosition.InsideNW)
                .setChartBackgroundColor(java.awt.Color.WHITE);
        for (int k = 0; k < stacked.size(); k++) {
            List<String> labels = new ArrayList<>();
            for (String kind : List.of("boundary", "peer")) {
                List<JsonNode> commands = data.commands(kind, RedisFloor.RAW_BYTES[0]);
                if (k < commands.size()) {
                    labels.add(commands.get(k).path("label").asText());
                }
            }
            chart.addSeries("command " + (k + 1) + ": " + String.join(" / ", labels), categories, stacked.get(k));
        }
        md.append("![Redis server time per call](").append(save(chart, "redis-server-time")).append(")\n\n");
    }

    void memory() {
        md.append("## Redis memory per record\n\n");
        md.append("`MEMORY USAGE key SAMPLES 0` of every key a run's calls add under the run's hash tag, plus what the"
                + " run's own keys (there when it was opened) grew by, per call; the payload (arguments, raw response,"
                + " agent result, run id and tool_call_id) subtracted. The peer's keys the same way. *used_memory*: `INFO"
                + " memory` growth per call (`used_memory` less the clients' buffers, `mem_clients_normal`). *Raw allocator slack*: a plain string holding only the raw response, less its"
                + " bytes and an empty string. Median (min–max) over repeats.\n\n");
        md.append("| raw | payload B | per record B | over payload B | keys added B | run's keys grew B | used_memory B"
                + " | peer per record B | peer over payload B | raw allocator slack B |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        boolean any = false;
        for (int raw : RedisFloor.RAW_BYTES) {
            if (data.memorySize(raw).isEmpty()) {
                continue;
            }
            any = true;
            JsonNode size = data.memorySize(raw).get();
            md.append("| ").append(Fmt.kib(raw)).append(" | ").append(Fmt.whole(size.path("payloadBytes").asDouble()));
            for (String field : List.of("perRecordBytes", "overheadBytes", "addedKeysPerRecordBytes",
                    "runKeysGrowthPerRecordBytes", "usedMemoryPerRecordBytes", "peerPerRecordBytes", "peerOverheadBytes")) {
                md.append(" | ").append(data.memory(raw, field).format(Fmt::whole));
            }
            md.append(" | ").append(Fmt.whole(size.path("rawAllocatorSlackBytes").asDouble())).append(" |\n");
        }
        if (!any) {
            md.append("\nNot run.\n\n");
            return;
        }
        md.append("\nThe keys of one call:\n\n| raw | key | type | encoding | MEMORY USAGE B | fields | field names B"
                + " | values B | of which payload B |\n|---:|---|---|---|---:|---:|---:|---:|---:|\n");
        for (int raw : RedisFloor.RAW_BYTES) {
            data.memorySize(raw).ifPresent(size -> size.path("oneCallKeys").forEach(key -> md.append("| ")
                    .append(Fmt.kib(raw)).append(" | `").append(key.path("key").asText()).append("` | ")
                    .append(key.path("type").asText()).append(" | ").append(key.path("encoding").asText())
                    .append(" | ").append(Fmt.whole(key.path("memoryUsageBytes").asDouble()))
                    .append(" | ").append(key.path("fields").asInt())
                    .append(" | ").append(Fmt.whole(key.path("fieldNameBytes").asDouble()))
                    .append(" | ").append(Fmt.whole(key.path("valueBytes").asDouble()))
                    .append(" | ").append(Fmt.whole(key.path("payloadValueBytes").asDouble())).append(" |\n")));
        }
        md.append("\nOther layouts, side by side on the same server: each written directly with the commands it"
                + " would take, for the same calls, with values of the sizes the store's record holds; `used_memory`"
                + " growth per call over the payload, run state included. The store's own calls, for comparison, grow"
                + " `used_memory` by the *used_memory* column above less the payload.\n\n| raw | layout | used_memory over"
                + " payload B per call |\n|---:|---|---:|\n");
        for (int raw : RedisFloor.RAW_BYTES) {
            md.append("| ").append(Fmt.kib(raw)).append(" | the store's calls | ")
                    .append(data.usedMemoryOverPayload(raw).format(Fmt::whole)).append(" |\n");
            data.memoryAlternatives(raw).forEach((layout, spread) -> md.append("| ").append(Fmt.kib(raw)).append(" | ")
                    .append(layout).append(" | ").append(spread.format(Fmt::whole)).append(" |\n"));
        }
        md.append("\n");
    }

    /** The record layouts side by side: server time per call of begin and complete, and memory per call. */
    void layouts() {
        md.append("## Record layouts side by side\n\n");
        if (data.layouts().isEmpty()) {
            md.append("Not run.\n\n");
            return;
        }
        md.append("`LayoutCompare` runs, on one server and in one run, each record layout with its own begin and complete"
                + " scripts (the run's part of begin, its checks, counters, ledger and lease, the same in all), as a"
                + " successful call sends them: begin, the raw response's `SET ... XX KEEPTTL` into the pending key,"
                + " complete; from one connection, pipelined, on new ids, " + data.layouts.path("calls").asInt()
                + " calls per layout and repeat, the layouts interleaved (each repeat starts with another), median (min–max)"
                + " over " + data.layouts.path("repeats").asInt() + " repeats. Arguments "
                + Fmt.kib(data.layouts.path("argumentsBytes").asInt()) + ", raw response "
                + Fmt.kib(data.layouts.path("rawBytes").asInt()) + ", agent result "
                + data.layouts.path("agentResultBytes").asInt() + " B. Time: `INFO commandstats` of each script's"
                + " `EVALSHA` per call (the raw response's `SET` is the same in every layout and left out). Memory:"
                + " `used_memory` growth per call (less the clients' buffers) and `MEMORY USAGE` of the run's keys per"
                + " call (run state included), each over the payload (arguments, raw response, agent result, run id and"
                + " tool_call_id).\n\n| layout | begin µs | complete µs | begin + complete µs | used_memory over payload B"
                + " | MEMORY USAGE over payload B | one call's keys |\n|---|---:|---:|---:|---:|---:|---|\n");
        for (JsonNode layout : data.layouts()) {
            List<String> keys = new ArrayList<>();
            layout.path("oneCall").properties().forEach(e -> keys.add("`" + e.getKey() + "` " + e.getValue().asText()));
            Spread both = data.layoutServerTime(layout);
            md.append("| ").append(layout.path("label").asText())
                    .append(" | ").append(data.layout(layout, "beginUsecPerCall").format(Fmt::num))
                    .append(" | ").append(data.layout(layout, "completeUsecPerCall").format(Fmt::num))
                    .append(" | ").append(both.format(Fmt::num))
                    .append(" | ").append(data.layout(layout, "usedMemoryOverPayloadBytes").format(Fmt::whole))
                    .append(" | ").append(data.layout(layout, "memoryUsageOverPayloadBytes").format(Fmt::whole))
                    .append(" | ").append(String.join("; ", keys)).append(" |\n");
        }
        md.append("\n");
    }

    /** Where begin's and complete's server time goes: each script's parts against an empty script, side by side. */
    void luaBreakdown() {
        md.append("## Where the scripts' time goes\n\n");
        if (data.luaVariants("begin").isEmpty()) {
            md.append("Not run.\n\n");
            return;
        }
        md.append("`LuaBreakdown` captures one real call, then replays its `begin.lua` and `complete.lua` commands, with"
                + " their keys and arguments exactly as the store sent them (" + data.lua.path("beginArguments").asInt()
                + " keys and arguments, " + Fmt.whole(data.lua.path("beginArgumentBytes").asDouble()) + " B, for begin),"
                + " from one connection, pipelined, each on a tool_call_id of its own, against scripts side by side: the"
                + " store's, an empty script, each script's commands alone (constants in"
                + " place of its checks and computed values), and scripts that each do one part of the work. Time per call: `INFO commandstats` (`usec / calls`) of the script, " + data.lua.path("calls")
                .asInt() + " calls per variant, median (min–max) over " + data.lua.path("repeats").asInt() + " repeats,"
                + " the variants interleaved; over the empty script: what the part costs in Lua; inside: the Redis"
                + " commands the script ran, as `commandstats` times them.\n\n");
        for (String kind : List.of("begin", "complete")) {
            Spread empty = data.luaMicros(kind, "empty");
            md.append("**").append(kind).append(".lua**\n\n| script | what it does | µs per call | over the empty script µs"
                    + " | inside, µs per call |\n|---|---|---:|---:|---|\n");
            for (JsonNode variant : data.luaVariants(kind)) {
                String label = variant.path("label").asText();
                Spread micros = data.luaMicros(kind, label);
                String inner = data.luaInner(kind, label).entrySet().stream()
                        .map(e -> e.getKey().toUpperCase() + " " + Fmt.num(e.getValue()))
                        .collect(java.util.stream.Collectors.joining(", "));
                md.append("| ").append(label).append(" | ").append(variant.path("part").asText()).append(" | ")
                        .append(micros.format(Fmt::num)).append(" | ")
                        .append(label.equals("empty") ? "—" : Fmt.num(micros.median() - empty.median())).append(" | ")
                        .append(inner.isEmpty() ? "—" : inner).append(" |\n");
            }
            md.append("\n");
        }
        md.append("A successful call replayed as the store sends it: begin, then `SET ... XX KEEPTTL` of the raw"
                + " response and `EVALSHA complete.lua` in one pipeline. µs per call from `commandstats`, begin read apart"
                + " from the completion. Pipelined, as above, and on ids that stay: the server-time section's replay sends"
                + " each command alone, one request at a time.\n\n| raw | begin µs | SET µs | complete µs | per call µs"
                + " |\n|---:|---:|---:|---:|---:|\n");
        for (int raw : RedisFloor.RAW_BYTES) {
            md.append("| ").append(Fmt.kib(raw));
            for (String field : List.of("evalshaUsecPerCall", "setUsecPerCall", "completeUsecPerCall", "usecPerCall")) {
                md.append(" | ").append(data.luaPerCall(raw, field).format(Fmt::num));
            }
            md.append(" |\n");
        }
        md.append("\n");
    }

    private static double zero(double value) {
        return Double.isFinite(value) ? value : 0.0;
    }

    private String save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, String name) throws IOException {
        Path file = charts.resolve(name + ".png");
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return reportFolder.relativize(file.toAbsolutePath()).toString().replace('\\', '/');
    }
}
