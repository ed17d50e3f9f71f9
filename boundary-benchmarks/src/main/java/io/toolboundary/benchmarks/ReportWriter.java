package io.toolboundary.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.toolboundary.application.AttemptToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Writes {@code BENCHMARKS.md} and its PNG charts from one run's results: the JMH JSON
 * ({@code jmh-inmemory.json}, {@code jmh-redis.json}), the floor ({@code floor.json}), the record memory ({@code memory.json}), and the
 * run's {@code machine.txt}, {@code commands.txt} and {@code profile.txt}, all in one results folder.
 *
 * <p>Usage: {@code ReportWriter <results dir> <report.md> <charts dir>}; chart links in the report are
 * relative to the report's folder.
 */
public final class ReportWriter {

    /** Boundary throughput over the floor's, at 8 callers and a 1 KiB raw response. */
    static final double FLOOR_RATIO_TARGET = 0.5;
    /** Boundary throughput over the peer's. */
    static final double PEER_RATIO_TARGET = 0.8;
    /** Bytes a record may cost in Redis beyond the payload it carries. */
    static final double MEMORY_OVERHEAD_TARGET = 1024;
    /** Microseconds the in-memory boundary may add to a call (128 B request, 1 KiB raw response). */
    static final double OVERHEAD_MICROS_TARGET = 1.0;
    /** Bytes the in-memory boundary may allocate per call beyond the record's own new strings. */
    static final double ALLOCATION_TARGET = 1024;
    /** The least R² of a straight line through overhead against request size for it to count as linear. */
    static final double LINEARITY_TARGET = 0.9;
    /**
     * The strings each call adds to its record, as the JVM holds them (compact Latin-1 strings: a 24 B
     * header and a byte array of 16 B plus the characters, rounded up to 8): the 64-character fingerprint
     * and the attempt token.
     */
    static final double RECORD_STRING_BYTES = stringBytes(64) + stringBytes(AttemptToken.random().value().length());

    private static final String IN_MEMORY = "InMemoryBoundaryBenchmark";
    private static final String REDIS = "RedisBoundaryBenchmark";
    private static final int[] REQUEST_BYTES = {128, 1024, 16384};
    private static final int TARGET_CALLERS = 8;
    private static final int TARGET_RAW = 1024;

    private final Path results;
    private final Path report;
    private final Path charts;
    private final JmhResults jmh;
    private final JsonNode floor;
    private final JsonNode memory;
    private final StringBuilder md = new StringBuilder();
    private final List<String> misses = new ArrayList<>();

    private ReportWriter(Path results, Path report, Path charts) throws IOException {
        this.results = results;
        this.report = report;
        this.charts = charts;
        this.jmh = JmhResults.read(List.of(results.resolve("jmh-inmemory.json"), results.resolve("jmh-redis.json")));
        ObjectMapper mapper = new ObjectMapper();
        this.floor = readJson(mapper, results.resolve("floor.json"));
        this.memory = readJson(mapper, results.resolve("memory.json"));
    }

