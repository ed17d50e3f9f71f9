package io.toolboundary.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisAdmin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one canonical record costs in Redis beyond its payload, per call of a run: the growth of
 * {@code used_memory} (less client buffers) and of {@code MEMORY USAGE} over the run's keys, and the same for
 * the hand-rolled peer. Usage: {@code RecordMemory <output.json> <records per run> <repeats>}.
 */
public final class RecordMemory {

    private RecordMemory() {
    }

    /** Measures and writes the JSON. */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: RecordMemory <output.json> <records per run> <repeats>");
            System.exit(2);
        }
        int records = Integer.parseInt(args[1]);
        int repeats = Integer.parseInt(args[2]);
        String request = Payloads.request(Payloads.REDIS_REQUEST_BYTES);
        List<Map<String, Object>> sizes = new ArrayList<>();
        try (BenchRedis redis = BenchRedis.start();
                RedisAdmin admin = RedisAdmin.open(redis.endpoint(), Duration.ofMinutes(2))) {
            for (int rawBytes : BenchRedis.RAW_BYTES) {
                String raw = Payloads.raw(rawBytes);
                ToolBoundary boundary = redis.boundary(FakeTools.returning(raw));
                HandRolledToolCalls peer = redis.peer(FakeTools.returning(raw));
                List<Map<String, Object>> reps = new ArrayList<>();
                for (int rep = 0; rep < repeats; rep++) {
                    redis.flush();
                    String runId = "mem-" + rawBytes + "-" + rep;
                    RunContext run = Fixtures.opened(boundary, Fixtures.runContext(runId));
                    long keysBefore = usage(admin, runId);
                    double usedBefore = usedMemory(redis);
                    for (int i = 0; i < records; i++) {
                        if (boundary.invoke(run, ToolCallEnvelope.of(runId, id(i), Payloads.TOOL_NAME, request)).isLeft()) {
                            throw new IllegalStateException("a memory call was refused");
                        }
                    }
                    double used = (usedMemory(redis) - usedBefore) / records;
                    double keys = (double) (usage(admin, runId) - keysBefore) / records;
                    redis.flush();
                    String peerRun = "memp-" + rawBytes + "-" + rep;
                    double peerUsedBefore = usedMemory(redis);
                    for (int i = 0; i < records; i++) {
                        if (peer.call(peerRun, id(i), request) == null) {
                            throw new IllegalStateException("a peer memory call was refused");
                        }
                    }
                    double peerUsed = (usedMemory(redis) - peerUsedBefore) / records;
                    double peerKeys = (double) usage(admin, peerRun) / records;
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("usedMemoryPerRecordBytes", used);
                    row.put("overheadBytes", keys - payload(request, raw, runId));
                    row.put("peerUsedMemoryPerRecordBytes", peerUsed);
                    row.put("peerOverheadBytes", peerKeys - payload(request, raw, peerRun));
                    reps.add(row);
                    System.out.printf("memory raw=%d rep=%d %s%n", rawBytes, rep + 1, row);
                }
                Map<String, Object> size = new LinkedHashMap<>();
                size.put("rawBytes", rawBytes);
                size.put("records", records);
                size.put("payloadBytes", payload(request, raw, "mem-" + rawBytes + "-0"));
                size.put("repeats", reps);
                sizes.add(size);
            }
            redis.flush();
        }
        Path output = Path.of(args[0]);
        Files.createDirectories(output.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(output.toFile(),
                Map.of("argumentsBytes", Payloads.REDIS_REQUEST_BYTES, "agentResultBytes", Payloads.AGENT_RESULT_BYTES,
                        "sizes", sizes));
    }

    private static String id(int i) {
        return String.format("rec%06d", i);
    }

    /** Arguments, raw response, agent result, run id and tool_call_id, in UTF-8 bytes. */
    private static double payload(String request, String raw, String runId) {
        return Projector.utf8Length(request) + Projector.utf8Length(raw) + Payloads.AGENT_RESULT_BYTES
                + Projector.utf8Length(runId) + id(0).length();
    }

    /** {@code MEMORY USAGE key SAMPLES 0} summed over every key under the run's hash tag. */
    private static long usage(RedisAdmin admin, String runId) {
        long sum = 0;
        for (String key : admin.scan("*{" + runId + "}*")) {
            sum += admin.command("MEMORY", "USAGE", key, "SAMPLES", "0") instanceof Long bytes ? bytes : 0;
        }
        return sum;
    }

    /** {@code used_memory} less the clients' buffers, which the server shrinks on its own schedule. */
    private static double usedMemory(BenchRedis redis) {
        double[] memory = redis.info("memory", "used_memory", "mem_clients_normal", "mem_clients_slaves");
        return memory[0] - memory[1] - memory[2];
    }
}
