package io.toolboundary.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The report's target table, one row per target with the measured median and range, the target, the
 * floor this machine allows where one was measured, and met or missed; then, for every missed target,
 * what is left, in lines generated from the same measurements.
 */
final class TargetTable {

    static final double OVERHEAD_MICROS = 1.5;
    static final double ALLOCATION_BYTES = 1024;
    static final double SERVER_MICROS_1K = 15;
    static final double SERVER_MICROS_64K = 15;
    static final double PEER_RATIO = 0.8;
    static final double FLOOR_RATIO = 0.5;
    static final double MEMORY_BYTES = 500;
    static final int REQUEST = 128;
    static final int RAW = 1024;
    static final int FLOOR_CALLERS = 8;

    private final ReportData data;
    private final StringBuilder md;
    private final List<String> left = new ArrayList<>();

    private TargetTable(ReportData data, StringBuilder md) {
        this.data = data;
        this.md = md;
    }

    /** Appends the table and the "what is left" section. */
    static void write(ReportData data, StringBuilder md) {
        new TargetTable(data, md).render();
    }

    private void render() {
        md.append("## Targets\n\nMeasured: the median, and in brackets the lowest and highest value, over forks (in-memory),"
                + " runs (Redis through the client) or repeats (server time, floor, memory); met or missed by the median."
                + " Floor: what this machine allows, measured in the same run where there is a measurement.\n\n");
        md.append("| figure | measured | target | floor on this machine | |\n|---|---|---|---|---|\n");
        Spread overhead = data.inMemoryOverhead(REQUEST, RAW);
        row("in-memory overhead, 128 B request, 1 KiB raw", Fmt.micros(overhead), "≤ 1.5 µs", overheadFloor(),
                overhead, OVERHEAD_MICROS, false, this::overheadLeft);
        Spread allocation = data.allocationOverBaseline(REQUEST, RAW);
        Spread fingerprintBytes = data.fingerprintAllocation(REQUEST);
        row("in-memory allocation per call over the direct call", Fmt.bytes(allocation), "≤ 1 KiB",
                fingerprintBytes.measured() ? Fmt.bytes(fingerprintBytes) + " (the arguments' JSON check and fingerprint"
                        + " alone)" : "—",
                allocation, ALLOCATION_BYTES, false, this::allocationLeft);
        for (int raw : RedisFloor.RAW_BYTES) {
            Spread server = data.warmJvm(raw, "boundaryUsecPerCall");
            double target = raw == RAW ? SERVER_MICROS_1K : SERVER_MICROS_64K;
            String figure = raw == RAW ? "Redis server time per successful call from one warm caller (commandstats),"
                    + " 1 KiB raw" : "same, " + Fmt.kib(raw) + " raw";
            row(figure, Fmt.micros(server), "≤ " + Math.round(target) + " µs", serverFloor(raw), server, target, false,
                    () -> serverLeft(raw));
        }
        for (int raw : RedisFloor.RAW_BYTES) {
            for (int callers : RedisFloor.CALLERS) {
                Spread ratio = data.peerRatio(callers, raw);
                row("boundary / hand-rolled peer on the same client, " + Fmt.callers(callers) + ", " + Fmt.kib(raw) + " raw",
                        ratio.format(Fmt::ratio), "≥ 0.8", peerFloor(callers, raw), ratio, PEER_RATIO, true,
                        () -> peerLeft(callers, raw));
            }
        }
        Spread floorRatio = data.floorRatio(FLOOR_CALLERS, RAW);
        row("boundary / floor (redis-benchmark, same scripts), 8 callers, 1 KiB", floorRatio.format(Fmt::ratio), "≥ 0.5",
                "—", floorRatio, FLOOR_RATIO, true, this::floorLeft);
        Spread memory = data.usedMemoryOverPayload(RAW);
        Spread peerMemory = data.memoryAlternatives(RAW).getOrDefault("hand-rolled peer: one string", Spread.NONE);
        Map.Entry<String, Spread> cheapest = cheapestLayout();
        String layoutFloor = cheapest == null ? "" : Fmt.bytes(cheapest.getValue()) + " (the cheapest other layout"
                + " measured: " + cheapest.getKey() + "); ";
        row("Redis used_memory growth per call over payload, run state included, 1 KiB raw", Fmt.bytes(memory),
                "≤ 500 B", layoutFloor + (peerMemory.measured() ? Fmt.bytes(peerMemory) + " (the peer's string)" : ""),
                memory, MEMORY_BYTES, false, this::memoryLeft);
        md.append("\n## What is left\n\n");
        if (left.isEmpty()) {
            md.append("Every measured target is met.\n\n");
        } else {
            left.forEach(line -> md.append("- ").append(line).append("\n"));
            md.append("\n");
        }
    }