    /** Writes the report and charts. */
    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: ReportWriter <results dir> <report.md> <charts dir>");
            System.exit(2);
        }
        write(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]));
    }

    /** Writes the report from {@code results} to {@code report}, and the charts into {@code charts}. */
    static void write(Path results, Path report, Path charts) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(charts);
        Path parent = report.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        ReportWriter writer = new ReportWriter(results, report, charts);
        Files.writeString(report, writer.render(), StandardCharsets.UTF_8);
    }

    private String render() throws IOException {
        String profile = text("profile.txt").strip();
        md.append("# Benchmarks\n\n");
        if (profile.startsWith("smoke")) {
            md.append("> **SMOKE RUN.** This report comes from `bench/run --smoke`: iterations and request counts were cut"
                    + " to a fraction of a second to prove the pipeline end to end, on a machine busy with other work."
                    + " The figures below are **not measurements** and no conclusion should be drawn from them."
                    + " Run `bench/run --quick` or `bench/run --full` on a quiet machine for real figures.\n\n");
        }
        md.append("What the boundary costs per tool call: on the in-memory store against calling the same tool and"
                + " projector directly; on Redis against the floor Redis allows for the same two scripts"
                + " (`redis-benchmark` running `begin.lua` and `complete.lua` by EVALSHA) and against a hand-rolled"
                + " two-command idempotency store (`SET NX PX`, then `SET XX KEEPTTL`) on the same Redisson client;"
                + " and what one canonical record costs in Redis memory.\n\n");
        md.append("Profile: `").append(profile.isEmpty() ? "unknown" : profile).append("`.\n\n");
        machine();
        commands();
        targets();
        inMemory();
        redis();
        memory();
        missesSection();
        method();
        return md.toString();
    }

    private void machine() throws IOException {
        md.append("## Machine\n\n| | |\n|---|---|\n");
        for (String line : text("machine.txt").split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                md.append("| ").append(line.substring(0, colon).strip()).append(" | ")
                        .append(line.substring(colon + 1).strip().replace("|", "\\|")).append(" |\n");
            }
        }
        md.append("\nClient and server share these cores: every Redis figure includes the client's CPU competing"
                + " with `redis-server`'s (and, for the floor, `redis-benchmark`'s).\n\n");
    }

    private void commands() throws IOException {
        md.append("## Commands\n\n```\n").append(text("commands.txt").strip()).append("\n```\n\n");
    }

    // ---------------------------------------------------------------- targets

    private void targets() {
        md.append("## Targets\n\n| target | measured | |\n|---|---|---|\n");
        Optional<JmhResults.Row> base = inMemoryRow("baseline", 128, TARGET_RAW);
        Optional<JmhResults.Row> bound = inMemoryRow("boundary", 128, TARGET_RAW);
        targetRow("in-memory overhead ≤ " + num(OVERHEAD_MICROS_TARGET) + " µs (request 128 B, raw 1 KiB)",
                base.isPresent() && bound.isPresent()
                        ? OptionalDouble.of(bound.get().score() - base.get().score()) : OptionalDouble.empty(),
                OVERHEAD_MICROS_TARGET, false, "overhead");
        Optional<Double> allocated = difference(bound, base);
        targetRow("in-memory allocation ≤ 1 KiB per call beyond the record's own strings (request 128 B, raw 1 KiB)",
                allocated.isPresent() ? OptionalDouble.of(allocated.get() - RECORD_STRING_BYTES) : OptionalDouble.empty(),
                ALLOCATION_TARGET, false, "allocation");
        for (int raw : RedisFloor.RAW_BYTES) {
            Optional<double[]> fit = overheadFit(raw);
            md.append("| in-memory overhead linear in request size (raw ").append(kib(raw)).append("; R² ≥ ")
                    .append(num(LINEARITY_TARGET)).append(") | ")
                    .append(fit.map(f -> String.format(Locale.ROOT, "%s µs per KiB of request, R² %.3f", num(f[0] * 1024),
                            f[2])).orElse("n/a"))
                    .append(" | ").append(fit.map(f -> f[2] >= LINEARITY_TARGET ? "met" : "**missed**").orElse("not measured"))
                    .append(" |\n");
        }
        OptionalDouble floorRatio = floorRatio(TARGET_RAW, TARGET_CALLERS);
        targetRow("boundary / floor ≥ " + FLOOR_RATIO_TARGET + " (8 callers, raw 1 KiB)", floorRatio,
                FLOOR_RATIO_TARGET, true, "floor");
        OptionalDouble peerRatio = peerRatio(TARGET_RAW, TARGET_CALLERS);
        targetRow("boundary / peer ≥ " + PEER_RATIO_TARGET + " (8 callers, raw 1 KiB)", peerRatio,
                PEER_RATIO_TARGET, true, "peer");
        for (int raw : RedisFloor.RAW_BYTES) {
            for (int callers : RedisFloor.CALLERS) {
                if (raw == TARGET_RAW && callers == TARGET_CALLERS) {
                    continue;
                }
                targetRow("boundary / peer ≥ " + PEER_RATIO_TARGET + " (" + callers(callers) + ", raw " + kib(raw) + ")",
                        peerRatio(raw, callers), PEER_RATIO_TARGET, true, "peer");
            }
        }
        for (JsonNode row : memoryRows()) {
            int raw = row.path("rawBytes").asInt();
            targetRow("record overhead ≤ 1 KiB (raw " + kib(raw) + ")",
                    OptionalDouble.of(row.path("overheadBytes").asDouble()), MEMORY_OVERHEAD_TARGET, false, "memory");
        }
        md.append("\n");
    }

    private void targetRow(String target, OptionalDouble value, double limit, boolean atLeast, String kind) {
        String measured;
        String verdict;
        if (value.isEmpty()) {
            measured = "n/a";
            verdict = "not measured";
        } else {
            double v = value.getAsDouble();
            measured = switch (kind) {
                case "memory", "allocation" -> String.format(Locale.ROOT, "%,.0f B", v);
                case "overhead" -> num(v) + " µs";
                default -> ratio(v);
            };
            boolean met = atLeast ? v >= limit : v <= limit;
            verdict = met ? "met" : "**missed**";
            if (!met && !misses.contains(kind)) {
                misses.add(kind);
            }
        }
        md.append("| ").append(target).append(" | ").append(measured).append(" | ").append(verdict).append(" |\n");
    }

    // ---------------------------------------------------------------- in-memory

    private void inMemory() throws IOException {
        md.append("## In-memory store: what `ToolBoundary.invoke` adds\n\n");
        md.append("`boundary`: `ToolBoundary.invoke` on `InMemoryCanonicalInvocationStore` (preflight, JSON check and"
                + " fingerprint, begin, execute, byte checks, project, complete). `baseline`: the same fake executor and"
                + " projector called directly. Agent result " + Payloads.AGENT_RESULT_BYTES + " B. Times are the mean"
                + " (AverageTime, ± the 99.9% error) and SampleTime percentiles, in µs per call; allocation from"
                + " `-prof gc` (`gc.alloc.rate.norm`).\n\n");
        if (jmh.select(IN_MEMORY, "boundary", "avgt").isEmpty()) {
            md.append("Not run.\n\n");
            return;
        }
        md.append("| request | raw | baseline µs | boundary µs | overhead µs | boundary p50 µs | boundary p99 µs"
                + " | baseline B/call | boundary B/call | overhead B/call |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<double[]> overheadSeries = new ArrayList<>();
        for (int raw : RedisFloor.RAW_BYTES) {
            double[] overheads = new double[REQUEST_BYTES.length];
            for (int i = 0; i < REQUEST_BYTES.length; i++) {
                int request = REQUEST_BYTES[i];
                Optional<JmhResults.Row> base = jmh.find(IN_MEMORY, "baseline", "avgt", "argumentsBytes", request, "rawBytes", raw);
                Optional<JmhResults.Row> bound = jmh.find(IN_MEMORY, "boundary", "avgt", "argumentsBytes", request, "rawBytes", raw);
                Optional<JmhResults.Row> sample = jmh.find(IN_MEMORY, "boundary", "sample", "argumentsBytes", request, "rawBytes", raw);
                double overhead = bound.isPresent() && base.isPresent() ? bound.get().score() - base.get().score() : Double.NaN;
                overheads[i] = overhead;
                md.append("| ").append(kib(request)).append(" | ").append(kib(raw))
                        .append(" | ").append(base.map(ReportWriter::withError).orElse("n/a"))
                        .append(" | ").append(bound.map(ReportWriter::withError).orElse("n/a"))
                        .append(" | ").append(num(overhead))
                        .append(" | ").append(percentile(sample, "50.0"))
                        .append(" | ").append(percentile(sample, "99.0"))
                        .append(" | ").append(bytes(base.flatMap(JmhResults.Row::allocatedBytesPerCall)))
                        .append(" | ").append(bytes(bound.flatMap(JmhResults.Row::allocatedBytesPerCall)))
                        .append(" | ").append(bytes(difference(bound, base))).append(" |\n");
            }
            overheadSeries.add(overheads);
        }
        XYChart chart = new XYChartBuilder().width(900).height(520)
                .title("In-memory store: boundary overhead per call").xAxisTitle("request size (bytes, log scale)")
                .yAxisTitle("overhead over a direct call (µs)").build();
        chart.getStyler().setXAxisLogarithmic(true).setXAxisDecimalPattern("#,###")
                .setLegendPosition(Styler.LegendPosition.InsideNW)
                .setMarkerSize(8).setChartBackgroundColor(java.awt.Color.WHITE);
        double[] x = {128, 1024, 16384};
        for (int s = 0; s < RedisFloor.RAW_BYTES.length; s++) {
            chart.addSeries("raw " + kib(RedisFloor.RAW_BYTES[s]), x, finite(overheadSeries.get(s)));
        }
        String file = saveChart(chart, "inmemory-overhead");
        md.append("\n![In-memory overhead against request size](").append(file).append(")\n\n");
    }

    // ---------------------------------------------------------------- redis

    private void redis() throws IOException {
        md.append("## Redis store: boundary, hand-rolled peer and floor\n\n");
        md.append("Arguments " + kib(Payloads.REDIS_REQUEST_BYTES) + ", agent result " + Payloads.AGENT_RESULT_BYTES
                + " B, raw response as shown. From SampleTime: p50 and p99 of one call, in ms, and calls per second as"
                + " callers / mean time of a call (each caller starts its next call when its last one ends; ± from the"
                + " mean's 99.9% error). Floor: `1 / (1/begin + 1/complete)` from `redis-benchmark` at the"
                + " same number of connections; its p50/p99 are begin's and complete's added.\n\n");
        if (jmh.select(REDIS, "boundary01", "thrpt").isEmpty() && floorRows().isEmpty()) {
            md.append("Not run.\n\n");
            return;
        }
        md.append("| raw | callers | boundary calls/s | p50 ms | p99 ms | peer calls/s | p50 ms | p99 ms"
                + " | floor calls/s | begin/s | complete/s | floor p50 ms | floor p99 ms | boundary/floor | boundary/peer"
                + " | boundary B/call | peer B/call |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int raw : RedisFloor.RAW_BYTES) {
            List<String> categories = new ArrayList<>();
            List<Double> boundarySeries = new ArrayList<>();
            List<Double> peerSeries = new ArrayList<>();
            List<Double> floorSeries = new ArrayList<>();
            for (int callers : RedisFloor.CALLERS) {
                Optional<JmhResults.Row> bound = redisRow("boundary", callers, "thrpt", raw);
                Optional<JmhResults.Row> boundSample = redisRow("boundary", callers, "sample", raw);
                Optional<JmhResults.Row> peer = redisRow("peer", callers, "thrpt", raw);
                Optional<JmhResults.Row> peerSample = redisRow("peer", callers, "sample", raw);
                Optional<JsonNode> fl = floorRow(raw, callers);
                md.append("| ").append(kib(raw)).append(" | ").append(callers)
                        .append(" | ").append(bound.map(ReportWriter::withErrorWhole).orElse("n/a"))
                        .append(" | ").append(millis(boundSample, "50.0"))
                        .append(" | ").append(millis(boundSample, "99.0"))
                        .append(" | ").append(peer.map(ReportWriter::withErrorWhole).orElse("n/a"))
                        .append(" | ").append(millis(peerSample, "50.0"))
                        .append(" | ").append(millis(peerSample, "99.0"))
                        .append(" | ").append(fl.map(f -> whole(f.path("floorRps").asDouble())).orElse("n/a"))
                        .append(" | ").append(fl.map(f -> whole(f.path("begin").path("rps").asDouble())).orElse("n/a"))
                        .append(" | ").append(fl.map(f -> whole(f.path("complete").path("rps").asDouble())).orElse("n/a"))
                        .append(" | ").append(fl.map(f -> num(f.path("begin").path("p50Ms").asDouble()
                                + f.path("complete").path("p50Ms").asDouble())).orElse("n/a"))
                        .append(" | ").append(fl.map(f -> num(f.path("begin").path("p99Ms").asDouble()
                                + f.path("complete").path("p99Ms").asDouble())).orElse("n/a"))
                        .append(" | ").append(ratioOrNa(floorRatio(raw, callers)))
                        .append(" | ").append(ratioOrNa(peerRatio(raw, callers)))
                        .append(" | ").append(bytes(bound.flatMap(JmhResults.Row::allocatedBytesPerCall)))
                        .append(" | ").append(bytes(peer.flatMap(JmhResults.Row::allocatedBytesPerCall))).append(" |\n");
                categories.add(callers(callers));
                boundarySeries.add(bound.map(JmhResults.Row::score).orElse(0.0));
                peerSeries.add(peer.map(JmhResults.Row::score).orElse(0.0));
                floorSeries.add(fl.map(f -> f.path("floorRps").asDouble()).orElse(0.0));
            }
            CategoryChart chart = new CategoryChartBuilder().width(900).height(520)
                    .title("Redis, raw " + kib(raw) + ": calls per second against callers")
                    .xAxisTitle("concurrent callers").yAxisTitle("calls per second").build();
            chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW).setChartBackgroundColor(java.awt.Color.WHITE);
            chart.addSeries("boundary", categories, boundarySeries);
            chart.addSeries("hand-rolled peer", categories, peerSeries);
            chart.addSeries("floor (redis-benchmark)", categories, floorSeries);
            String file = saveChart(chart, "redis-throughput-" + (raw / 1024) + "k");
            md.append("\n![Redis throughput, raw ").append(kib(raw)).append("](").append(file).append(")\n");
            if (raw != RedisFloor.RAW_BYTES[RedisFloor.RAW_BYTES.length - 1]) {
                md.append("\n| raw | callers | boundary calls/s | p50 ms | p99 ms | peer calls/s | p50 ms | p99 ms"
                        + " | floor calls/s | begin/s | complete/s | floor p50 ms | floor p99 ms | boundary/floor | boundary/peer"
                        + " | boundary B/call | peer B/call |\n");
                md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            }
        }
        md.append("\n");
    }

    // ---------------------------------------------------------------- memory

    private void memory() {
        md.append("## Redis memory per record\n\n");
        List<JsonNode> rows = memoryRows();
        if (rows.isEmpty()) {
            md.append("Not run.\n\n");
            return;
        }
        md.append("`MEMORY USAGE key SAMPLES 0`, mean over " + rows.get(0).path("records").asInt() + " READY records per"
                + " size made by the boundary. Payload: request + raw response + agent result, in UTF-8 bytes."
                + " *Raw allocator slack*: what a plain string key holding only the raw response costs beyond its"
                + " bytes (jemalloc rounds every allocation up to a size class). *Record fields beyond payload*: the"
                + " bytes of the record's own fields and field names (ids, token, fingerprint, timestamps, status)."
                + " *used_memory growth*: `INFO memory` before and after, per record (includes the TTL entry; noisy"
                + " for a few hundred records or fewer).\n\n");
        md.append("| raw | payload B | MEMORY USAGE B | overhead B | raw allocator slack B | overhead without raw slack B"
                + " | record fields beyond payload B | used_memory growth per record B | peer MEMORY USAGE B | peer overhead B |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (JsonNode row : rows) {
            double overhead = row.path("overheadBytes").asDouble();
            double slack = row.path("rawAllocatorSlackBytes").asDouble();
            md.append("| ").append(kib(row.path("rawBytes").asInt()))
                    .append(" | ").append(whole(row.path("payloadBytes").asDouble()))
                    .append(" | ").append(whole(row.path("memoryUsageBytes").asDouble()))
                    .append(" | ").append(whole(overhead))
                    .append(" | ").append(whole(slack))
                    .append(" | ").append(whole(overhead - slack))
                    .append(" | ").append(whole(row.path("metadataFieldBytes").asDouble()))
                    .append(" | ").append(whole(row.path("usedMemoryPerRecordBytes").asDouble()))
                    .append(" | ").append(whole(row.path("peerMemoryUsageBytes").asDouble()))
                    .append(" | ").append(whole(row.path("peerOverheadBytes").asDouble())).append(" |\n");
        }
        md.append("\n### Redis CPU per call\n\n");
        md.append("From `INFO commandstats` over the same calls: the `usec` of the boundary's `EVALSHA`s (both scripts,"
                + " the commands inside included) and of the peer's `SET`s, divided by the calls. This is Redis's own"
                + " work and does not depend on the client's speed.\n\n");
        md.append("*Raw into a script*: a probe, `EVALSHA` of `return 1` with the raw response as its only argument;"
                + " *raw by plain SET*: `SET` of the same bytes. The difference is what carrying the raw response"
                + " through Lua costs before the script does anything.\n\n");
        md.append("| raw | boundary µs | peer µs | boundary / peer | raw into a script µs | raw by plain SET µs |\n"
                + "|---:|---:|---:|---:|---:|---:|\n");
        for (JsonNode row : rows) {
            double boundary = row.path("boundaryServerMicrosPerCall").asDouble(Double.NaN);
            double peer = row.path("peerServerMicrosPerCall").asDouble(Double.NaN);
            md.append("| ").append(kib(row.path("rawBytes").asInt())).append(" | ").append(num(boundary))
                    .append(" | ").append(num(peer)).append(" | ").append(num(boundary / peer))
                    .append(" | ").append(num(row.path("luaArgumentMicros").asDouble(Double.NaN)))
                    .append(" | ").append(num(row.path("plainSetMicros").asDouble(Double.NaN))).append(" |\n");
        }
        md.append("\n");
    }

    // ---------------------------------------------------------------- misses

    private void missesSection() {
        md.append("## What misses a target, and what would close it\n\n");
        if (misses.isEmpty()) {
            md.append("Every measured target is met.\n\n");
            return;
        }
        if (misses.contains("overhead") || misses.contains("allocation")) {
            inMemoryMiss();
        }
        if (misses.contains("floor")) {
            floorMiss();
        }
        if (misses.contains("peer")) {
            peerMiss();
        }
        if (misses.contains("memory")) {
            memoryMiss();
        }
    }

    private void inMemoryMiss() {
        md.append("### In-memory overhead and allocation\n\n");
        md.append("What a call through the boundary does that a direct call does not, in the order it happens:"
                + " check three identifiers character by character; count the arguments' UTF-8 bytes; parse them with"
                + " jackson-core's streaming parser (duplicate keys, depth, number length, surrogates) while writing"
                + " their canonical form into SHA-256 and hex-encoding the digest; draw an attempt token; create the"
                + " record in the store (a lock stripe, the run's state checked for its token and its two budget"
                + " counters raised, a map entry, an expiry entry); count"
                + " the raw response's bytes and check it is Unicode; check the projection's evidence rules and count"
                + " its bytes; build the READY record, whose size is counted again by the record itself and by the"
                + " store; replace the map entry. Each text is counted two to four times, about a quarter of a"
                + " nanosecond per character, and the JSON parser and generator are a new pair of objects per call"
                + " (most of the allocation).\n\n"
                + "What would close it: a JSON validator written for this one job (one pass over the characters that"
                + " checks the grammar and feeds the canonical bytes to the digest, no parser or generator objects);"
                + " records that carry their UTF-8 size once it is known, so that neither the boundary nor the store"
                + " counts the same text twice.\n\n");
    }

    private void floorMiss() {
        md.append("### boundary / floor\n\n");
        Optional<JmhResults.Row> one = redisRow("boundary", 1, "thrpt", TARGET_RAW);
        Optional<JsonNode> floorOne = floorRow(TARGET_RAW, 1);
        Optional<JmhResults.Row> overhead = jmh.find(IN_MEMORY, "boundary", "avgt", "argumentsBytes",
                Payloads.REDIS_REQUEST_BYTES, "rawBytes", TARGET_RAW);
        Optional<JmhResults.Row> baseline = jmh.find(IN_MEMORY, "baseline", "avgt", "argumentsBytes",
                Payloads.REDIS_REQUEST_BYTES, "rawBytes", TARGET_RAW);
        if (one.isPresent() && floorOne.isPresent()) {
            double boundaryMicros = 1e6 / one.get().score();
            double floorMicros = 1e6 / floorOne.get().path("begin").path("rps").asDouble()
                    + 1e6 / floorOne.get().path("complete").path("rps").asDouble();
            md.append(String.format(Locale.ROOT, "With one caller a boundary call takes %.0f µs and the two scripts"
                    + " alone take %.0f µs from `redis-benchmark`, so %.0f µs per call are spent in the JVM client.",
                    boundaryMicros, floorMicros, boundaryMicros - floorMicros));
            if (overhead.isPresent() && baseline.isPresent()) {
                md.append(String.format(Locale.ROOT, " Of that, the boundary's own work (measured on the in-memory"
                        + " store at the same sizes) is %.1f µs; the rest is the Redis client path: encoding two"
                        + " EVALSHA calls of 16 to 23 arguments each, Netty's event loop, the hand-off from the event"
                        + " loop back to the caller's thread, and decoding the list replies.",
                        overhead.get().score() - baseline.get().score()));
            }
            md.append("\n\n");
        }
        memoryRows().stream().filter(row -> row.path("rawBytes").asInt() == TARGET_RAW).findFirst()
                .map(row -> row.path("boundaryServerMicrosPerCall").asDouble(Double.NaN))
                .filter(Double::isFinite)
                .ifPresent(micros -> md.append(String.format(Locale.ROOT, "Redis's own work per boundary call is"
                        + " %.1f µs (`INFO commandstats`), so Redis alone would allow about %,.0f boundary calls per"
                        + " second on its one core; the floor measured at %d connections is %s calls per second.\n\n",
                        micros, 1e6 / micros, TARGET_CALLERS,
                        floorRow(TARGET_RAW, TARGET_CALLERS).map(f -> whole(f.path("floorRps").asDouble())).orElse("n/a"))));
        md.append("On two cores the client's CPU is taken from `redis-server`: every microsecond the JVM spends per call"
                + " is a microsecond Redis cannot spend on the next script. `redis-benchmark` is a few microseconds of C"
                + " per request; no JVM client matches it, so part of this gap is the price of any Java client: the"
                + " hand-rolled peer, two plain commands on the same client, reaches " + peerOverFloor() + " of the"
                + " boundary's floor at 8 callers and 1 KiB.\n\n"
                + "What would close it: (1) run the client on other cores than Redis (in production Redis is on another"
                + " host, and the floor is then Redis's own CPU); (2) cut the client's per-call cost: Redisson encodes"
                + " every script argument into a buffer of its own and checks each for an object reference, so keeping"
                + " the field names in the scripts instead of sending them with every call (about half the arguments)"
                + " and sending the large values as byte arrays would cut it; (3) cut what the scripts call: `begin.lua`"
                + " runs `HMGET` (the run's token and budget counters), `EXISTS`, two `HINCRBY`s, `TIME`, `HSET` and"
                + " `PEXPIRE`, `complete.lua` runs `HMGET` and `HSET`,"
                + " and from Lua each `redis.call` costs more than most of these commands cost Redis.\n\n");
    }

    private void peerMiss() {
        md.append("### boundary / peer\n\n");
        md.append("The peer does two plain `SET`s and nothing else; the boundary also checks the call before it runs,"
                + " validates and fingerprints the JSON arguments, counts UTF-8 bytes against four limits, checks the"
                + " projection's evidence rules, and runs two Lua scripts that check the run's token, refuse duplicates"
                + " by fingerprint, reserve"
                + " run and tool budgets, and compare-and-set the lifecycle by token. Per call that is more work on both"
                + " sides of the connection:\n\n");
        for (int raw : RedisFloor.RAW_BYTES) {
            for (int callers : RedisFloor.CALLERS) {
                Optional<JmhResults.Row> bound = redisRow("boundary", callers, "thrpt", raw);
                Optional<JmhResults.Row> peer = redisRow("peer", callers, "thrpt", raw);
                if (bound.isPresent() && peer.isPresent() && bound.get().score() / peer.get().score() < PEER_RATIO_TARGET) {
                    md.append(String.format(Locale.ROOT, "- raw %s, %s: %.0f µs against %.0f µs per call as each"
                            + " caller sees it (callers / calls per second)%s.\n", kib(raw), callers(callers),
                            1e6 * callers / bound.get().score(), 1e6 * callers / peer.get().score(),
                            allocationNote(bound.get(), peer.get())));
                }
            }
        }
        serverCpuNote();
        md.append("\nWhat would close it: the Redis-side work first, since Redis is the shared resource. The largest"
                + " item grows with the raw response: it enters Redis as an argument of `complete.lua`, and Redis 7's"
                + " Lua makes an interned Lua string of every argument and copies it again when the script passes it"
                + " to `HSET` (the probe above prices the first half). Keeping large values out of Lua closes most"
                + " of it: send the raw response with a plain command in the same `MULTI`/`EXEC` as a script that only"
                + " checks the token and flips the small fields (for example the raw response in its own key under the"
                + " record's hash tag, created with the record's remaining expiry so that the TTL rule still holds)."
                + " After that, the seven commands of `begin.lua` (`HMGET`, `EXISTS`, two `HINCRBY`s, `TIME`, `HSET`,"
                + " `PEXPIRE`) are the script cost the peer does not pay; the `HMGET` reads the run's token, which no"
                + " call can skip (it is how a run whose state was lost is refused), and the two `HINCRBY`s are the"
                + " budgets, which a run with no budget could skip only if its budget could never change between"
                + " calls. On the client, the same steps as"
                + " for the floor (fewer arguments, byte-array values).\n\n");
    }

    private void memoryMiss() {
        md.append("### Record overhead\n\n");
        for (JsonNode row : memoryRows()) {
            double overhead = row.path("overheadBytes").asDouble();
            if (overhead <= MEMORY_OVERHEAD_TARGET) {
                continue;
            }
            double slack = row.path("rawAllocatorSlackBytes").asDouble();
            md.append(String.format(Locale.ROOT, "- raw %s: %,.0f B over the payload. %,.0f B of it is the allocator"
                    + " rounding the raw response alone up to its size class (for comparison, the peer's single string"
                    + " costs %,.0f B over the same payload). The rest, %,.0f B, is the record: %,.0f B of its own fields"
                    + " (tool, token, fingerprint, request digest, lease, two instants, status, evidence, schema, field"
                    + " names), a hash entry per field (13 fields), the rounding of the request and agent result"
                    + " strings, the key and its TTL entry.\n",
                    kib(row.path("rawBytes").asInt()), overhead, slack, row.path("peerOverheadBytes").asDouble(),
                    overhead - slack, row.path("metadataFieldBytes").asDouble()));
        }
        md.append("\nWhat would close it: the allocator's share depends only on where the payload falls between jemalloc's"
                + " size classes (up to a quarter of the value above 64 KiB) and is paid by any Redis layout; it would"
                + " only go with compression of the raw response. The record no longer stores the run id and"
                + " tool_call_id, which its key holds; its own share would shrink further by packing the fixed-size"
                + " metadata (status, evidence, two instants, lease, token, schema) into one field, and storing the"
                + " fingerprint and request digest as raw bytes instead of hex: together roughly 400 B per record.\n\n");
    }

    private String peerOverFloor() {
        Optional<JmhResults.Row> peer = redisRow("peer", TARGET_CALLERS, "thrpt", TARGET_RAW);
        Optional<JsonNode> fl = floorRow(TARGET_RAW, TARGET_CALLERS);
        if (peer.isEmpty() || fl.isEmpty()) {
            return "an unmeasured share";
        }
        return String.format(Locale.ROOT, "%.0f%%", 100 * peer.get().score() / fl.get().path("floorRps").asDouble());
    }

    private void serverCpuNote() {
        for (JsonNode row : memoryRows()) {
            double boundary = row.path("boundaryServerMicrosPerCall").asDouble(Double.NaN);
            double peer = row.path("peerServerMicrosPerCall").asDouble(Double.NaN);
            if (Double.isFinite(boundary) && Double.isFinite(peer) && peer > 0) {
                md.append(String.format(Locale.ROOT, "- Redis itself spends %.1f µs per boundary call against %.1f µs"
                        + " per peer call at raw %s (%.1f×).", boundary, peer, kib(row.path("rawBytes").asInt()),
                        boundary / peer));
                double lua = row.path("luaArgumentMicros").asDouble(Double.NaN);
                double set = row.path("plainSetMicros").asDouble(Double.NaN);
                if (Double.isFinite(lua) && Double.isFinite(set)) {
                    md.append(String.format(Locale.ROOT, " Merely handing these raw bytes to a script costs %.1f µs,"
                            + " a plain SET of them %.1f µs.", lua, set));
                }
                md.append("\n");
            }
        }
    }

    private static String allocationNote(JmhResults.Row bound, JmhResults.Row peer) {
        Optional<Double> a = bound.allocatedBytesPerCall();
        Optional<Double> b = peer.allocatedBytesPerCall();
        if (a.isEmpty() || b.isEmpty()) {
            return "";
        }
        return String.format(Locale.ROOT, "; the boundary allocates %,.0f B per call, the peer %,.0f B", a.get(), b.get());
    }

    private void method() {
        md.append("## How it is measured\n\n");
        md.append("- JMH 1.37, module `boundary-benchmarks`, jar `boundary-benchmarks/target/benchmarks.jar`. Every"
                + " call uses a new tool_call_id from a counter; each run is opened once, before its calls, and has an"
                + " unlimited budget; a refused call fails the"
                + " run rather than being measured.\n");
        md.append("- In-memory: a new store and boundary each iteration; the store's clock moves one millisecond per"
                + " call, so a record outlives the next " + InMemoryBoundaryBenchmark.TTL_CALLS + " calls and the"
                + " store's own sweep then drops it: memory stays bounded and no call finds its own record expired.\n");
        md.append("- Redis: each fork starts its own `redis-server` (`--save \"\" --appendonly no`) on a free loopback"
                + " port through the testkit's `RedisServerFixture`; one Redisson client (script cache on, 64"
                + " connections) serves both the library's store and the peer; `FLUSHALL` before every iteration;"
                + " record TTL " + BenchRedis.RECORD_TTL.toMinutes() + " min. Each fork first makes calls of the"
                + " measured kind on one thread for " + RedisBoundaryBenchmark.SOLO_WARMUP_SECONDS + " s, then runs"
                + " JMH's warmup iterations at the measured number of callers: with 32 callers on two cores the JIT"
                + " compiler gets little CPU, and the client path keeps getting faster for some 20 s.\n");
        md.append("- Floor: `RedisFloor` copies the argument lists from a real call (the PROJECTING record a capturing"
                + " tool reads while it runs, then the READY record), checks that one begin and one complete with them"
                + " produce a record the library's store reads back as the same READY record, loads the scripts with"
                + " `SCRIPT LOAD` from `adapter-redis`'s resources, and runs `redis-benchmark -P 1 -c <callers>` with"
                + " `__rand_int__` in the key (`-r`) so that every begin creates a new record. Each measured complete"
                + " finds a PROJECTING record with its token (records made beforehand) and writes `status=PROJECTING`"
                + " back instead of `READY`, so that every request takes the full compare-and-set path.\n");
        md.append("- Peer: `HandRolledToolCalls`, checked once against the server before it is measured (claim"
                + " refuses a duplicate, finish keeps the TTL).\n");
        md.append("- Memory: `RecordMemory`, `MEMORY USAGE` of READY records made by the boundary, and of the peer's"
                + " string for the same payload.\n\n");
        md.append("Raw data: `bench/results/` (`jmh-inmemory.json`, `jmh-redis.json`, `floor.json`, `memory.json`).\n");
    }

    // ---------------------------------------------------------------- data helpers

    private Optional<JmhResults.Row> inMemoryRow(String method, int request, int raw) {
        return jmh.find(IN_MEMORY, method, "avgt", "argumentsBytes", request, "rawBytes", raw);
    }

    /**
     * The least-squares line through the in-memory overhead (µs) against request bytes at one raw size:
     * {slope in µs per byte, intercept in µs, R²}; empty unless all three sizes were measured.
     */
    private Optional<double[]> overheadFit(int raw) {
        double[] x = new double[REQUEST_BYTES.length];
        double[] y = new double[REQUEST_BYTES.length];
        for (int i = 0; i < REQUEST_BYTES.length; i++) {
            Optional<JmhResults.Row> base = inMemoryRow("baseline", REQUEST_BYTES[i], raw);
            Optional<JmhResults.Row> bound = inMemoryRow("boundary", REQUEST_BYTES[i], raw);
            if (base.isEmpty() || bound.isEmpty()) {
                return Optional.empty();
            }
            x[i] = REQUEST_BYTES[i];
            y[i] = bound.get().score() - base.get().score();
        }
        return Optional.of(leastSquares(x, y));
    }

    /** {slope, intercept, R²} of the least-squares line through the points. */
    static double[] leastSquares(double[] x, double[] y) {
        int n = x.length;
        double meanX = 0;
        double meanY = 0;
        for (int i = 0; i < n; i++) {
            meanX += x[i] / n;
            meanY += y[i] / n;
        }
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < n; i++) {
            sxy += (x[i] - meanX) * (y[i] - meanY);
            sxx += (x[i] - meanX) * (x[i] - meanX);
            syy += (y[i] - meanY) * (y[i] - meanY);
        }
        double slope = sxy / sxx;
        double rSquared = syy == 0 ? 1.0 : (sxy * sxy) / (sxx * syy);
        return new double[] {slope, meanY - slope * meanX, rSquared};
    }

    /** What a compact (Latin-1) string of {@code chars} characters occupies on a 64-bit JVM with compressed pointers. */
    static double stringBytes(int chars) {
        return 24 + 8 * Math.ceil((16 + chars) / 8.0);
    }

    private Optional<JmhResults.Row> redisRow(String kind, int callers, String mode, int raw) {
        return jmh.find(REDIS, kind + String.format("%02d", callers), mode, "rawBytes", raw, null, 0);
    }

    private OptionalDouble floorRatio(int raw, int callers) {
        Optional<JmhResults.Row> bound = redisRow("boundary", callers, "thrpt", raw);
        Optional<JsonNode> fl = floorRow(raw, callers);
        if (bound.isEmpty() || fl.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(bound.get().score() / fl.get().path("floorRps").asDouble());
    }

    private OptionalDouble peerRatio(int raw, int callers) {
        Optional<JmhResults.Row> bound = redisRow("boundary", callers, "thrpt", raw);
        Optional<JmhResults.Row> peer = redisRow("peer", callers, "thrpt", raw);
        if (bound.isEmpty() || peer.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(bound.get().score() / peer.get().score());
    }

    private List<JsonNode> floorRows() {
        List<JsonNode> rows = new ArrayList<>();
        floor.path("results").forEach(rows::add);
        return rows;
    }

    private Optional<JsonNode> floorRow(int raw, int callers) {
        return floorRows().stream()
                .filter(row -> row.path("rawBytes").asInt() == raw && row.path("callers").asInt() == callers)
                .findFirst();
    }

    private List<JsonNode> memoryRows() {
        List<JsonNode> rows = new ArrayList<>();
        memory.path("results").forEach(rows::add);
        return rows;
    }

    private String text(String name) throws IOException {
        Path file = results.resolve(name);
        return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private String saveChart(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, String name) throws IOException {
        Path file = charts.resolve(name + ".png");
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        Path base = report.toAbsolutePath().getParent();
        return base.relativize(file.toAbsolutePath()).toString().replace('\\', '/');
    }

    private static JsonNode readJson(ObjectMapper mapper, Path file) throws IOException {
        return Files.isRegularFile(file) ? mapper.readTree(file.toFile()) : mapper.createObjectNode();
    }

    private static Optional<Double> difference(Optional<JmhResults.Row> a, Optional<JmhResults.Row> b) {
        Optional<Double> x = a.flatMap(JmhResults.Row::allocatedBytesPerCall);
        Optional<Double> y = b.flatMap(JmhResults.Row::allocatedBytesPerCall);
        return x.isPresent() && y.isPresent() ? Optional.of(x.get() - y.get()) : Optional.empty();
    }

    private static double[] finite(double[] values) {
        double[] copy = values.clone();
        for (int i = 0; i < copy.length; i++) {
            if (!Double.isFinite(copy[i])) {
                copy[i] = 0;
            }
        }
        return copy;
    }

    // ---------------------------------------------------------------- formatting

    static String callers(int callers) {
        return callers + (callers == 1 ? " caller" : " callers");
    }

    static String kib(int bytes) {
        return bytes >= 1024 && bytes % 1024 == 0 ? (bytes / 1024) + " KiB" : bytes + " B";
    }

    private static String withError(JmhResults.Row row) {
        double error = row.error();
        return Double.isFinite(error) ? num(row.score()) + " ± " + num(error) : num(row.score());
    }

    private static String withErrorWhole(JmhResults.Row row) {
        double error = row.error();
        return Double.isFinite(error) ? whole(row.score()) + " ± " + whole(error) : whole(row.score());
    }

    private static String percentile(Optional<JmhResults.Row> row, String percentile) {
        return row.flatMap(r -> r.percentileMicros(percentile)).map(ReportWriter::num).orElse("n/a");
    }

    private static String millis(Optional<JmhResults.Row> row, String percentile) {
        return row.flatMap(r -> r.percentileMicros(percentile)).map(us -> num(us / 1000.0)).orElse("n/a");
    }

    private static String bytes(Optional<Double> value) {
        return value.map(ReportWriter::whole).orElse("n/a");
    }

    static String num(double value) {
        if (!Double.isFinite(value)) {
            return "n/a";
        }
        double magnitude = Math.abs(value);
        String pattern = magnitude >= 100 ? "%,.0f" : magnitude >= 10 ? "%.1f" : magnitude >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, pattern, value);
    }

    static String whole(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%,.0f", value) : "n/a";
    }

    static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String ratioOrNa(OptionalDouble value) {
        return value.isPresent() ? ratio(value.getAsDouble()) : "n/a";
    }
}
