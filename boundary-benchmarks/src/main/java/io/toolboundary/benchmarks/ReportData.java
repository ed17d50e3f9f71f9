package io.toolboundary.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.toolboundary.application.spi.AttemptToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One run's results, as the figures the report shows: each a {@link Spread} over forks (in-memory JMH),
 * runs (Redis JMH, one JVM per kind each) or repeats (the replay and memory steps).
 */
final class ReportData {

    static final String IN_MEMORY = "InMemoryBoundaryBenchmark";
    static final String REDIS = "RedisBoundaryBenchmark";
    /** A Redis run's results: {@code jmh-redis[-<run>[-<kind>]].json}. */
    private static final Pattern REDIS_RUN_FILE = Pattern.compile("jmh-redis(?:-(\\d+))?(?:-[a-z]+)?\\.json");
    /**
     * The strings each call adds to its record, as the JVM holds them (compact Latin-1 strings: a 24 B
     * header and a byte array of 16 B plus the characters, rounded up to 8): the 64-character fingerprint
     * and the attempt token.
     */
    static final double RECORD_STRING_BYTES = stringBytes(64) + stringBytes(AttemptToken.random().value().length());

    final JmhResults inMemory;
    final JmhResults redis;
    final JsonNode floor;
    final JsonNode memory;
    final JsonNode lua;
    final JsonNode layouts;
    /** One line per measurement iteration of the Redis JMH runs: CPU time per call, client and server. */
    final List<JsonNode> cpu = new ArrayList<>();

    ReportData(Path results) throws IOException {
        this.inMemory = JmhResults.read(List.of(results.resolve("jmh-inmemory.json"),
                results.resolve("jmh-inmemory-baseline.json")));
        // jmh-redis-<run>-<kind>.json: a run's kinds, each measured in a JVM of its own, are one source.
        Map<Integer, List<Path>> runs = new TreeMap<>();
        if (Files.isDirectory(results)) {
            try (Stream<Path> files = Files.list(results)) {
                for (Path file : files.sorted().toList()) {
                    Matcher name = REDIS_RUN_FILE.matcher(file.getFileName().toString());
                    if (name.matches()) {
                        runs.computeIfAbsent(name.group(1) == null ? 0 : Integer.parseInt(name.group(1)),
                                run -> new ArrayList<>()).add(file);
                    }
                }
            }
        }
        this.redis = JmhResults.readRuns(List.copyOf(runs.values()));
        ObjectMapper mapper = new ObjectMapper();
        this.floor = readJson(mapper, results.resolve("floor.json"));
        this.memory = readJson(mapper, results.resolve("memory.json"));
        this.lua = readJson(mapper, results.resolve("lua.json"));
        this.layouts = readJson(mapper, results.resolve("layouts.json"));
        if (Files.isDirectory(results)) {
            try (Stream<Path> files = Files.list(results)) {
                for (Path file : files.filter(f -> f.getFileName().toString().matches("cpu-redis-\\d+\\.jsonl")).sorted()
                        .toList()) {
                    for (String line : Files.readAllLines(file)) {
                        if (!line.isBlank()) {
                            cpu.add(mapper.readTree(line));
                        }
                    }
                }
            }
        }
    }

    /**
     * CPU time per call in µs ("clientCpuUsecPerCall": the client JVM, every thread; "serverCpuUsecPerCall":
     * redis-server), over the measurement iterations of {@code kind} ("boundary", "peer").
     */
    Spread redisCpu(String kind, int callers, int raw, String field) {
        String benchmark = kind + String.format(Locale.ROOT, "%02d", callers);
        return Spread.of(cpu.stream().filter(line -> line.path("benchmark").asText().equals(benchmark)
                && line.path("rawBytes").asInt() == raw).map(line -> line.path(field).asDouble()).toList());
    }

    /** What a compact (Latin-1) string of {@code chars} characters occupies on a 64-bit JVM with compressed pointers. */
    static double stringBytes(int chars) {
        return 24 + 8 * Math.ceil((16 + chars) / 8.0);
    }

    // ---------------------------------------------------------------- in-memory

    private List<JmhResults.Fork> inMemoryForks(String method, String mode, int request, int raw) {
        return inMemory.forks(IN_MEMORY, method, mode, Map.of("argumentsBytes", request, "rawBytes", raw));
    }

    /** Mean µs per call of {@code boundary} or {@code baseline}, over forks. */
    Spread inMemoryMicros(String method, int request, int raw) {
        return Spread.of(inMemoryForks(method, "avgt", request, raw).stream().map(JmhResults.Fork::score).toList());
    }