    private void row(String figure, String measured, String target, String floor, Spread value, double limit,
            boolean atLeast, java.util.function.Supplier<String> whatIsLeft) {
        String verdict;
        if (!value.measured()) {
            verdict = "not measured";
        } else if (atLeast ? value.median() >= limit : value.median() <= limit) {
            verdict = "met";
        } else {
            verdict = "**missed**";
            left.add("**" + figure + "**: " + whatIsLeft.get());
        }
        md.append("| ").append(figure).append(" | ").append(measured).append(" | ").append(target).append(" | ")
                .append(floor).append(" | ").append(verdict).append(" |\n");
    }

    /** The hand-rolled map's time over the direct call, and of it the arguments' JSON check and fingerprint. */
    private String overheadFloor() {
        Spread handRolled = data.handRolledOverhead(REQUEST, RAW);
        Spread fingerprint = data.fingerprintMicros(REQUEST);
        String alone = fingerprint.measured() ? Fmt.micros(fingerprint) + " (the arguments' JSON check and fingerprint alone)"
                : "";
        if (!handRolled.measured()) {
            return alone.isEmpty() ? "about 1 µs" : alone;
        }
        return Fmt.micros(handRolled) + " (a hand-rolled map making the decisions the record needs: JSON check and"
                + " fingerprint, one call per id, run budget, raw response's byte limit, expiry)"
                + (alone.isEmpty() ? "" : "; " + alone);
    }

    private String overheadLeft() {
        double small = data.inMemoryOverhead(REQUEST, RAW).median();
        double large = data.inMemoryOverhead(16384, RAW).median();
        String text = String.format(Locale.ROOT, "%s µs over a direct call, %s µs above the target", Fmt.num(small),
                Fmt.num(small - OVERHEAD_MICROS));
        if (Double.isFinite(large)) {
            double perKib = (large - small) / (16384 - REQUEST) * 1024;
            text += String.format(Locale.ROOT, "; at a 16 KiB request %s µs, so %s µs per KiB of arguments (JSON check"
                    + " and fingerprint) and about %s µs that does not grow with them", Fmt.num(large), Fmt.num(perKib),
                    Fmt.num(small - perKib * REQUEST / 1024.0));
        }
        Spread handRolled = data.handRolledOverhead(REQUEST, RAW);
        if (handRolled.measured()) {
            text += String.format(Locale.ROOT, ". The hand-rolled map takes %s µs, so the boundary's own work beyond"
                    + " the decisions the record needs is %s µs: the identifier checks, the attempt token and lease,"
                    + " the per-tool budget, the checks of the projection and the agent result, the typed answers, the"
                    + " listener and the store's bound on the memory it holds", Fmt.num(handRolled.median()),
                    Fmt.num(small - handRolled.median()));
        }
        return text + ".";
    }

