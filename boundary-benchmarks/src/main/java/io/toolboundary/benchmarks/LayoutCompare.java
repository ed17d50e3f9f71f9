package io.toolboundary.benchmarks;

import io.toolboundary.application.Projector;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.toolboundary.domain.internal.Utf8;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Record layouts side by side in one run, on one server: each layout's own begin and complete scripts
 * (the run's part of begin the same in all), replayed from one connection, pipelined, on new ids, as a
 * successful call sends them: begin, the raw response's {@code SET ... XX KEEPTTL} into the pending key,
 * complete. Per layout: {@code INFO commandstats} time per call of begin and of complete (the
 * {@code EVALSHA} alone, warm), and {@code used_memory} growth and {@code MEMORY USAGE} of the run's keys
 * per call over the payload (arguments, raw response, agent content, run id and tool_call_id), run state
 * included. The layouts run interleaved within each repeat, so that a busy machine weighs on all alike.
 *
 * <ul>
 *   <li>{@code packed}: the store's record hash ({@code h}, {@code a}, {@code o}, {@code c}) with its
 *       scripts as they are;</li>
 *   <li>{@code named}: a hash of named fields within {@code hash-max-listpack-value}, so a listpack; the
 *       arguments and the agent's content in keys of their own;</li>
 *   <li>{@code string}: one string per record, a fixed-width header read by {@code GETRANGE} at fixed
 *       offsets, the status set in place and the outcome appended;</li>
 *   <li>{@code string, rewritten}: the same string, the completion writing it anew with the outcome.</li>
 * </ul>
 *
 * <p>Usage: {@code LayoutCompare <output.json> <calls per layout> <repeats> [raw bytes]}.
 */
public final class LayoutCompare {

    private static final String OWN = "/io/toolboundary/benchmarks/lua/";
    private static final int BATCH = 200;
    private static final String TTL = Long.toString(BenchRedis.RECORD_TTL.toMillis());
    private static final String FINGERPRINT = "0123456789abcdef".repeat(4);
    private static final String RUN_TOKEN = "3f9c0a6e1d2b7c4e8a91-run";

    /** The name under which the results list the store's own layout ({@code "layout"} of each entry). */
    static final String STORE_LAYOUT = Layout.PACKED.name();

    private LayoutCompare() {
    }

    /** One layout: its scripts and how it builds one call's commands. */
    private enum Layout {
        PACKED("packed hash (the store's)"),
        NAMED("named fields, listpack hash; arguments and content in keys of their own"),
        STRING("one string per record, fixed-width header; completion by SETRANGE and APPEND"),
        STRING_REWRITE("one string per record, fixed-width header; completion rewrites it (GET, SET KEEPTTL)");

        final String label;

        Layout(String label) {
            this.label = label;
        }
    }

    /** Measures and writes the JSON. */
    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: LayoutCompare <output.json> <calls per layout> <repeats> [raw bytes]");
            System.exit(2);
        }
        Path output = Path.of(args[0]);
        int calls = Integer.parseInt(args[1]);
        int repeats = Integer.parseInt(args[2]);
        int rawBytes = args.length > 3 ? Integer.parseInt(args[3]) : 1024;
        String request = Payloads.request(Payloads.REDIS_REQUEST_BYTES);
        String raw = Payloads.raw(rawBytes);
        String content = Payloads.agentContent();
        Map<Layout, List<Map<String, Object>>> rows = new LinkedHashMap<>();
        Map<Layout, Map<String, Object>> described = new LinkedHashMap<>();
        try (BenchRedis redis = BenchRedis.start(); Resp admin = Resp.connect(redis.endpoint())) {
            Map<Layout, String[]> shas = new LinkedHashMap<>();
            for (Layout layout : Layout.values()) {
                shas.put(layout, new String[] {load(admin, beginSource(layout)), load(admin, completeSource(layout))});
            }
            // Warm: every layout once, unmeasured.
            for (Layout layout : Layout.values()) {
                admin.call("FLUSHALL");
                run(admin, layout, shas.get(layout), "warm-" + layout.ordinal(), Math.min(calls, 500), request, raw,
                        content);
            }
            Layout[] all = Layout.values();
            for (int rep = 0; rep < repeats; rep++) {
                // Each repeat starts with another layout, so that none always runs first or last.
                for (int n = 0; n < all.length; n++) {
                    Layout layout = all[(rep + n) % all.length];
                    admin.call("FLUSHALL");
                    String runId = "lay" + layout.ordinal() + "r" + rep;
                    Map<String, Object> row = run(admin, layout, shas.get(layout), runId, calls, request, raw, content);
                    rows.computeIfAbsent(layout, key -> new ArrayList<>()).add(row);
                    if (rep == 0) {
                        described.put(layout, describe(admin, runId));
                    }
                    System.out.printf("layout %s rep=%d begin=%.2f µs complete=%.2f µs used_memory over payload=%.0f B"
                            + " MEMORY USAGE over payload=%.0f B%n", layout, rep + 1, row.get("beginUsecPerCall"),
                            row.get("completeUsecPerCall"), row.get("usedMemoryOverPayloadBytes"),
                            row.get("memoryUsageOverPayloadBytes"));
                }
            }
            admin.call("FLUSHALL");
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("calls", calls);
        document.put("repeats", repeats);
        document.put("rawBytes", rawBytes);
        document.put("argumentsBytes", Payloads.REDIS_REQUEST_BYTES);
        document.put("agentResultBytes", Payloads.AGENT_RESULT_BYTES);
        List<Map<String, Object>> layouts = new ArrayList<>();
        rows.forEach((layout, reps) -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("layout", layout.name());
            entry.put("label", layout.label);
            entry.put("oneCall", described.get(layout));
            entry.put("repeats", reps);
            layouts.add(entry);
        });
        document.put("layouts", layouts);
        Files.createDirectories(output.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(output.toFile(), document);
    }

    /** {@code calls} successful calls of one run in {@code layout}; time per call and memory per call. */
    private static Map<String, Object> run(Resp admin, Layout layout, String[] shas, String runId, int calls,
            String request, String raw, String content) {
        String runKey = key(runId, "run", null);
        admin.call("HSET", runKey, "token", RUN_TOKEN, "calls", "0");
        admin.call("PEXPIRE", runKey, TTL);
        long memoryBefore = RecordMemory.usedMemory(admin);
        long runBefore = RecordMemory.memoryUsage(admin, runKey);
        String rawBytes = Integer.toString(raw.getBytes(StandardCharsets.UTF_8).length);
        ServerStats.reset(admin);
        for (int from = 0; from < calls; from += BATCH) {
            int to = Math.min(calls, from + BATCH);
            for (int i = from; i < to; i++) {
                admin.send(bytes(begin(layout, shas[0], runId, i, request)));
            }
            expect(admin, to - from, "CREATED");
        }
        ServerStats afterBegin = ServerStats.read(admin);
        ServerStats.reset(admin);
        for (int from = 0; from < calls; from += BATCH) {
            int to = Math.min(calls, from + BATCH);
            for (int i = from; i < to; i++) {
                String id = id(i);
                admin.send(bytes(List.of("SET", key(runId, "pending", token(i) + ":" + id), raw, "XX", "KEEPTTL")));
                admin.send(bytes(complete(layout, shas[1], runId, i, content, rawBytes)));
            }
            admin.flush();
            for (int i = from; i < to; i++) {
                check(admin.read(), "OK");
                check(admin.read(), "APPLIED");
            }
        }
        ServerStats afterComplete = ServerStats.read(admin);
        long memoryAfter = RecordMemory.usedMemory(admin);
        long keys = 0;
        for (Map.Entry<String, Long> usage : usage(admin, runId).entrySet()) {
            keys += usage.getKey().equals(runKey) ? usage.getValue() - runBefore : usage.getValue();
        }
        double payload = Projector.utf8Length(request) + Projector.utf8Length(raw) + Projector.utf8Length(content)
                + runId.length() + id(0).length();
        if (afterBegin.calls("evalsha") != calls || afterComplete.calls("evalsha") != calls) {
            throw new IllegalStateException(layout + ": not every script ran");
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("beginUsecPerCall", afterBegin.usec("evalsha") / calls);
        row.put("completeUsecPerCall", afterComplete.usec("evalsha") / calls);
        row.put("rawSetUsecPerCall", afterComplete.usec("set") / calls);
        row.put("usecPerCall", (afterBegin.usec("evalsha") + afterComplete.usec("evalsha")
                + afterComplete.usec("set")) / calls);
        row.put("usedMemoryOverPayloadBytes", (double) (memoryAfter - memoryBefore) / calls - payload);
        row.put("memoryUsageOverPayloadBytes", (double) keys / calls - payload);
        return row;
    }

    private static List<String> begin(Layout layout, String sha, String runId, int i, String request) {
        String id = id(i);
        String token = token(i);
        String createdAt = Instant.ofEpochSecond(1_764_838_800L + i, 123_456_789).toString();
        List<String> command = new ArrayList<>(List.of("EVALSHA", sha));
        List<String> keys = new ArrayList<>(List.of(key(runId, "call", id), key(runId, "run", null),
                key(runId, "ended", token), key(runId, "pending", token + ":" + id)));
        if (layout == Layout.NAMED) {
            keys.add(key(runId, "args", id));
            keys.add(key(runId, "content", id));
        }
        command.add(Integer.toString(keys.size()));
        command.addAll(keys);
        command.addAll(List.of(token, FINGERPRINT, TTL, "1000000", "1000000", "60000", RUN_TOKEN,
                "tool:" + Payloads.TOOL_NAME, "call:" + id, "0"));
        switch (layout) {
            case PACKED -> command.addAll(List.of("4|" + token + "|",
                    "|" + createdAt + "|" + Payloads.TOOL_NAME + "|" + FINGERPRINT, request));
            case NAMED -> command.addAll(List.of("4", createdAt, Payloads.TOOL_NAME, request));
            case STRING, STRING_REWRITE -> command.addAll(List.of("5P0", String.format("%02d", token.length()) + token + "|"
                    + createdAt + "|" + Payloads.TOOL_NAME + "|" + FINGERPRINT + "\n", request));
        }
        return command;
    }

    private static List<String> complete(Layout layout, String sha, String runId, int i, String content, String rawBytes) {
        String id = id(i);
        String token = token(i);
        String updatedAt = Instant.ofEpochSecond(1_764_838_801L + i, 223_456_789).toString();
        List<String> keys = new ArrayList<>(List.of(key(runId, "call", id), key(runId, "pending", token + ":" + id),
                key(runId, "raw", id)));
        if (layout == Layout.NAMED) {
            keys.add(key(runId, "content", id));
        }
        List<String> command = new ArrayList<>(List.of("EVALSHA", sha, Integer.toString(keys.size())));
        command.addAll(keys);
        switch (layout) {
            case PACKED -> command.addAll(List.of(token, "READY", "", rawBytes,
                    "READY|" + updatedAt + "|EVIDENCE_FOUND|1|-", content));
            case NAMED -> command.addAll(List.of(token, "READY", "", rawBytes, updatedAt, "EVIDENCE_FOUND", "-", content));
            case STRING, STRING_REWRITE -> command.addAll(List.of(token, "R", "", rawBytes, String.format("%02d", token.length()), "R1",
                    "\n" + updatedAt + "|EVIDENCE_FOUND|-\n" + content));
        }
        return command;
    }

    private static String beginSource(Layout layout) {
        return switch (layout) {
            case PACKED -> LuaBreakdown.storeScript("begin.lua");
            case NAMED -> own("layouts/run-prelude.lua") + own("layouts/begin-named.lua");
            case STRING, STRING_REWRITE -> own("layouts/run-prelude.lua") + own("layouts/begin-string.lua");
        };
    }

    private static String completeSource(Layout layout) {
        return switch (layout) {
            case PACKED -> LuaBreakdown.storeScript("complete.lua");
            case NAMED -> own("layouts/complete-named.lua");
            case STRING -> own("layouts/complete-string.lua");
            case STRING_REWRITE -> own("layouts/complete-string-rewrite.lua");
        };
    }

    private static String own(String name) {
        return LuaBreakdown.ownScript(name);
    }

    /** The type, encoding and MEMORY USAGE of each key of the run's first call. */
    private static Map<String, Object> describe(Resp admin, String runId) {
        Map<String, Object> keys = new LinkedHashMap<>();
        for (String key : usage(admin, runId).keySet()) {
            if (key.contains(id(0)) || key.endsWith(":run")) {
                keys.put(key.replace(runId, "<run>").replace(id(0), "<id>").replace(token(0), "<token>"),
                        admin.text("TYPE", key) + " " + admin.text("OBJECT", "ENCODING", key) + " "
                                + RecordMemory.memoryUsage(admin, key) + " B");
            }
        }
        return keys;
    }

    private static void expect(Resp admin, int replies, String first) {
        admin.flush();
        for (int reply = 0; reply < replies; reply++) {
            check(admin.read(), first);
        }
    }

    private static void check(Object reply, String expected) {
        String text = reply instanceof List<?> items && !items.isEmpty() ? Resp.text(items.get(0))
                : reply instanceof Resp.Error error ? "error " + error.message() : Resp.text(reply);
        if (!expected.equals(text)) {
            throw new IllegalStateException("expected " + expected + ", got " + text);
        }
    }

    private static String load(Resp admin, String source) {
        return Resp.text(admin.call("SCRIPT", "LOAD", source));
    }

    private static String key(String runId, String kind, String id) {
        return BenchRedis.PREFIX + ":{" + runId + "}:" + kind + (id == null ? "" : ":" + id);
    }

    private static String id(int i) {
        return String.format("rec%06d", i);
    }

    private static String token(int i) {
        return "3f9c0a6e1d2b7c4e8a91-" + Integer.toHexString(i);
    }

    private static List<byte[]> bytes(List<String> command) {
        return command.stream().map(part -> part.getBytes(StandardCharsets.UTF_8)).toList();
    }

    private static Map<String, Long> usage(Resp admin, String runId) {
        Map<String, Long> usage = new LinkedHashMap<>();
        String cursor = "0";
        do {
            List<?> reply = (List<?>) admin.call("SCAN", cursor, "MATCH", "*{" + runId + "}*", "COUNT", "1000");
            cursor = Resp.text(reply.get(0));
            for (Object key : (List<?>) reply.get(1)) {
                usage.put(Resp.text(key), RecordMemory.memoryUsage(admin, Resp.text(key)));
            }
        } while (!cursor.equals("0"));
        return usage;
    }

}
