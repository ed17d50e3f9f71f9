package io.toolboundary.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.RunToken;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The floor Redis allows: {@code redis-benchmark} running the store's own {@code begin.lua} and
 * {@code complete.lua} by EVALSHA, with the argument lists the store sends, at the callers and payloads
 * of {@link RedisBoundaryBenchmark}. The floor of one call is {@code 1 / (1/begin + 1/complete)}.
 *
 * <p>The argument lists are copied from a real call in an opened run: a capturing tool reads its own
 * PROJECTING record while it runs (the fields {@code begin} wrote), and the READY record after the call
 * gives the fields {@code complete} wrote. Before measuring, one begin and one complete with those lists
 * are run on a new key and the library's store must read the result back as the same READY record. Every
 * flush of the server is followed by opening the run again with the captured run token, so that each
 * measured begin passes the run check as a real call does.
 *
 * <p>Every begin gets a new key ({@code __rand_int__} with {@code -r}). Every complete must find a
 * PROJECTING record with its token, so a fixed set of records is created first and the measured
 * completes write {@code status=PROJECTING} back instead of {@code READY} (five bytes fewer): each can
 * then take the full compare-and-set path again, whichever record the random key picks.
 *
 * <p>Usage: {@code RedisFloor <output.json> <seconds per measurement>}.
 */
public final class RedisFloor {

    static final int[] CALLERS = {1, 8, 32};
    static final int[] RAW_BYTES = {1024, 65536};
    private static final String RUN_ID = "bench-floor";
    private static final String PLACEHOLDER = "__rand_int__";
    /** The field begin.lua adds itself, from the lease it is given. */
    private static final String LEASE_FIELD = "leaseUntil";
    private static final int KEYSPACE = 2_000_000_000;
    private static final Pattern CSV_TAIL = Pattern.compile(
            "\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\"\\s*$");

    private RedisFloor() {
    }