    private String allocationLeft() {
        return String.format(Locale.ROOT, "the boundary allocates %s B per call, the direct call %s B; the record's two"
                + " new strings (fingerprint and token) account for %s B of the difference; the rest is the call's own"
                + " values (ids, key, record, outcome, agent result, the store's entry and ledger entry, the budget).",
                Fmt.whole(data.inMemoryAllocation("boundary", REQUEST, RAW).median()),
                Fmt.whole(data.inMemoryAllocation("baseline", REQUEST, RAW).median()),
                Fmt.whole(ReportData.RECORD_STRING_BYTES));
    }

    /**
     * The same commands replayed back to back from one connection; each script's commands alone, without
     * its checks, plus the raw response's SET; two empty scripts with the store's keys and arguments.
     */
    private String serverFloor(int raw) {
        Spread replayed = data.luaPerCall(raw, "usecPerCall");
        double commands = commandsAlone(raw);
        double empty = data.luaMicros("begin", "empty").median() + data.luaMicros("complete", "empty").median();
        if (!replayed.measured()) {
            return "—";
        }
        Spread warmNoChecks = data.warmJvm(raw, "noChecksUsecPerCall");
        String warm = warmNoChecks.measured() ? Fmt.micros(warmNoChecks) + " (the same commands with no check in the"
                + " scripts, sent by the same warm caller); " : "";
        return String.format(Locale.ROOT, "%s%s (the call's commands back to back); %s µs (the same commands with no"
                + " check in the scripts, back to back); %s µs (two empty scripts with the store's keys and arguments)",
                warm, Fmt.micros(replayed), Fmt.num(commands), Fmt.num(empty));
    }

    /** begin's and complete's commands alone, from the scripts' parts, plus the raw response's SET at {@code raw}. */
    private double commandsAlone(int raw) {
        return data.luaMicros("begin", "commands alone").median() + data.luaMicros("complete", "commands alone").median()
                + data.luaPerCall(raw, "setUsecPerCall").median();
    }

    private String serverLeft(int raw) {
        double target = raw == RAW ? SERVER_MICROS_1K : SERVER_MICROS_64K;
        double warm = data.warmJvm(raw, "boundaryUsecPerCall").median();
        double replayed = data.luaPerCall(raw, "usecPerCall").median();
        double commands = commandsAlone(raw);
        String text = String.format(Locale.ROOT, "one warm caller: %s µs per call, the peer's two SETs %s µs. Replayed"
                + " back to back from one connection the same commands take %s µs: begin.lua %s µs (its commands alone"
                + " %s µs, an empty script with its keys and arguments %s µs), the raw response's SET %s µs and"
                + " complete.lua %s µs (alone: %s µs, its commands alone %s µs, an empty script %s µs). The commands a"
                + " call's guarantees need cost %s µs inside two scripts before any check, ",
                Fmt.num(warm), Fmt.num(data.warmJvm(raw, "peerUsecPerCall").median()), Fmt.num(replayed),
                Fmt.num(data.luaPerCall(raw, "evalshaUsecPerCall").median()),
                Fmt.num(data.luaMicros("begin", "commands alone").median()),
                Fmt.num(data.luaMicros("begin", "empty").median()),
                Fmt.num(data.luaPerCall(raw, "setUsecPerCall").median()),
                Fmt.num(data.luaPerCall(raw, "completeUsecPerCall").median()),
                Fmt.num(data.luaMicros("complete", "complete.lua").median()),
                Fmt.num(data.luaMicros("complete", "commands alone").median()),
                Fmt.num(data.luaMicros("complete", "empty").median()), Fmt.num(commands));
        text += checksRoom(commands, target);
        if (warm > replayed) {
            text += String.format(Locale.ROOT, " The warm caller's figure is %s µs above the replay: the same work, done"
                    + " while the client's own work runs between its commands on the same cores.", Fmt.num(warm - replayed));
        }
        Spread warmCommands = data.warmJvm(raw, "commandsUsecPerCall");
        Spread warmNoChecks = data.warmJvm(raw, "noChecksUsecPerCall");
        if (warmCommands.measured() && warmNoChecks.measured()) {
            text += String.format(Locale.ROOT, " From the same warm caller, the call's commands sent with none of the"
                    + " boundary's work between them take %s, and the same commands in scripts without their checks"
                    + " %s, ", Fmt.micros(warmCommands), Fmt.micros(warmNoChecks));
            text += checksRoom(warmNoChecks.median(), target);
        }
        return text + " See *Where the scripts' time goes*.";
    }

