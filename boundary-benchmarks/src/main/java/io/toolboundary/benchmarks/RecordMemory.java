package io.toolboundary.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.Utf8;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.vavr.control.Either;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one canonical record costs in Redis: {@code MEMORY USAGE key SAMPLES 0} of READY records made by
 * the boundary, against the payload they carry (request, raw response and agent result, in UTF-8 bytes),
 * beside the hand-rolled peer's record for the same payload. Two references split the overhead: the
 * bytes of the record's own fields (ids, token, fingerprint, timestamps, field names) and what the
 * allocator adds to the raw response alone (a plain string key holding only the raw response, minus an
 * empty one).
 *
 * <p>The same calls also give Redis's own CPU time per call, from {@code INFO commandstats}: the
 * {@code EVALSHA} time of the boundary's two scripts against the {@code SET} time of the peer's two
 * commands. It does not depend on how fast the client is. A probe prices the raw response's path into
 * a script: {@code EVALSHA} of {@code return 1} with the raw response as its only argument, against a
 * plain {@code SET} of the same bytes.
 *
 * <p>Usage: {@code RecordMemory <output.json> <records per size>}.
 */
public final class RecordMemory {

    private RecordMemory() {
    }

    /** Measures and writes the JSON. */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: RecordMemory <output.json> <records per size>");
            System.exit(2);
        }
        Path output = Path.of(args[0]);
        int records = Integer.parseInt(args[1]);
        List<Map<String, Object>> results = new ArrayList<>();
        try (BenchRedis redis = BenchRedis.start()) {
            RedisDeployment server = redis.deployment();
            String request = Payloads.request(Payloads.REDIS_REQUEST_BYTES);
            String content = Payloads.agentContent();
            for (int rawBytes : RedisFloor.RAW_BYTES) {
                redis.flush();
                String raw = Payloads.raw(rawBytes);
                String runId = "bench-memory-" + rawBytes;
                ToolBoundary boundary = redis.boundary(FakeTools.returning(raw));
                RunContext run = Fixtures.opened(boundary, Fixtures.runContext(runId));
                HandRolledToolCalls peer = redis.peer(FakeTools.returning(raw));
                long before = usedMemory(server);
                server.call("CONFIG", "RESETSTAT");
                for (int i = 0; i < records; i++) {
                    Either<BoundaryError, AgentResult> result = boundary.invoke(run,
                            ToolCallEnvelope.of(runId, "m" + i, Payloads.TOOL_NAME, request));
                    if (result.isLeft()) {
                        throw new IllegalStateException("memory call failed: " + result.getLeft().code());
                    }
                }
                double boundaryServerMicros = commandMicros(server, "evalsha") / records;
                long afterBoundary = usedMemory(server);
                long usage = 0;
                long fieldBytes = 0;
                for (int i = 0; i < records; i++) {
                    String key = BenchRedis.recordKey(InvocationKey.of(new RunId(runId), new ToolCallId("m" + i)));
                    usage += server.callLong("MEMORY", "USAGE", key, "SAMPLES", "0");
                    if (i == 0) {
                        for (Map.Entry<String, String> field : RedisFloor.hash(server, key).entrySet()) {
                            fieldBytes += Utf8.byteLength(field.getKey()) + Utf8.byteLength(field.getValue());
                        }
                    }
                }
                server.call("CONFIG", "RESETSTAT");
                for (int i = 0; i < records; i++) {
                    if (peer.call(runId, "m" + i, request) == null) {
                        throw new IllegalStateException("peer memory call refused");
                    }
                }
                double peerServerMicros = commandMicros(server, "set") / records;
                long peerUsage = 0;
                for (int i = 0; i < records; i++) {
                    peerUsage += server.callLong("MEMORY", "USAGE", peer.key(runId, "m" + i), "SAMPLES", "0");
                }
                server.call("SET", "ref:raw", raw);
                server.call("SET", "ref:empty", "");
                long rawAlone = server.callLong("MEMORY", "USAGE", "ref:raw", "SAMPLES", "0")
                        - server.callLong("MEMORY", "USAGE", "ref:empty", "SAMPLES", "0");
                long payload = Utf8.byteLength(request) + rawBytes + Utf8.byteLength(content);
                double perRecord = (double) usage / records;
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("rawBytes", rawBytes);
                row.put("records", records);
                row.put("payloadBytes", payload);
                row.put("memoryUsageBytes", perRecord);
                row.put("overheadBytes", perRecord - payload);
                row.put("recordFieldBytes", fieldBytes);
                row.put("metadataFieldBytes", fieldBytes - payload);
                row.put("rawAllocatorSlackBytes", rawAlone - rawBytes);
                row.put("usedMemoryPerRecordBytes", (double) (afterBoundary - before) / records);
                row.put("peerMemoryUsageBytes", (double) peerUsage / records);
                row.put("peerOverheadBytes", (double) peerUsage / records - payload);
                row.put("boundaryServerMicrosPerCall", boundaryServerMicros);
                row.put("peerServerMicrosPerCall", peerServerMicros);
                row.put("luaArgumentMicros", luaArgumentMicros(server, raw));
                row.put("plainSetMicros", plainSetMicros(server, raw));
                results.add(row);
                System.out.printf("memory raw=%d record=%.0f B payload=%d B overhead=%.0f B peer=%.0f B;"
                        + " Redis CPU per call: boundary %.1f us, peer %.1f us%n", rawBytes, perRecord, payload,
                        perRecord - payload, (double) peerUsage / records, boundaryServerMicros, peerServerMicros);
            }
            redis.flush();
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("argumentsBytes", Payloads.REDIS_REQUEST_BYTES);
        document.put("agentResultBytes", Payloads.AGENT_RESULT_BYTES);
        document.put("results", results);
        Files.createDirectories(output.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(output.toFile(), document);
    }

    private static final int PROBES = 200;

    /** Redis's time for a script that does nothing with one argument of {@code value}, per call. */
    private static double luaArgumentMicros(RedisDeployment server, String value) {
        String sha = server.call("SCRIPT", "LOAD", "return 1").toString();
        server.call("CONFIG", "RESETSTAT");
        for (int i = 0; i < PROBES; i++) {
            server.call("EVALSHA", sha, "0", value);
        }
        return commandMicros(server, "evalsha") / PROBES;
    }

    /** Redis's time for a plain {@code SET} of {@code value}, per call. */
    private static double plainSetMicros(RedisDeployment server, String value) {
        server.call("CONFIG", "RESETSTAT");
        for (int i = 0; i < PROBES; i++) {
            server.call("SET", "probe:" + i, value);
        }
        return commandMicros(server, "set") / PROBES;
    }

    /** The total {@code usec} of one command in {@code INFO commandstats}, or 0 when it never ran. */
    private static double commandMicros(RedisDeployment server, String command) {
        String prefix = "cmdstat_" + command + ":";
        for (String line : server.call("INFO", "commandstats").toString().split("\r?\n")) {
            if (line.startsWith(prefix)) {
                for (String part : line.substring(prefix.length()).split(",")) {
                    if (part.startsWith("usec=")) {
                        return Double.parseDouble(part.substring("usec=".length()));
                    }
                }
            }
        }
        return 0;
    }

    private static long usedMemory(RedisDeployment server) {
        String info = server.call("INFO", "memory").toString();
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("INFO memory has no used_memory");
    }
}