    /** What the boundary adds: each boundary fork less the baseline's median. */
    Spread inMemoryOverhead(int request, int raw) {
        double baseline = inMemoryMicros("baseline", request, raw).median();
        return inMemoryMicros("boundary", request, raw).map(value -> value - baseline);
    }

    /**
     * What the hand-rolled map ({@link HandRolledInMemory}) adds to the direct call: each of its forks less the
     * baseline's median; empty when it did not run.
     */
    Spread handRolledOverhead(int request, int raw) {
        double baseline = inMemoryMicros("baseline", request, raw).median();
        return inMemoryMicros("handRolled", request, raw).map(value -> value - baseline);
    }

    /** Bytes allocated per call, over forks. */
    Spread inMemoryAllocation(String method, int request, int raw) {
        return Spread.of(inMemoryForks(method, "avgt", request, raw).stream()
                .map(JmhResults.Fork::allocatedBytes).toList());
    }

    /** What the boundary allocates beyond the baseline and beyond the record's own new strings. */
    Spread allocationBeyondRecord(int request, int raw) {
        double baseline = inMemoryAllocation("baseline", request, raw).median();
        return inMemoryAllocation("boundary", request, raw).map(value -> value - baseline - RECORD_STRING_BYTES);
    }

    /** The boundary's p50 or p99 in µs (SampleTime), over forks; empty when SampleTime did not run. */
    Spread inMemoryPercentile(int request, int raw, boolean p99) {
        return Spread.of(inMemoryForks("boundary", "sample", request, raw).stream()
                .map(fork -> p99 ? fork.p99Micros() : fork.p50Micros()).toList());
    }

    // ---------------------------------------------------------------- Redis through the client

    private List<JmhResults.Fork> redisForks(String kind, int callers, int raw) {
        return redis.forks(REDIS, method(kind, callers), "sample", Map.of("rawBytes", raw));
    }

    static String method(String kind, int callers) {
        return kind + String.format("%02d", callers);
    }

    /** Calls per second of each run (callers / mean time of a call), by run. */
    Map<Integer, Double> redisRpsByRun(String kind, int callers, int raw) {
        Map<Integer, Double> byRun = new TreeMap<>();
        int threads = redis.threads(REDIS, method(kind, callers));
        for (JmhResults.Fork fork : redisForks(kind, callers, raw)) {
            byRun.put(fork.source() * 1000 + byRun.size(), threads * 1e6 / fork.score());
        }
        return byRun;
    }

    Spread redisRps(String kind, int callers, int raw) {
        return Spread.of(redisRpsByRun(kind, callers, raw).values());
    }

    /** p50 or p99 of one call in ms, over runs. */
    Spread redisLatencyMillis(String kind, int callers, int raw, boolean p99) {
        return Spread.of(redisForks(kind, callers, raw).stream()
                .map(fork -> (p99 ? fork.p99Micros() : fork.p50Micros()) / 1000).toList());
    }

    /** Bytes allocated per call in the client JVM, over runs. */
    Spread redisAllocation(String kind, int callers, int raw) {
        return Spread.of(redisForks(kind, callers, raw).stream().map(JmhResults.Fork::allocatedBytes).toList());
    }

    /** Boundary calls per second over the peer's, each run's boundary against the same run's peer. */
    Spread peerRatio(int callers, int raw) {
        return paired(redisRpsByRun("boundary", callers, raw), redisRpsByRun("peer", callers, raw));
    }

    /** Calls per second of {@code kind} over {@code over}'s, each run against the same run's. */
    Spread rpsRatio(String kind, String over, int callers, int raw) {
        return paired(redisRpsByRun(kind, callers, raw), redisRpsByRun(over, callers, raw));
    }

    /** Boundary calls per second over the floor's, the i-th run against the i-th repeat of the floor. */
    Spread floorRatio(int callers, int raw) {
        Map<Integer, Double> floors = new TreeMap<>();
        List<Double> values = floorRpsByRepeat("boundary", callers, raw);
        for (int i = 0; i < values.size(); i++) {
            floors.put(i, values.get(i));
        }
        return paired(redisRpsByRun("boundary", callers, raw), floors);
    }