    /** What the call's commands with no check in the scripts, {@code floor} µs, leave the checks of {@code target}. */
    private static String checksRoom(double floor, double target) {
        return floor >= target
                ? String.format(Locale.ROOT, "already over the %s µs target.", Fmt.whole(target))
                : String.format(Locale.ROOT, "which leaves the checks %s µs of the %s µs target.",
                        Fmt.num(target - floor), Fmt.whole(target));
    }

    /** CPU time per call, client and server, of the boundary and the peer; "—" where not measured. */
    private double cpuPerCall(String kind, int callers, int raw) {
        return data.redisCpu(kind, callers, raw, "clientCpuUsecPerCall").median()
                + data.redisCpu(kind, callers, raw, "serverCpuUsecPerCall").median();
    }

    /**
     * The boundary's commands sent alone on the same client, over the peer's calls per second: what those
     * commands allow; and, with every core busy, calls per second are cores over CPU time per call, so
     * boundary / peer cannot pass the peer's CPU time per call over the boundary's.
     */
    private String peerFloor(int callers, int raw) {
        Spread commands = data.rpsRatio("commands", "peer", callers, raw);
        double bound = cpuPerCall("peer", callers, raw) / cpuPerCall("boundary", callers, raw);
        String text = commands.measured() ? commands.format(Fmt::ratio) + " (the boundary's commands alone, sent the"
                + " same way on the same client)" : "";
        if (Double.isFinite(bound)) {
            text += (text.isEmpty() ? "" : "; ") + Fmt.ratio(bound) + " (the peer's CPU time per call over the"
                    + " boundary's, client and server)";
        }
        return text.isEmpty() ? "—" : text;
    }

    private String commandsFigures(int callers, int raw) {
        Spread commands = data.redisRps("commands", callers, raw);
        if (!commands.measured()) {
            return "";
        }
        return String.format(Locale.ROOT, " The boundary's commands alone, sent the same way on the same client with no"
                + " boundary work between them, make %s calls/s: the boundary makes %s of that, and those commands %s"
                + " of the peer's.", Fmt.whole(commands.median()),
                Fmt.ratio(data.rpsRatio("boundary", "commands", callers, raw).median()),
                Fmt.ratio(data.rpsRatio("commands", "peer", callers, raw).median()));
    }

    private String cpuFigures(int callers, int raw) {
        if (!Double.isFinite(cpuPerCall("boundary", callers, raw))) {
            return "";
        }
        return String.format(Locale.ROOT, " CPU time per call: the boundary %s µs in the client JVM and %s µs in"
                + " redis-server, the peer %s µs and %s µs; the client and the server share the machine's cores.",
                Fmt.num(data.redisCpu("boundary", callers, raw, "clientCpuUsecPerCall").median()),
                Fmt.num(data.redisCpu("boundary", callers, raw, "serverCpuUsecPerCall").median()),
                Fmt.num(data.redisCpu("peer", callers, raw, "clientCpuUsecPerCall").median()),
                Fmt.num(data.redisCpu("peer", callers, raw, "serverCpuUsecPerCall").median()));
    }

