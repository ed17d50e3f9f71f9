package io.toolboundary.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What Redis itself spends on one call, and the floor it allows, for the boundary and for the
 * hand-rolled peer, from the commands a real call sends.
 *
 * <p>Per raw size: the JVM first makes calls for a few seconds; then one boundary call (and one peer
 * call) runs under {@code MONITOR} ({@link CallCapture}), and each captured command is replayed by
 * {@code redis-benchmark} ({@link Replay}) on call ids of its own: with one connection for the server's
 * time (commandstats, latencystats, main-thread CPU), and with 8 (or 1, 8 and 32) connections for the
 * floor, {@code 1 / sum(1 / rate of each command)}. Beside it, the warm JVM's own calls: commandstats of
 * the top-level commands over calls made on one thread, by the boundary, the peer, the boundary's commands
 * sent alone ({@link StoreCommands}) and the same commands in scripts without their checks
 * ({@link LuaBreakdown#BEGIN_COMMANDS_ALONE}, {@link LuaBreakdown#COMPLETE_COMMANDS_ALONE}). Everything is
 * repeated; the report takes the median and the spread.
 *
 * <p>Usage: {@code RedisFloor <output.json> <seconds per floor measurement> <repeats> <callers,...>}.
 */
public final class RedisFloor {

    static final int[] CALLERS = {1, 8, 32};
    static final int[] RAW_BYTES = {1024, 65536};
    /** The tool_call_id of the captured call: found again in every command it sent. */
    static final String CAPTURE_ID = "capturedcallzq";
    private static final double WARM_SECONDS = 4;
    private static final int WARM_JVM_CALLS = 1000;

    private RedisFloor() {
    }

    /** Measures and writes the JSON. */
    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: RedisFloor <output.json> <seconds per floor measurement> <repeats> <callers,...>");
            System.exit(2);
        }
        Path output = Path.of(args[0]);
        double seconds = Double.parseDouble(args[1]);
        int repeats = Integer.parseInt(args[2]);
        int[] floorCallers = Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray();
        long serverRequests = Math.max(300, Math.min(5000, Math.round(seconds * 4000)));
        List<Map<String, Object>> sizes = new ArrayList<>();
        try (BenchRedis redis = BenchRedis.start(); Resp admin = Resp.connect(redis.endpoint())) {
            for (int rawBytes : RAW_BYTES) {
                sizes.add(size(redis, admin, rawBytes, seconds, repeats, floorCallers, serverRequests));
            }
            admin.call("FLUSHALL");
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("argumentsBytes", Payloads.REDIS_REQUEST_BYTES);
        document.put("agentResultBytes", Payloads.AGENT_RESULT_BYTES);
        document.put("repeats", repeats);
        document.put("secondsPerFloorMeasurement", seconds);
        document.put("serverTimeRequests", serverRequests);
        document.put("warmJvmCalls", WARM_JVM_CALLS);
        document.put("sizes", sizes);
        Files.createDirectories(output.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(output.toFile(), document);
    }

    private static Map<String, Object> size(BenchRedis redis, Resp admin, int rawBytes, double seconds, int repeats,
            int[] floorCallers, long serverRequests) throws Exception {
        String raw = Payloads.raw(rawBytes);
        String request = Payloads.request(Payloads.REDIS_REQUEST_BYTES);
        ToolBoundary boundary = redis.boundary(FakeTools.returning(raw));
        HandRolledToolCalls peer = redis.peer(FakeTools.returning(raw));
        admin.call("FLUSHALL");
        PeerCheck.verify(redis, peer, request);
        warm(admin, boundary, peer, request, rawBytes);

        String runId = "floor-" + rawBytes;
        admin.call("FLUSHALL");
        RunContext run = Fixtures.opened(boundary, Fixtures.runContext(runId));
        CallCapture.Snapshot opened = CallCapture.Snapshot.take(admin);
        CallCapture.Captured boundaryCall = CallCapture.capture(redis.endpoint(),
                () -> invoke(boundary, run, runId, CAPTURE_ID, request));
        Replay boundaryReplay = new Replay(redis.endpoint(), admin, opened, boundaryCall, CAPTURE_ID,
                id -> isSameReady(redis, runId, id, raw, request));

        admin.call("FLUSHALL");
        CallCapture.Snapshot empty = CallCapture.Snapshot.take(admin);
        CallCapture.Captured peerCall = CallCapture.capture(redis.endpoint(), () -> peerCall(peer, runId, CAPTURE_ID, request));
        Replay peerReplay = new Replay(redis.endpoint(), admin, empty, peerCall, CAPTURE_ID,
                id -> Resp.text(admin.call("GET", peer.key(runId, id))).startsWith("DONE\n"));

        List<Map<String, Object>> reps = new ArrayList<>();
        for (int rep = 0; rep < repeats; rep++) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("warmJvm", warmJvm(redis, admin, boundary, peer, request, rawBytes, rep, boundaryCall, peerCall));
            one.put("boundary", replay(boundaryReplay, floorCallers, seconds, serverRequests));
            one.put("peer", replay(peerReplay, floorCallers, seconds, serverRequests));
            reps.add(one);
            System.out.printf("server raw=%d rep=%d done%n", rawBytes, rep + 1);
        }
        Map<String, Object> size = new LinkedHashMap<>();
        size.put("rawBytes", rawBytes);
        size.put("boundaryCommands", describe(boundaryReplay.templates()));
        size.put("boundarySkipped", boundaryCall.skipped());
        size.put("peerCommands", describe(peerReplay.templates()));
        size.put("peerSkipped", peerCall.skipped());
        size.put("repeats", reps);
        return size;
    }

    /** Calls on one thread, boundary and peer, so that the captured call and the warm-JVM figures are warm. */
    private static void warm(Resp admin, ToolBoundary boundary, HandRolledToolCalls peer, String request,
            int rawBytes) {
        String runId = "warm-" + rawBytes;
        RunContext run = null;
        long until = System.nanoTime() + (long) (WARM_SECONDS * 1e9);
        for (long i = 0; System.nanoTime() < until; i++) {
            if (i % 500 == 0) {
                admin.call("FLUSHALL");
                run = Fixtures.opened(boundary, Fixtures.runContext(runId));
            }
            invoke(boundary, run, runId, "w" + i, request);
            peerCall(peer, runId, "w" + i, request);
        }
    }

    /**
     * The warm JVM's own calls on one thread: the server's time per call over every top-level command the
     * captured call sent (the scripts' inner commands are inside their script's time), and its
     * main-thread CPU per call. Each kind's calls are measured from an empty server.
     */
    private static Map<String, Object> warmJvm(BenchRedis redis, Resp admin, ToolBoundary boundary,
            HandRolledToolCalls peer, String request, int rawBytes, int rep, CallCapture.Captured boundaryCall,
            CallCapture.Captured peerCall) throws Exception {
        admin.call("FLUSHALL");
        String runId = "warmjvm-" + rawBytes + "-" + rep;
        RunContext run = Fixtures.opened(boundary, Fixtures.runContext(runId));
        ServerStats.reset(admin);
        ServerStats before = ServerStats.read(admin);
        for (int i = 0; i < WARM_JVM_CALLS; i++) {
            invoke(boundary, run, runId, "b" + i, request);
        }
        ServerStats boundaryStats = ServerStats.read(admin);
        admin.call("FLUSHALL");
        ServerStats.reset(admin);
        ServerStats peerBefore = ServerStats.read(admin);
        for (int i = 0; i < WARM_JVM_CALLS; i++) {
            peerCall(peer, runId, "p" + i, request);
        }
        ServerStats peerStats = ServerStats.read(admin);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("boundaryUsecPerCall", topLevelUsec(boundaryStats, boundaryCall) / WARM_JVM_CALLS);
        row.put("boundaryCpuMainUsecPerCall", (boundaryStats.cpuMainSeconds() - before.cpuMainSeconds()) * 1e6 / WARM_JVM_CALLS);
        row.put("peerUsecPerCall", topLevelUsec(peerStats, peerCall) / WARM_JVM_CALLS);
        row.put("peerCpuMainUsecPerCall", (peerStats.cpuMainSeconds() - peerBefore.cpuMainSeconds()) * 1e6 / WARM_JVM_CALLS);
        // The same caller sends the call's commands with none of the boundary's work between them, then the
        // same commands in scripts without their checks: the server time the call's commands cost from
        // this caller, and the least the guarantees' commands do. A flush does not unload scripts.
        String beginSha = Resp.text(admin.call("SCRIPT", "LOAD", LuaBreakdown.BEGIN_COMMANDS_ALONE));
        String completeSha = Resp.text(admin.call("SCRIPT", "LOAD", LuaBreakdown.COMPLETE_COMMANDS_ALONE));
        row.put("commandsUsecPerCall", commandsUsecPerCall(redis, admin, boundary, request, runId, boundaryCall,
                UnaryOperator.identity()));
        row.put("noChecksUsecPerCall", commandsUsecPerCall(redis, admin, boundary, request, runId, boundaryCall,
                commands -> commands.withScripts(beginSha, completeSha)));
        admin.call("FLUSHALL");
        return row;
    }

    /**
     * The server's time per call over calls of the boundary's commands from this thread, each on a
     * tool_call_id of its own, {@code scripts} choosing the scripts they run: first as many unmeasured calls,
     * to compile their client path, then the measured ones, on an empty server with a run opened anew, as
     * the boundary's own and the peer's were measured.
     */
    private static double commandsUsecPerCall(BenchRedis redis, Resp admin, ToolBoundary boundary, String request,
            String runId, CallCapture.Captured boundaryCall, UnaryOperator<StoreCommands> scripts) {
        StoreCommands warming = scripts.apply(commandsInNewRun(redis, admin, boundary, request, runId));
        for (int i = 0; i < WARM_JVM_CALLS; i++) {
            warming.call("w" + i);
        }
        StoreCommands measured = scripts.apply(commandsInNewRun(redis, admin, boundary, request, runId));
        ServerStats.reset(admin);
        for (int i = 0; i < WARM_JVM_CALLS; i++) {
            measured.call("m" + i);
        }
        return topLevelUsec(ServerStats.read(admin), boundaryCall) / WARM_JVM_CALLS;
    }

    /** An empty server, a run opened in it, and the commands of one boundary call captured in that run. */
    private static StoreCommands commandsInNewRun(BenchRedis redis, Resp admin, ToolBoundary boundary, String request,
            String runId) {
        admin.call("FLUSHALL");
        return redis.captureCommands(boundary, Fixtures.opened(boundary, Fixtures.runContext(runId)), request);
    }

    /** The server's time for the commands the captured call sent, each counted once. */
    private static double topLevelUsec(ServerStats stats, CallCapture.Captured call) {
        Set<String> names = new LinkedHashSet<>();
        call.commands().forEach(command -> names.add(command.get(0).toLowerCase()));
        return names.stream().mapToDouble(stats::usec).sum();
    }

    /** Every command: its server time with one connection, then its rate at each floor's callers. */
    private static List<Map<String, Object>> replay(Replay replay, int[] floorCallers, double seconds,
            long serverRequests) {
        List<Map<String, Object>> commands = new ArrayList<>();
        for (int k = 0; k < replay.templates().size(); k++) {
            Replay.Measured server = replay.measure(k, 1, serverRequests);
            List<Replay.Measured> floors = new ArrayList<>();
            for (int callers : floorCallers) {
                long requests = Math.max(500, Math.round(server.rps() * Math.min(callers, 2) * seconds));
                floors.add(replay.measure(k, callers, requests));
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("server", server);
            row.put("floors", floors);
            commands.add(row);
        }
        return commands;
    }

    /** A command's label (script names by their digest), argument count and bytes. */
    private static List<Map<String, Object>> describe(List<List<String>> templates) {
        Map<String, String> scripts = ScriptNames.bySha();
        List<Map<String, Object>> described = new ArrayList<>();
        for (List<String> command : templates) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("label", ScriptNames.label(command, scripts));
            row.put("name", command.get(0).toLowerCase());
            row.put("arguments", command.size() - 1);
            row.put("argumentBytes", command.stream().skip(1).mapToLong(String::length).sum());
            described.add(row);
        }
        return described;
    }

    private static void invoke(ToolBoundary boundary, RunContext run, String runId, String toolCallId, String request) {
        Either<BoundaryError, AgentResult> result = boundary.invoke(run,
                ToolCallEnvelope.of(runId, toolCallId, Payloads.TOOL_NAME, request));
        if (result.isLeft()) {
            throw new IllegalStateException("a measured call failed: " + result.getLeft().code());
        }
    }

    private static void peerCall(HandRolledToolCalls peer, String runId, String toolCallId, String request) {
        try {
            if (peer.call(runId, toolCallId, request) == null) {
                throw new IllegalStateException("the peer refused a fresh tool_call_id");
            }
        } catch (RuntimeException failure) {
            throw failure;
        } catch (Exception failure) {
            throw new IllegalStateException("the peer failed", failure);
        }
    }

    /** The library's store reads the replayed call back as the READY record the real call made. */
    private static boolean isSameReady(BenchRedis redis, String runId, String id, String raw, String request) {
        InvocationKey key = InvocationKey.of(new RunId(runId), new ToolCallId(id));
        Either<StoreFailure, Option<CanonicalRecord>> found = redis.store().find(key, java.time.Duration.ofSeconds(5));
        return found.isRight() && found.get().isDefined()
                && found.get().get() instanceof CanonicalRecord.Ready ready
                && ready.rawResponse().contains(raw)
                && ready.result().content().equals(Payloads.agentContent())
                && ready.arguments().equals(request);
    }
}