    private static Spread paired(Map<Integer, Double> a, Map<Integer, Double> b) {
        List<Double> left = new ArrayList<>(a.values());
        List<Double> right = new ArrayList<>(b.values());
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
            ratios.add(left.get(i) / right.get(i));
        }
        return Spread.of(ratios);
    }

    // ---------------------------------------------------------------- Redis server: replay and floor

    Optional<JsonNode> floorSize(int raw) {
        for (JsonNode size : floor.path("sizes")) {
            if (size.path("rawBytes").asInt() == raw) {
                return Optional.of(size);
            }
        }
        return Optional.empty();
    }

    /** The captured commands of {@code kind} ("boundary", "peer"): label, name, arguments, argumentBytes. */
    List<JsonNode> commands(String kind, int raw) {
        List<JsonNode> commands = new ArrayList<>();
        floorSize(raw).ifPresent(size -> size.path(kind + "Commands").forEach(commands::add));
        return commands;
    }

    /** The commands left out of the replay (transaction brackets), by name. */
    List<String> skipped(String kind, int raw) {
        List<String> skipped = new ArrayList<>();
        floorSize(raw).ifPresent(size -> size.path(kind + "Skipped").forEach(name -> skipped.add(name.asText())));
        return skipped;
    }

    private List<JsonNode> repeats(int raw) {
        List<JsonNode> repeats = new ArrayList<>();
        floorSize(raw).ifPresent(size -> size.path("repeats").forEach(repeats::add));
        return repeats;
    }

    /** One server figure of command {@code k} with one connection ("p50Usec", "usecPerCall", ...), over repeats. */
    Spread command(String kind, int raw, int k, String field) {
        return Spread.of(repeats(raw).stream().map(rep -> rep.path(kind).path(k).path("server").path(field)
                .asDouble(Double.NaN)).toList());
    }

    /** The sum over the call's commands of one server figure, over repeats. */
    Spread perCall(String kind, int raw, String field) {
        return Spread.of(repeats(raw).stream().map(rep -> sum(rep.path(kind),
                command -> command.path("server").path(field).asDouble(Double.NaN))).toList());
    }

    /** The inner commands of command {@code k} (a script's calls), µs per request, from the first repeat. */
    Map<String, Double> inner(String kind, int raw, int k) {
        Map<String, Double> inner = new TreeMap<>();
        repeats(raw).stream().findFirst().ifPresent(rep -> rep.path(kind).path(k).path("server")
                .path("innerUsecPerRequest").fields().forEachRemaining(e -> inner.put(e.getKey(), e.getValue().asDouble())));
        return inner;
    }

    /** The floor of one call, {@code 1 / sum(1 / rate)} over its commands, by repeat. */
    List<Double> floorRpsByRepeat(String kind, int callers, int raw) {
        List<Double> floors = new ArrayList<>();
        for (JsonNode rep : repeats(raw)) {
            double seconds = 0;
            int found = 0;
            for (JsonNode command : rep.path(kind)) {
                for (JsonNode measured : command.path("floors")) {
                    if (measured.path("callers").asInt() == callers) {
                        seconds += 1 / measured.path("rps").asDouble();
                        found++;
                    }
                }
            }
            if (found > 0 && found == rep.path(kind).size()) {
                floors.add(1 / seconds);
            }
        }
        return floors;
    }

    Spread floorRps(String kind, int callers, int raw) {
        return Spread.of(floorRpsByRepeat(kind, callers, raw));
    }

    /** A figure of the warm JVM's own calls ("boundaryUsecPerCall", ...), over repeats. */
    Spread warmJvm(int raw, String field) {
        return Spread.of(repeats(raw).stream().map(rep -> rep.path("warmJvm").path(field).asDouble(Double.NaN)).toList());
    }

    // ---------------------------------------------------------------- memory

    Optional<JsonNode> memorySize(int raw) {
        for (JsonNode size : memory.path("sizes")) {
            if (size.path("rawBytes").asInt() == raw) {
                return Optional.of(size);
            }
        }
        return Optional.empty();
    }

    /** One memory figure ("overheadBytes", "peerOverheadBytes", ...), over repeats. */
    Spread memory(int raw, String field) {
        List<Double> values = new ArrayList<>();
        memorySize(raw).ifPresent(size -> size.path("repeats").forEach(rep -> values.add(rep.path(field).asDouble(Double.NaN))));
        return Spread.of(values);
    }

    /** The store's own calls: {@code used_memory} growth per call over the payload, run state included, over repeats. */
    Spread usedMemoryOverPayload(int raw) {
        double payload = memorySize(raw).map(size -> size.path("payloadBytes").asDouble()).orElse(Double.NaN);
        return memory(raw, "usedMemoryPerRecordBytes").map(used -> used - payload);
    }

    /** The layouts measured beside the store's, by name: used_memory growth per call over the payload. */
    Map<String, Spread> memoryAlternatives(int raw) {
        Map<String, Spread> alternatives = new java.util.LinkedHashMap<>();
        memorySize(raw).ifPresent(size -> size.path("alternatives").fields().forEachRemaining(layout -> {
            List<Double> values = new ArrayList<>();
            layout.getValue().forEach(value -> values.add(value.asDouble()));
            alternatives.put(layout.getKey(), Spread.of(values));
        }));
        return alternatives;
    }

    /** Bytes the boundary allocates per call over the direct call's median, by boundary fork. */
    Spread allocationOverBaseline(int request, int raw) {
        double baseline = inMemoryAllocation("baseline", request, raw).median();
        return inMemoryAllocation("boundary", request, raw).map(bytes -> bytes - baseline);
    }

    /** Bytes the arguments' JSON check and fingerprint alone allocate per call, over forks. */
    Spread fingerprintAllocation(int request) {
        return Spread.of(inMemory.forks("JsonArgumentsBenchmark", "fingerprint", "avgt", Map.of("argumentsBytes", request))
                .stream().map(JmhResults.Fork::allocatedBytes).toList());
    }

    /** The arguments' JSON check and fingerprint alone ({@code JsonArgumentsBenchmark.fingerprint}), µs per call, over forks. */
    Spread fingerprintMicros(int request) {
        return Spread.of(inMemory.forks("JsonArgumentsBenchmark", "fingerprint", "avgt", Map.of("argumentsBytes", request))
                .stream().map(JmhResults.Fork::score).toList());
    }

    // ---------------------------------------------------------------- record layouts

    /** The layouts {@code LayoutCompare} measured: layout, label, oneCall, repeats. */
    List<JsonNode> layouts() {
        List<JsonNode> all = new ArrayList<>();
        layouts.path("layouts").forEach(all::add);
        return all;
    }

    /** A figure of one layout ({@code beginUsecPerCall}, {@code usedMemoryOverPayloadBytes}, ...), over repeats. */
    Spread layout(JsonNode layout, String field) {
        List<Double> values = new ArrayList<>();
        layout.path("repeats").forEach(rep -> values.add(rep.path(field).asDouble(Double.NaN)));
        return Spread.of(values);
    }

    /** A layout's begin and complete together, µs per call, over repeats. */
    Spread layoutServerTime(JsonNode layout) {
        List<Double> values = new ArrayList<>();
        layout.path("repeats").forEach(rep -> values.add(rep.path("beginUsecPerCall").asDouble(Double.NaN)
                + rep.path("completeUsecPerCall").asDouble(Double.NaN)));
        return Spread.of(values);
    }

    // ---------------------------------------------------------------- Lua breakdown

    /** The variants measured in {@code kind}'s place ("begin", "complete"): label, part, repeats. */
    List<JsonNode> luaVariants(String kind) {
        List<JsonNode> variants = new ArrayList<>();
        lua.path(kind).forEach(variants::add);
        return variants;
    }

    /** A variant's time per call in µs, over repeats. */
    Spread luaMicros(String kind, String label) {
        List<Double> values = new ArrayList<>();
        for (JsonNode variant : luaVariants(kind)) {
            if (variant.path("label").asText().equals(label)) {
                variant.path("repeats").forEach(rep -> values.add(rep.path("usecPerCall").asDouble(Double.NaN)));
            }
        }
        return Spread.of(values);
    }

    /** A variant's inner Redis commands, µs per call each, as medians over repeats. */
    Map<String, Double> luaInner(String kind, String label) {
        Map<String, List<Double>> byCommand = new TreeMap<>();
        for (JsonNode variant : luaVariants(kind)) {
            if (variant.path("label").asText().equals(label)) {
                variant.path("repeats").forEach(rep -> rep.path("innerUsecPerCall").fields().forEachRemaining(
                        e -> byCommand.computeIfAbsent(e.getKey(), name -> new ArrayList<>()).add(e.getValue().asDouble())));
            }
        }
        Map<String, Double> medians = new TreeMap<>();
        byCommand.forEach((name, values) -> medians.put(name, Spread.of(values).median()));
        return medians;
    }

    /** A figure of the replayed successful calls at {@code raw} ("usecPerCall", "completeUsecPerCall", ...), over repeats. */
    Spread luaPerCall(int raw, String field) {
        List<Double> values = new ArrayList<>();
        for (JsonNode size : lua.path("perCall")) {
            if (size.path("rawBytes").asInt() == raw) {
                size.path("repeats").forEach(rep -> values.add(rep.path(field).asDouble(Double.NaN)));
            }
        }
        return Spread.of(values);
    }

    // ---------------------------------------------------------------- helpers

    private static double sum(JsonNode items, ToDoubleFunction<JsonNode> value) {
        if (!items.isArray() || items.isEmpty()) {
            return Double.NaN;
        }
        double sum = 0;
        for (JsonNode item : items) {
            sum += value.applyAsDouble(item);
        }
        return sum;
    }

    private static JsonNode readJson(ObjectMapper mapper, Path file) throws IOException {
        return Files.isRegularFile(file) ? mapper.readTree(file.toFile()) : mapper.createObjectNode();
    }
}