    /** Runs the floor and writes its JSON. */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: RedisFloor <output.json> <seconds per measurement>");
            System.exit(2);
        }
        Path output = Path.of(args[0]);
        double seconds = Double.parseDouble(args[1]);
        List<Map<String, Object>> results = new ArrayList<>();
        try (BenchRedis redis = BenchRedis.start()) {
            RedisDeployment server = redis.deployment();
            String beginSha = server.call("SCRIPT", "LOAD", script("begin.lua")).toString();
            String completeSha = server.call("SCRIPT", "LOAD", script("complete.lua")).toString();
            for (int rawBytes : RAW_BYTES) {
                redis.flush();
                Templates templates = capture(redis, rawBytes);
                check(redis, templates, beginSha, completeSha);
                for (int callers : CALLERS) {
                    flushAndReopen(redis, templates);
                    Measured begin = measureBegin(redis, templates, beginSha, callers, seconds);
                    flushAndReopen(redis, templates);
                    Measured complete = measureComplete(redis, templates, beginSha, completeSha, callers, seconds);
                    double floor = 1.0 / (1.0 / begin.rps() + 1.0 / complete.rps());
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("rawBytes", rawBytes);
                    row.put("callers", callers);
                    row.put("begin", begin);
                    row.put("complete", complete);
                    row.put("floorRps", floor);
                    results.add(row);
                    System.out.printf("floor raw=%d callers=%d begin=%.0f/s complete=%.0f/s floor=%.0f/s%n",
                            rawBytes, callers, begin.rps(), complete.rps(), floor);
                }
            }
            redis.flush();
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("argumentsBytes", Payloads.REDIS_REQUEST_BYTES);
        document.put("agentResultBytes", Payloads.AGENT_RESULT_BYTES);
        document.put("secondsPerMeasurement", seconds);
        document.put("tool", "redis-benchmark -P 1, EVALSHA of begin.lua and complete.lua");
        document.put("results", results);
        Files.createDirectories(output.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(output.toFile(), document);
    }

    /** One redis-benchmark measurement. */
    record Measured(long requests, double rps, double p50Ms, double p99Ms, double avgMs) {
    }

    /**
     * The argument lists of one payload, with {@value #PLACEHOLDER} where the tool_call_id goes, and the
     * token the run was opened with.
     */
    record Templates(List<String> beginKeys, List<String> beginArgs, String completeKey, List<String> completeArgs,
            List<String> completeArgsRearming, String raw, String content, String request, RunToken runToken) {

        /** The same lists with every placeholder replaced by {@code id}. */
        Templates with(String id) {
            return new Templates(fill(beginKeys, id), fill(beginArgs, id), completeKey.replace(PLACEHOLDER, id),
                    fill(completeArgs, id), fill(completeArgsRearming, id), raw, content, request, runToken);
        }

        private static List<String> fill(List<String> values, String id) {
            return values.stream().map(value -> value.replace(PLACEHOLDER, id)).toList();
        }
    }

    private static Templates capture(BenchRedis redis, int rawBytes) {
        String raw = Payloads.raw(rawBytes);
        String toolCallId = "capture-" + rawBytes;
        InvocationKey key = InvocationKey.of(new RunId(RUN_ID), new ToolCallId(toolCallId));
        String recordKey = BenchRedis.recordKey(key);
        Map<String, String> projecting = new LinkedHashMap<>();
        ToolBoundary boundary = redis.boundary((ToolRequest request) -> {
            projecting.putAll(hash(redis.deployment(), recordKey));
            return raw;
        });
        String request = Payloads.request(Payloads.REDIS_REQUEST_BYTES);
        RunContext run = Fixtures.opened(boundary, Fixtures.runContext(RUN_ID));
        RunToken runToken = run.runToken().get();
        Either<BoundaryError, AgentResult> result = boundary.invoke(run,
                ToolCallEnvelope.of(RUN_ID, toolCallId, Payloads.TOOL_NAME, request));
        if (result.isLeft()) {
            throw new IllegalStateException("capture call failed: " + result.getLeft().code());
        }
        Map<String, String> ready = hash(redis.deployment(), recordKey);
        if (!"PROJECTING".equals(projecting.get("status")) || !"READY".equals(ready.get("status"))) {
            throw new IllegalStateException("capture did not see PROJECTING then READY: " + projecting.keySet());
        }
        String recordTemplate = BenchRedis.recordKey(InvocationKey.of(new RunId(RUN_ID), new ToolCallId("f-0")))
                .replace("f-0", "f-" + PLACEHOLDER);
        String runState = BenchRedis.PREFIX + ":{" + RUN_ID + "}:run";
        // The attempt's end mark: never written here (no attempt is ended), so every begin finds none.
        String endMark = BenchRedis.PREFIX + ":{" + RUN_ID + "}:ended:" + projecting.get("token");

        // begin.lua's arguments as the store sends them; leaseUntil is the script's own, from the lease.
        List<String> beginArgs = new ArrayList<>();
        beginArgs.add(projecting.get("token"));
        beginArgs.add(projecting.get("fingerprint"));
        beginArgs.add(Long.toString(BenchRedis.RECORD_TTL.toMillis()));
        beginArgs.add(Integer.toString(RunContext.UNLIMITED));
        beginArgs.add(Integer.toString(ToolBinding.UNLIMITED));
        beginArgs.add(Long.toString(ToolBoundaryConfig.ofDefaults().executionLease().toMillis()));
        beginArgs.add(runToken.value());
        beginArgs.add("tool:" + Payloads.TOOL_NAME);
        beginArgs.add("call:f-" + PLACEHOLDER);
        // The most calls this process saw the run begin: the floor keeps no such mark.
        beginArgs.add("0");
        projecting.forEach((field, value) -> {
            if (!LEASE_FIELD.equals(field)) {
                beginArgs.add(field);
                beginArgs.add(value);
            }
        });

        // complete.lua's arguments: the token, the final status, no record cap (the store's default), then
        // what the completion adds (the rearming copy writes status=PROJECTING back, so the next complete
        // takes the same write path).
        List<String> completeArgs = new ArrayList<>();
        completeArgs.add(projecting.get("token"));
        completeArgs.add("READY");
        completeArgs.add("");
        List<String> rearming = new ArrayList<>(completeArgs);
        ready.forEach((field, value) -> {
            if (!value.equals(projecting.get(field))) {
                completeArgs.add(field);
                completeArgs.add(value);
                rearming.add(field);
                rearming.add("status".equals(field) ? "PROJECTING" : value);
            }
        });
        return new Templates(List.of(recordTemplate, runState, endMark), List.copyOf(beginArgs), recordTemplate,
                List.copyOf(completeArgs), List.copyOf(rearming), raw, Payloads.agentContent(), request, runToken);
    }

    /** One begin and one complete with the captured lists; the store must read back the same READY record. */
    private static void check(BenchRedis redis, Templates templates, String beginSha, String completeSha) {
        String id = "000000000001";
        Templates filled = templates.with(id);
        expectFirst(evalsha(redis.deployment(), beginSha, filled.beginKeys(), filled.beginArgs()), "CREATED");
        expectFirst(evalsha(redis.deployment(), completeSha, List.of(filled.completeKey()), filled.completeArgs()),
                "APPLIED");
        InvocationKey key = InvocationKey.of(new RunId(RUN_ID), new ToolCallId("f-" + id));
        Either<BoundaryError, Option<CanonicalRecord>> found = redis.store().find(key);
        if (found.isLeft() || found.get().isEmpty() || !(found.get().get() instanceof CanonicalRecord.Ready ready)) {
            throw new IllegalStateException("the store does not read the floor's record as READY: " + found);
        }
        if (!ready.rawResponse().contains(templates.raw()) || !ready.result().content().equals(templates.content())
                || !ready.arguments().equals(templates.request())) {
            throw new IllegalStateException("the floor's record differs from the boundary's");
        }
    }

    private static Measured measureBegin(BenchRedis redis, Templates templates, String sha, int callers,
            double seconds) {
        List<String> command = command(sha, templates.beginKeys(), templates.beginArgs());
        Measured pilot = redisBenchmark(redis, callers, pilotRequests(callers), KEYSPACE, command);
        flushAndReopen(redis, templates);
        Measured measured = redisBenchmark(redis, callers, requestsFor(pilot, seconds), KEYSPACE, command);
        long records = redis.deployment().callLong("DBSIZE") - 1;   // every key but the run's state
        if (records < measured.requests() * 0.99) {
            throw new IllegalStateException("begin floor created " + records + " records for "
                    + measured.requests() + " requests: the script refused calls");
        }
        return measured;
    }

    private static Measured measureComplete(BenchRedis redis, Templates templates, String beginSha,
            String completeSha, int callers, double seconds) {
        int records = Math.max(100, (int) Math.min(2000, (256L << 20) / Math.max(1, templates.raw().length())));
        for (int i = 0; i < records; i++) {
            Templates filled = templates.with(String.format("%012d", i));
            expectFirst(evalsha(redis.deployment(), beginSha, filled.beginKeys(), filled.beginArgs()), "CREATED");
        }
        List<String> command = command(completeSha, List.of(templates.completeKey()), templates.completeArgsRearming());
        Measured pilot = redisBenchmark(redis, callers, pilotRequests(callers), records, command);
        Measured measured = redisBenchmark(redis, callers, requestsFor(pilot, seconds), records, command);
        long touched = 0;
        for (int i = 0; i < records; i++) {
            String key = templates.with(String.format("%012d", i)).completeKey();
            if (!"PROJECTING".equals(redis.deployment().call("HGET", key, "status"))) {
                throw new IllegalStateException("complete floor left a record that is not PROJECTING: " + key);
            }
            touched += redis.deployment().callLong("HSTRLEN", key, "rawResponse") > 0 ? 1 : 0;
        }
        double sent = pilot.requests() + measured.requests();
        double expected = records * (1 - Math.exp(-sent / records));
        if (touched < expected * 0.8) {
            throw new IllegalStateException("complete floor wrote " + touched + " records, expected about "
                    + Math.round(expected) + ": the script did not take the compare-and-set path");
        }
        return measured;
    }

    /** Empties the server and opens the run again with the captured token, as the measured begins expect. */
    private static void flushAndReopen(BenchRedis redis, Templates templates) {
        redis.flush();
        Either<BoundaryError, RunToken> opened = redis.store().openRun(new RunId(RUN_ID), templates.runToken(),
                Duration.ofHours(1));
        if (!opened.contains(templates.runToken())) {
            throw new IllegalStateException("could not open the floor's run again: " + opened);
        }
    }

    private static int pilotRequests(int callers) {
        return Math.max(500, callers * 50);
    }

    private static long requestsFor(Measured pilot, double seconds) {
        return Math.max(1000, Math.min(5_000_000, Math.round(pilot.rps() * seconds)));
    }

    private static List<String> command(String sha, List<String> keys, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add("EVALSHA");
        command.add(sha);
        command.add(Integer.toString(keys.size()));
        command.addAll(keys);
        command.addAll(args);
        return command;
    }

    private static Measured redisBenchmark(BenchRedis redis, int callers, long requests, int keyspace,
            List<String> command) {
        List<String> process = new ArrayList<>(List.of("redis-benchmark", "-h", redis.endpoint().host(),
                "-p", Integer.toString(redis.endpoint().port()), "-c", Integer.toString(callers),
                "-n", Long.toString(requests), "-r", Integer.toString(keyspace), "-P", "1", "--csv"));
        redis.endpoint().password().forEach(password -> process.addAll(List.of("-a", password)));
        process.addAll(command);
        try {
            Process run = new ProcessBuilder(process).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!run.waitFor(10, TimeUnit.MINUTES) || run.exitValue() != 0) {
                throw new IllegalStateException("redis-benchmark failed");
            }
            String[] lines = out.strip().split("\n");
            Matcher numbers = CSV_TAIL.matcher(lines[lines.length - 1]);
            if (!numbers.find()) {
                throw new IllegalStateException("cannot read redis-benchmark's output");
            }
            return new Measured(requests, Double.parseDouble(numbers.group(1)), Double.parseDouble(numbers.group(4)),
                    Double.parseDouble(numbers.group(6)), Double.parseDouble(numbers.group(2)));
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot run redis-benchmark", failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", interrupted);
        }
    }

    private static Object evalsha(RedisDeployment server, String sha, List<String> keys, List<String> args) {
        return server.call(command(sha, keys, args).toArray(String[]::new));
    }

    private static void expectFirst(Object reply, String outcome) {
        if (!(reply instanceof List<?> list) || list.isEmpty() || !outcome.equals(list.get(0))) {
            throw new IllegalStateException("expected " + outcome + ", got " + reply);
        }
    }

    static Map<String, String> hash(RedisDeployment server, String key) {
        Object reply = server.call("HGETALL", key);
        Map<String, String> fields = new LinkedHashMap<>();
        if (reply instanceof List<?> list) {
            for (int i = 0; i + 1 < list.size(); i += 2) {
                fields.put(list.get(i).toString(), list.get(i + 1).toString());
            }
        }
        return fields;
    }

    private static String script(String name) {
        try (InputStream in = RedisFloor.class.getResourceAsStream("/io/toolboundary/adapter/redis/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read " + name, failure);
        }
    }
}
