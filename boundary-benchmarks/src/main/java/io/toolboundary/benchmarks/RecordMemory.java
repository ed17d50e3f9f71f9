package io.toolboundary.benchmarks;

import io.toolboundary.application.Projector;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.internal.Utf8;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one canonical record costs in Redis, whatever its layout: every key a run's calls add under the
 * run's hash tag ({@code {<runId>}}), plus what the keys that existed when the run was opened (its state)
 * grew by, per call, from {@code MEMORY USAGE key SAMPLES 0}; minus the payload the call carries
 * (arguments, raw response, agent result, run id and tool_call_id, in UTF-8 bytes). The hand-rolled
 * peer's keys for the same payload are measured the same way. One call's keys are described field by
 * field (type, encoding, field names, values beyond the payload), and a plain string holding only the
 * raw response shows what the allocator adds to it alone.
 *
 * <p>Usage: {@code RecordMemory <output.json> <records per run> <repeats>}.
 */
public final class RecordMemory {

    private static final String DESCRIBED = "rec000007";

    private RecordMemory() {
    }

    /** Measures and writes the JSON. */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: RecordMemory <output.json> <records per run> <repeats>");
            System.exit(2);
        }
        Path output = Path.of(args[0]);
        int records = Integer.parseInt(args[1]);
        int repeats = Integer.parseInt(args[2]);
        List<Map<String, Object>> sizes = new ArrayList<>();
        try (BenchRedis redis = BenchRedis.start(); Resp admin = Resp.connect(redis.endpoint())) {
            String request = Payloads.request(Payloads.REDIS_REQUEST_BYTES);
            for (int rawBytes : RedisFloor.RAW_BYTES) {
                String raw = Payloads.raw(rawBytes);
                ToolBoundary boundary = redis.boundary(FakeTools.returning(raw));
                HandRolledToolCalls peer = redis.peer(FakeTools.returning(raw));
                List<Map<String, Object>> reps = new ArrayList<>();
                List<Map<String, Object>> described = List.of();
                for (int rep = 0; rep < repeats; rep++) {
                    admin.call("FLUSHALL");
                    String runId = "mem-" + rawBytes + "-" + rep;
                    RunContext run = Fixtures.opened(boundary, Fixtures.runContext(runId));
                    Map<String, Long> opened = usage(admin, runId);
                    long usedBefore = usedMemory(admin);
                    for (int i = 0; i < records; i++) {
                        if (boundary.invoke(run, ToolCallEnvelope.of(runId, id(i), Payloads.TOOL_NAME, request)).isLeft()) {
                            throw new IllegalStateException("a memory call failed");
                        }
                    }
                    long usedAfter = usedMemory(admin);
                    Map<String, Long> now = usage(admin, runId);
                    long added = 0;
                    long grown = 0;
                    for (Map.Entry<String, Long> key : now.entrySet()) {
                        Long before = opened.get(key.getKey());
                        if (before == null) {
                            added += key.getValue();
                        } else {
                            grown += key.getValue() - before;
                        }
                    }
                    if (rep == 0) {
                        described = describe(admin, now.keySet(), request, raw);
                    }
                    admin.call("FLUSHALL");
                    String peerRun = "memp-" + rawBytes + "-" + rep;
                    for (int i = 0; i < records; i++) {
                        if (peer.call(peerRun, id(i), request) == null) {
                            throw new IllegalStateException("a peer memory call was refused");
                        }
                    }
                    long peerTotal = usage(admin, peerRun).values().stream().mapToLong(Long::longValue).sum();
                    double payload = payload(request, raw, runId);
                    double perRecord = (double) (added + grown) / records;
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("perRecordBytes", perRecord);
                    row.put("overheadBytes", perRecord - payload);
                    row.put("addedKeysPerRecordBytes", (double) added / records);
                    row.put("runKeysGrowthPerRecordBytes", (double) grown / records);
                    row.put("usedMemoryPerRecordBytes", (double) (usedAfter - usedBefore) / records);
                    row.put("peerPerRecordBytes", (double) peerTotal / records);
                    row.put("peerOverheadBytes", (double) peerTotal / records - payload(request, raw, peerRun));
                    reps.add(row);
                    System.out.printf("memory raw=%d rep=%d record=%.0f B overhead=%.0f B peer overhead=%.0f B%n",
                            rawBytes, rep + 1, perRecord, perRecord - payload, row.get("peerOverheadBytes"));
                }
                Map<String, List<Double>> alternatives = alternatives(admin, request, raw, records, repeats);
                admin.call("FLUSHALL");
                admin.call("SET", "ref:raw", raw);
                admin.call("SET", "ref:empty", "");
                long rawAlone = memoryUsage(admin, "ref:raw") - memoryUsage(admin, "ref:empty");
                Map<String, Object> size = new LinkedHashMap<>();
                size.put("rawBytes", rawBytes);
                size.put("records", records);
                size.put("payloadBytes", payload(request, raw, "mem-" + rawBytes + "-0"));
                size.put("rawAllocatorSlackBytes", rawAlone - rawBytes);
                size.put("oneCallKeys", described);
                size.put("alternatives", alternatives);
                size.put("repeats", reps);
                sizes.add(size);
            }
            admin.call("FLUSHALL");
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("argumentsBytes", Payloads.REDIS_REQUEST_BYTES);
        document.put("agentResultBytes", Payloads.AGENT_RESULT_BYTES);
        document.put("sizes", sizes);
        Files.createDirectories(output.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(output.toFile(), document);
    }

    /**
     * The layouts measured beside the store's own, each written directly with the commands it would take,
     * for {@code records} calls of one run, with values of the sizes the store's record holds (its head,
     * outcome and the ledger's fingerprint as the store writes them): {@code used_memory} growth per call
     * over the payload, run state included, per repeat.
     */
    private static Map<String, List<Double>> alternatives(Resp admin, String request, String raw, int records,
            int repeats) {
        String head = "4|3f9c0a6e1d2b7c4e8a91-1b|1764838800:123456000|2026-12-04T09:00:00.123456789Z|"
                + Payloads.TOOL_NAME + "|" + "0123456789abcdef".repeat(4);
        String outcome = "READY|2026-12-04T09:00:00.223456789Z|FOUND|1|-";
        String content = Payloads.agentContent();
        String fingerprint = "0123456789abcdef".repeat(4);
        // A fixed header of the same facts, binary-packed: schema, token (up to 24), lease end, creation
        // and completion instants (8 bytes each), status and evidence, tool name length, raw flag.
        String fixedHeader = "x".repeat(64);
        String ttl = Long.toString(BenchRedis.RECORD_TTL.toMillis());
        Map<String, java.util.function.BiFunction<String, Integer, List<List<String>>>> layouts = new LinkedHashMap<>();
        layouts.put("the store's layout: record hash, raw string, ledger field", (run, i) -> List.of(
                List.of("HSET", key(run, "call", i), "h", head, "a", request, "o", outcome, "c", content),
                List.of("PEXPIRE", key(run, "call", i), ttl),
                List.of("SET", key(run, "raw", i), raw, "PX", ttl),
                List.of("HSET", key(run, "run", -1), "call:" + id(i), fingerprint)));
        layouts.put("one string per record with a fixed header, raw string, ledger field", (run, i) -> List.of(
                List.of("SET", key(run, "call", i), fixedHeader + request + outcome + content, "PX", ttl),
                List.of("SET", key(run, "raw", i), raw, "PX", ttl),
                List.of("HSET", key(run, "run", -1), "call:" + id(i), fingerprint)));
        layouts.put("listpack hash of the small values, arguments, content and raw in keys of their own", (run, i) -> List.of(
                List.of("HSET", key(run, "call", i), "h", fixedHeader.substring(0, 60), "o", outcome),
                List.of("PEXPIRE", key(run, "call", i), ttl),
                List.of("SET", key(run, "args", i), request, "PX", ttl),
                List.of("SET", key(run, "content", i), content, "PX", ttl),
                List.of("SET", key(run, "raw", i), raw, "PX", ttl),
                List.of("HSET", key(run, "run", -1), "call:" + id(i), fingerprint)));
        layouts.put("the store's layout with the ledger as a set of 8-byte fingerprints", (run, i) -> List.of(
                List.of("HSET", key(run, "call", i), "h", head, "a", request, "o", outcome, "c", content),
                List.of("PEXPIRE", key(run, "call", i), ttl),
                List.of("SET", key(run, "raw", i), raw, "PX", ttl),
                List.of("SADD", key(run, "ledger", -1), id(i) + fingerprint.substring(0, 8))));
        layouts.put("hand-rolled peer: one string", (run, i) -> List.of(
                List.of("SET", "peer:{" + run + "}:" + id(i), "DONE\n" + request + raw + content, "PX", ttl)));
        Map<String, List<Double>> measured = new LinkedHashMap<>();
        for (int rep = 0; rep < repeats; rep++) {
            for (Map.Entry<String, java.util.function.BiFunction<String, Integer, List<List<String>>>> layout
                    : layouts.entrySet()) {
                admin.call("FLUSHALL");
                String run = "alt-" + rep;
                admin.call("HSET", key(run, "run", -1), "token", "3f9c0a6e1d2b7c4e8a91-1", "calls", "0");
                long before = usedMemory(admin);
                for (int from = 0; from < records; from += 100) {
                    int sent = 0;
                    for (int i = from; i < Math.min(records, from + 100); i++) {
                        for (List<String> command : layout.getValue().apply(run, i)) {
                            admin.send(command.stream().map(part -> part.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                                    .toList());
                            sent++;
                        }
                    }
                    admin.flush();
                    for (int reply = 0; reply < sent; reply++) {
                        if (admin.read() instanceof Resp.Error error) {
                            throw new IllegalStateException(layout.getKey() + ": " + error.message());
                        }
                    }
                }
                double perCall = (double) (usedMemory(admin) - before) / records - payload(request, raw, run);
                measured.computeIfAbsent(layout.getKey(), name -> new ArrayList<>()).add(perCall);
            }
        }
        return measured;
    }

    /** {@code toolboundary:{<run>}:<kind>:<id>}, or the run's own key for a negative {@code i}. */
    private static String key(String run, String kind, int i) {
        return BenchRedis.PREFIX + ":{" + run + "}:" + kind + (i < 0 ? "" : ":" + id(i));
    }

    private static String id(int i) {
        return String.format("rec%06d", i);
    }

    /** Arguments, raw response, agent result, run id and tool_call_id, in UTF-8 bytes. */
    private static double payload(String request, String raw, String runId) {
        return Projector.utf8Length(request) + Projector.utf8Length(raw) + Payloads.AGENT_RESULT_BYTES
                + Projector.utf8Length(runId) + id(0).length();
    }

    /** {@code MEMORY USAGE} of every key under the run's hash tag. */
    private static Map<String, Long> usage(Resp admin, String runId) {
        Map<String, Long> usage = new LinkedHashMap<>();
        String cursor = "0";
        do {
            List<?> reply = (List<?>) admin.call("SCAN", cursor, "MATCH", "*{" + runId + "}*", "COUNT", "1000");
            cursor = Resp.text(reply.get(0));
            for (Object key : (List<?>) reply.get(1)) {
                usage.put(Resp.text(key), memoryUsage(admin, Resp.text(key)));
            }
        } while (!cursor.equals("0"));
        return usage;
    }

    /** The keys of one call ({@value #DESCRIBED}), each by type, encoding, size, fields and payload in it. */
    private static List<Map<String, Object>> describe(Resp admin, Iterable<String> keys, String request, String raw) {
        List<Map<String, Object>> described = new ArrayList<>();
        for (String key : keys) {
            if (!key.contains(DESCRIBED)) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            String type = admin.text("TYPE", key);
            row.put("key", key.replace(DESCRIBED, "<id>"));
            row.put("type", type);
            row.put("encoding", admin.text("OBJECT", "ENCODING", key));
            row.put("memoryUsageBytes", memoryUsage(admin, key));
            long names = 0;
            long values = 0;
            long payload = 0;
            int fields = 0;
            if (type.equals("hash")) {
                // A flat list of fields and values (RESP2), or one entry per field (a RESP3 map).
                List<String> all = new ArrayList<>();
                for (Object item : (List<?>) admin.call("HGETALL", key)) {
                    if (item instanceof Map.Entry<?, ?> entry) {
                        all.add(Resp.text(entry.getKey()));
                        all.add(Resp.text(entry.getValue()));
                    } else {
                        all.add(Resp.text(item));
                    }
                }
                for (int i = 0; i + 1 < all.size(); i += 2) {
                    String value = all.get(i + 1);
                    fields++;
                    names += Projector.utf8Length(all.get(i));
                    values += Projector.utf8Length(value);
                    payload += isPayload(value, request, raw) ? Projector.utf8Length(value) : 0;
                }
            } else if (type.equals("string")) {
                String value = admin.text("GET", key);
                values = Projector.utf8Length(value);
                payload = isPayload(value, request, raw) ? values : 0;
            }
            row.put("fields", fields);
            row.put("fieldNameBytes", names);
            row.put("valueBytes", values);
            row.put("payloadValueBytes", payload);
            described.add(row);
        }
        return described;
    }

    private static boolean isPayload(String value, String request, String raw) {
        return value.equals(request) || value.equals(raw) || value.equals(Payloads.agentContent());
    }

    /** {@code MEMORY USAGE key SAMPLES 0}; 0 for a missing key. */
    static long memoryUsage(Resp admin, String key) {
        Object reply = admin.call("MEMORY", "USAGE", key, "SAMPLES", "0");
        return reply instanceof Long bytes ? bytes : 0;
    }

    /**
     * {@code used_memory} less what the clients' buffers hold ({@code mem_clients_normal},
     * {@code mem_clients_slaves}): the server shrinks idle clients' query buffers on its own schedule,
     * which would otherwise show as memory a call freed.
     */
    static long usedMemory(Resp admin) {
        long used = -1;
        long clients = 0;
        for (String line : admin.text("INFO", "memory").split("\r?\n")) {
            String value = line.substring(line.indexOf(':') + 1).trim();
            if (line.startsWith("used_memory:")) {
                used = Long.parseLong(value);
            } else if (line.startsWith("mem_clients_normal:") || line.startsWith("mem_clients_slaves:")) {
                clients += Long.parseLong(value);
            }
        }
        if (used < 0) {
            throw new IllegalStateException("INFO memory has no used_memory");
        }
        return used - clients;
    }
}