    private String peerLeft(int callers, int raw) {
        double p50 = data.redisLatencyMillis("boundary", callers, raw, false).median() * 1000;
        double server = data.perCall("boundary", raw, "p50Usec").median();
        double own = ownWorkAt(Payloads.REDIS_REQUEST_BYTES);
        String split = callers == 1 && Double.isFinite(p50) && Double.isFinite(server) && Double.isFinite(own)
                ? String.format(Locale.ROOT, " Of the boundary's %s µs, Redis's own time is %s µs (replay, p50) and the"
                        + " boundary's own work %s µs (in-memory, raw 1 KiB, %s); the other %s µs are the client path"
                        + " and the wait for the server.", Fmt.num(p50), Fmt.num(server), Fmt.num(own),
                        Double.isFinite(data.inMemoryOverhead(Payloads.REDIS_REQUEST_BYTES, RAW).median())
                                ? "1 KiB request" : "on the line between the 128 B and 16 KiB requests",
                        Fmt.num(p50 - server - own))
                : "";
        return peerFigures(callers, raw) + commandsFigures(callers, raw) + cpuFigures(callers, raw) + split;
    }

    /** The in-memory overhead at {@code request} bytes and raw 1 KiB: measured, or on the line through 128 B and 16 KiB. */
    private double ownWorkAt(int request) {
        double measured = data.inMemoryOverhead(request, RAW).median();
        if (Double.isFinite(measured)) {
            return measured;
        }
        double small = data.inMemoryOverhead(REQUEST, RAW).median();
        double large = data.inMemoryOverhead(16384, RAW).median();
        return small + (large - small) * (request - REQUEST) / (16384 - REQUEST);
    }

    private String peerFigures(int callers, int raw) {
        return String.format(Locale.ROOT, "a call takes %s ms at the median against the peer's %s ms; the client"
                + " allocates %s B per call against %s B; Redis spends %s µs per call (replay, mean) against %s µs.",
                Fmt.num(data.redisLatencyMillis("boundary", callers, raw, false).median()),
                Fmt.num(data.redisLatencyMillis("peer", callers, raw, false).median()),
                Fmt.whole(data.redisAllocation("boundary", callers, raw).median()),
                Fmt.whole(data.redisAllocation("peer", callers, raw).median()),
                Fmt.num(data.perCall("boundary", raw, "usecPerCall").median()),
                Fmt.num(data.perCall("peer", raw, "usecPerCall").median()));
    }

    private String floorLeft() {
        List<JsonNode> commands = data.commands("boundary", RAW);
        List<String> rates = new ArrayList<>();
        for (int k = 0; k < commands.size(); k++) {
            final int index = k;
            List<Double> values = new ArrayList<>();
            data.floorSize(RAW).ifPresent(size -> size.path("repeats").forEach(rep -> rep.path("boundary").path(index)
                    .path("floors").forEach(f -> {
                        if (f.path("callers").asInt() == FLOOR_CALLERS) {
                            values.add(f.path("rps").asDouble());
                        }
                    })));
            rates.add(label(commands.get(k)) + " " + Fmt.whole(Spread.of(values).median()) + "/s");
        }
        return String.format(Locale.ROOT, "the boundary makes %s calls/s; redis-benchmark runs %s at 8 connections, a"
                + " floor of %s calls/s; the peer makes %s calls/s through the same client, its floor is %s calls/s.",
                Fmt.whole(data.redisRps("boundary", FLOOR_CALLERS, RAW).median()), String.join(", ", rates),
                Fmt.whole(data.floorRps("boundary", FLOOR_CALLERS, RAW).median()),
                Fmt.whole(data.redisRps("peer", FLOOR_CALLERS, RAW).median()),
                Fmt.whole(data.floorRps("peer", FLOOR_CALLERS, RAW).median()));
    }

    /** The alternative layout with the least memory per call, the peer's left out; null when none was measured. */
    private Map.Entry<String, Spread> cheapestLayout() {
        return data.memoryAlternatives(RAW).entrySet().stream()
                .filter(e -> !e.getKey().startsWith("hand-rolled peer") && e.getValue().measured())
                .min(java.util.Comparator.comparingDouble(e -> e.getValue().median())).orElse(null);
    }

    /** Why the store keeps its layout, by the layouts' begin and complete time in this run; empty when not measured. */
    private String keptLayout() {
        List<JsonNode> layouts = data.layouts();
        JsonNode store = layouts.stream().filter(l -> l.path("layout").asText().equals(LayoutCompare.STORE_LAYOUT)).findFirst().orElse(null);
        JsonNode fastest = layouts.stream().filter(l -> data.layoutServerTime(l).measured())
                .min(java.util.Comparator.comparingDouble(l -> data.layoutServerTime(l).median())).orElse(null);
        if (store == null || fastest == null || !data.layoutServerTime(store).measured()) {
            return "";
        }
        Spread kept = data.layoutServerTime(store);
        if (fastest == store) {
            return String.format(Locale.ROOT, ", and the store keeps the layout with the least server time in this run (%s µs"
                    + " for begin and complete; see *Record layouts side by side*)", Fmt.num(kept.median()));
        }
        Spread least = data.layoutServerTime(fastest);
        boolean overlapping = kept.min() <= least.max();
        return String.format(Locale.ROOT, "; the store keeps its packed hash, which took %s µs for begin and complete in"
                + " this run against %s µs for %s%s (see *Record layouts side by side*)", Fmt.num(kept.median()),
                Fmt.num(least.median()), fastest.path("label").asText(),
                overlapping ? String.format(Locale.ROOT, ", the repeats' ranges overlapping (%s–%s and %s–%s µs)",
                        Fmt.num(kept.min()), Fmt.num(kept.max()), Fmt.num(least.min()), Fmt.num(least.max())) : "");
    }

    private String memoryLeft() {
        Map.Entry<String, Spread> cheapest = cheapestLayout();
        StringBuilder text = new StringBuilder();
        if (cheapest != null) {
            text.append(String.format(Locale.ROOT, "every layout measured keeps the raw response in a key of its own (it"
                    + " never passes through Lua), so a call adds two keys besides its ledger entry; the least any"
                    + " took is %s B (%s)%s. ", Fmt.whole(cheapest.getValue().median()), cheapest.getKey(),
                    keptLayout()));
        }
        text.append(String.format(Locale.ROOT, "MEMORY USAGE over the payload %s B per record; ",
                Fmt.whole(data.memory(RAW, "overheadBytes").median())));
        data.memoryAlternatives(RAW).forEach((layout, spread) -> text.append(String.format(Locale.ROOT,
                "%s: %s B; ", layout, Fmt.whole(spread.median()))));
        text.append(String.format(Locale.ROOT, "%s B per record: keys added %s B, the run's"
                + " keys grew %s B per call; payload %s B.",
                Fmt.whole(data.memory(RAW, "perRecordBytes").median()),
                Fmt.whole(data.memory(RAW, "addedKeysPerRecordBytes").median()),
                Fmt.whole(data.memory(RAW, "runKeysGrowthPerRecordBytes").median()),
                Fmt.whole(data.memorySize(RAW).map(size -> size.path("payloadBytes").asDouble()).orElse(Double.NaN))));
        data.memorySize(RAW).ifPresent(size -> {
            for (JsonNode key : size.path("oneCallKeys")) {
                text.append(String.format(Locale.ROOT, " `%s`: %s, %s, %s B; %d fields, names %s B, values beyond the"
                        + " payload %s B.", key.path("key").asText(), key.path("type").asText(),
                        key.path("encoding").asText(), Fmt.whole(key.path("memoryUsageBytes").asDouble()),
                        key.path("fields").asInt(), Fmt.whole(key.path("fieldNameBytes").asDouble()),
                        Fmt.whole(key.path("valueBytes").asDouble() - key.path("payloadValueBytes").asDouble())));
            }
            text.append(String.format(Locale.ROOT, " The allocator adds %s B to the raw response alone.",
                    Fmt.whole(size.path("rawAllocatorSlackBytes").asDouble())));
        });
        return text.toString();
    }

    static String label(JsonNode command) {
        return "`" + command.path("label").asText() + "`";
    }
}
