package io.toolboundary.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a call's server time goes inside the store's scripts. One real call is captured with
 * {@code MONITOR} ({@link CallCapture}); its {@code begin.lua} and {@code complete.lua} commands, with
 * their keys and arguments exactly as the store sent them, are then replayed from one connection
 * (pipelined, each on a tool_call_id of its own) against several scripts side by side: the store's own,
 * an empty script, each script's commands alone with constants in place of its checks and computed values,
 * and scripts that each do one part of begin's or complete's work. {@code INFO commandstats}
 * gives each script's execution time per call ({@code usec / calls}) and the time of the Redis commands
 * it ran inside; a part's cost in Lua is its script's time less the empty script's. The completion is
 * also replayed as the store sends it, {@code SET ... XX KEEPTTL} then {@code EVALSHA} in one pipeline,
 * at 1 KiB and 64 KiB of raw response: begin plus those two is the server's time per successful call.
 * Every variant runs once per repeat, the variants interleaved, so that a busy machine weighs on all of
 * them alike.
 *
 * <p>Usage: {@code LuaBreakdown <output.json> <calls per variant> <repeats>}.
 */
public final class LuaBreakdown {

    private static final String CAPTURE_ID = "capturedcallzq";
    private static final int BATCH = 200;
    /**
     * Where complete's {@code ARGV[4]}, the raw response's length, sits in its {@code EVALSHA}: after the
     * name, SHA, key count, three keys and three arguments.
     */
    private static final int COMPLETE_RAW_LENGTH = 9;
    private static final String STORE_SCRIPTS = "/io/toolboundary/adapter/redis/";
    private static final String OWN_SCRIPTS = "/io/toolboundary/benchmarks/lua/";

    /**
     * begin.lua's seven commands with constants in place of its checks, counts and lease, answering as the
     * store's script does when it creates a record: what a call's begin costs the server before any check.
     */
    static final String BEGIN_COMMANDS_ALONE = """
            redis.call('HMGET', KEYS[2], 'token', 'calls', ARGV[8], ARGV[9])
            redis.call('EXISTS', KEYS[1], KEYS[3])
            redis.call('HSET', KEYS[2], 'calls', 1, ARGV[8], 1, ARGV[9], ARGV[2])
            redis.call('TIME')
            redis.call('HSET', KEYS[1], 'h', ARGV[11] .. '1733300000:123456789' .. ARGV[12], 'a', ARGV[13])
            redis.call('PEXPIRE', KEYS[1], ARGV[3])
            redis.call('SET', KEYS[4], '', 'PX', ARGV[3])
            return {'CREATED', 'calls', '1'}""";

    /**
     * complete.lua's four commands without its checks, answering as the store's script does when it
     * applies: what a call's completion costs the server before any check.
     */
    static final String COMPLETE_COMMANDS_ALONE = """
            redis.call('HMGET', KEYS[1], 'h', 'o')
            redis.call('STRLEN', KEYS[2])
            redis.call('RENAME', KEYS[2], KEYS[3])
            redis.call('HSET', KEYS[1], 'o', ARGV[5], 'c', ARGV[6])
            return {'APPLIED'}""";

    private LuaBreakdown() {
    }

    /** One script measured in place of the captured one: its label, what it stands for, its source. */
    record Variant(String label, String part, String source) {
    }

    /** Measures and writes the JSON. */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: LuaBreakdown <output.json> <calls per variant> <repeats>");
            System.exit(2);
        }
        Path output = Path.of(args[0]);
        int calls = Integer.parseInt(args[1]);
        int repeats = Integer.parseInt(args[2]);
        Map<String, Object> document = new LinkedHashMap<>();
        try (BenchRedis redis = BenchRedis.start(); Resp admin = Resp.connect(redis.endpoint())) {
            String request = Payloads.request(Payloads.REDIS_REQUEST_BYTES);
            String raw = Payloads.raw(1024);
            ToolBoundary boundary = redis.boundary(FakeTools.returning(raw));
            String runId = "lua-breakdown";
            admin.call("FLUSHALL");
            RunContext run = Fixtures.opened(boundary, Fixtures.runContext(runId));
            for (int i = 0; i < 200; i++) {
                invoke(boundary, run, runId, "warm" + i, request);
            }
            admin.call("FLUSHALL");
            run = Fixtures.opened(boundary, Fixtures.runContext(runId));
            CallCapture.Snapshot opened = CallCapture.Snapshot.take(admin);
            RunContext captured = run;
            CallCapture.Captured call = CallCapture.capture(redis.endpoint(),
                    () -> invoke(boundary, captured, runId, CAPTURE_ID, request));
            List<String> begin = evalsha(call, 0);
            List<String> set = call.commands().get(1);
            List<String> complete = evalsha(call, 2);
            if (!set.get(0).equalsIgnoreCase("SET")) {
                throw new IllegalStateException("the captured completion does not start with SET: " + set.get(0));
            }
            List<Variant> beginVariants = beginVariants();
            List<Variant> completeVariants = completeVariants();
            Map<String, List<Map<String, Object>>> beginRows = new LinkedHashMap<>();
            Map<String, List<Map<String, Object>>> completeRows = new LinkedHashMap<>();
            Map<Integer, List<Map<String, Object>>> perCall = new LinkedHashMap<>();
            for (int rep = 0; rep < repeats; rep++) {
                for (Variant variant : beginVariants) {
                    opened.restore(admin);
                    beginRows.computeIfAbsent(variant.label(), label -> new ArrayList<>())
                            .add(measure(admin, begin, variant, calls, "b" + rep + "x"));
                }
                for (Variant variant : completeVariants) {
                    opened.restore(admin);
                    String prefix = "c" + rep + "x";
                    replay(admin, begin, calls, prefix);
                    replay(admin, set, calls, prefix);
                    completeRows.computeIfAbsent(variant.label(), label -> new ArrayList<>())
                            .add(measure(admin, complete, variant, calls, prefix));
                }
                for (int rawBytes : RedisFloor.RAW_BYTES) {
                    opened.restore(admin);
                    perCall.computeIfAbsent(rawBytes, size -> new ArrayList<>())
                            .add(successfulCalls(admin, begin, set, complete, Payloads.raw(rawBytes), calls,
                                    "s" + rawBytes + "r" + rep + "x"));
                }
                System.out.printf("lua breakdown rep=%d done%n", rep + 1);
            }
            admin.call("FLUSHALL");
            document.put("calls", calls);
            document.put("repeats", repeats);
            document.put("beginArguments", begin.size() - 3);
            document.put("beginArgumentBytes", begin.stream().skip(3).mapToLong(String::length).sum());
            document.put("completeArguments", complete.size() - 3);
            document.put("begin", rows(beginVariants, beginRows));
            document.put("complete", rows(completeVariants, completeRows));
            List<Map<String, Object>> sizes = new ArrayList<>();
            perCall.forEach((rawBytes, reps) -> {
                Map<String, Object> size = new LinkedHashMap<>();
                size.put("rawBytes", rawBytes);
                size.put("repeats", reps);
                sizes.add(size);
            });
            document.put("perCall", sizes);
        }
        Files.createDirectories(output.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(output.toFile(), document);
    }

    private static List<Map<String, Object>> rows(List<Variant> variants, Map<String, List<Map<String, Object>>> reps) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Variant variant : variants) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("label", variant.label());
            row.put("part", variant.part());
            row.put("repeats", reps.get(variant.label()));
            rows.add(row);
        }
        return rows;
    }

    /** The captured EVALSHA at {@code index}, or the one after it when a SCRIPT LOAD came first. */
    private static List<String> evalsha(CallCapture.Captured call, int index) {
        List<String> command = call.commands().get(index);
        if (!command.get(0).equalsIgnoreCase("EVALSHA")) {
            throw new IllegalStateException("captured command " + index + " is not EVALSHA: " + command.get(0));
        }
        return command;
    }

    /**
     * Runs {@code variant} in place of the captured script on {@code calls} new ids and answers its time
     * per call and that of each command it ran inside, from {@code INFO commandstats}.
     */
    private static Map<String, Object> measure(Resp admin, List<String> captured, Variant variant, int calls,
            String prefix) {
        String sha = Resp.text(admin.call("SCRIPT", "LOAD", variant.source()));
        ServerStats.reset(admin);
        List<String> command = new ArrayList<>(captured);
        command.set(1, sha);
        replay(admin, command, calls, prefix);
        ServerStats stats = ServerStats.read(admin);
        Map<String, Object> row = new LinkedHashMap<>();
        long ran = stats.calls("evalsha");
        if (ran != calls) {
            throw new IllegalStateException(variant.label() + " ran " + ran + " times, not " + calls);
        }
        row.put("usecPerCall", stats.usec("evalsha") / ran);
        Map<String, Double> inner = new LinkedHashMap<>();
        stats.commands().forEach((name, stat) -> {
            if (!name.equals("evalsha") && !name.equals("config|resetstat") && !name.equals("info")
                    && !name.startsWith("script")) {
                inner.put(name, stat.usec() / calls);
            }
        });
        row.put("innerUsecPerCall", inner);
        return row;
    }

    /**
     * A successful call as the store sends it, {@code calls} times: begin, then the raw response's
     * {@code SET} and complete, pipelined; the time per call of begin, of the {@code SET} and of complete.
     * complete's {@code ARGV[4]}, the raw response's length, is set to {@code raw}'s.
     */
    private static Map<String, Object> successfulCalls(Resp admin, List<String> begin, List<String> set,
            List<String> complete, String raw, int calls, String prefix) {
        ServerStats.reset(admin);
        replay(admin, begin, calls, prefix);
        double beginUsec = ServerStats.read(admin).usec("evalsha") / calls;
        ServerStats.reset(admin);
        List<String> sized = new ArrayList<>(set);
        sized.set(2, raw);
        List<String> completing = new ArrayList<>(complete);
        completing.set(COMPLETE_RAW_LENGTH, Integer.toString(raw.getBytes(StandardCharsets.UTF_8).length));
        for (int from = 0; from < calls; from += BATCH) {
            int to = Math.min(calls, from + BATCH);
            for (int i = from; i < to; i++) {
                String id = prefix + i;
                admin.send(bytes(withId(sized, id)));
                admin.send(bytes(withId(completing, id)));
            }
            admin.flush();
            for (int i = from; i < to; i++) {
                if (admin.read() instanceof Resp.Error error) {
                    throw new IllegalStateException("a replayed SET failed: " + error.message());
                }
                Object applied = admin.read();
                if (!(applied instanceof List<?> reply) || reply.isEmpty() || !(reply.get(0) instanceof byte[] first)
                        || !"APPLIED".equals(new String(first, StandardCharsets.UTF_8))) {
                    throw new IllegalStateException("a replayed completion did not apply: " + applied);
                }
            }
        }
        ServerStats stats = ServerStats.read(admin);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("evalshaUsecPerCall", beginUsec);
        row.put("setUsecPerCall", stats.usec("set") / calls);
        row.put("completeUsecPerCall", stats.usec("evalsha") / calls);
        row.put("usecPerCall", beginUsec + (stats.usec("set") + stats.usec("evalsha")) / calls);
        return row;
    }

    /** Runs {@code command} on ids {@code prefix0..}, pipelined; every reply must be a success. */
    private static void replay(Resp admin, List<String> command, int calls, String prefix) {
        for (int from = 0; from < calls; from += BATCH) {
            int to = Math.min(calls, from + BATCH);
            for (int i = from; i < to; i++) {
                admin.send(bytes(withId(command, prefix + i)));
            }
            admin.flush();
            for (int i = from; i < to; i++) {
                if (admin.read() instanceof Resp.Error error) {
                    throw new IllegalStateException("a replayed " + command.get(0) + " failed: " + error.message());
                }
            }
        }
    }

    private static List<String> withId(List<String> command, String id) {
        return command.stream().map(part -> part.replace(CAPTURE_ID, id)).toList();
    }

    private static List<byte[]> bytes(List<String> command) {
        return command.stream().map(part -> part.getBytes(StandardCharsets.UTF_8)).toList();
    }

    /** The scripts measured in begin's place, with begin's keys and arguments. */
    static List<Variant> beginVariants() {
        return List.of(
                new Variant("empty", "an empty script (`return 1`) with begin's keys and arguments", "return 1"),
                new Variant("begin.lua", "the store's begin.lua", storeScript("begin.lua")),
                new Variant("commands alone", "begin.lua's seven commands, with constants in place of its checks,"
                        + " counts and lease", BEGIN_COMMANDS_ALONE),
                part("HMGET run", "the run's token, counters and ledger entry",
                        "redis.call('HMGET', KEYS[2], 'token', 'calls', ARGV[8], ARGV[9])"),
                part("EXISTS", "the record and the end mark",
                        "redis.call('EXISTS', KEYS[1], KEYS[3])"),
                part("HSET ledger", "the ledger write alone", "redis.call('HSET', KEYS[2], ARGV[9], ARGV[2])"),
                part("HSET counters and ledger", "the run's and the tool's counters and the ledger in one HSET",
                        "redis.call('HSET', KEYS[2], 'calls', 1, ARGV[8], 1, ARGV[9], ARGV[2])"),
                part("TIME", "the server's clock", "redis.call('TIME')"),
                part("lease", "TIME, arithmetic and string.format of the lease",
                        "local now = redis.call('TIME')\nlocal leaseMillis = tonumber(ARGV[6])\n"
                                + "local leaseSeconds = tonumber(now[1]) + math.floor(leaseMillis / 1000)\n"
                                + "local leaseNanos = tonumber(now[2]) * 1000 + (leaseMillis % 1000) * 1000000\n"
                                + "if leaseNanos >= 1000000000 then leaseSeconds = leaseSeconds + 1 "
                                + "leaseNanos = leaseNanos - 1000000000 end\n"
                                + "local lease = string.format('%d:%09d', leaseSeconds, leaseNanos)"),
                part("counter check", "one string.find over both counters, then the tonumber each comparison needs",
                        "local a, b = '41', '7'\nif not string.find(a .. '|' .. b, '^%d+|%d+$') then return 0 end\n"
                                + "local x = tonumber(a) + tonumber(b) + tonumber(ARGV[10]) + tonumber(ARGV[4])"
                                + " + tonumber(ARGV[5])"),
                part("head regex", "the packed head's token and fingerprint by string.match (no script does this)",
                        "local h = ARGV[11] .. '1733300000:123456789' .. ARGV[12]\n"
                                + "local token, fingerprint = string.match(h, '^[^|]*|([^|]*)|[^|]*|[^|]*|[^|]*|(.*)$')"),
                part("HSET record", "the record's head and arguments",
                        "redis.call('HSET', KEYS[1], 'h', ARGV[11] .. '1733300000:123456789' .. ARGV[12], 'a', ARGV[13])"),
                part("HSET record, PEXPIRE", "the record and its TTL",
                        "redis.call('HSET', KEYS[1], 'h', ARGV[11] .. '1733300000:123456789' .. ARGV[12], 'a', ARGV[13])\n"
                                + "redis.call('PEXPIRE', KEYS[1], ARGV[3])"),
                part("SET pending PX", "the attempt's empty pending key with its TTL",
                        "redis.call('SET', KEYS[4], '', 'PX', ARGV[3])"));
    }

    /** The scripts measured in complete's place, with complete's keys and arguments. */
    static List<Variant> completeVariants() {
        return List.of(
                new Variant("empty", "an empty script (`return 1`) with complete's keys and arguments", "return 1"),
                new Variant("complete.lua", "the store's complete.lua", storeScript("complete.lua")),
                new Variant("commands alone", "complete.lua's four commands, without its checks",
                        COMPLETE_COMMANDS_ALONE),
                part("HMGET record", "the record's head and outcome", "redis.call('HMGET', KEYS[1], 'h', 'o')"),
                part("HMGET record, head regex", "the same, then the token, tool and fingerprint by string.match"
                        + " (no script does this)",
                        "local stored = redis.call('HMGET', KEYS[1], 'h', 'o')\nlocal token, tool, fingerprint ="
                                + " string.match(stored[1] or '', '^[^|]*|([^|]*)|[^|]*|[^|]*|([^|]*)|(.*)$')"),
                part("STRLEN", "the pending key's length, against the raw response's",
                        "if redis.call('STRLEN', KEYS[2]) ~= tonumber(ARGV[4]) then return 0 end"),
                part("RENAME", "the pending key to the record's raw key", "redis.call('RENAME', KEYS[2], KEYS[3])"),
                part("HSET outcome", "the outcome and the agent's content",
                        "redis.call('HSET', KEYS[1], 'o', ARGV[5], 'c', ARGV[6])"));
    }

    private static Variant part(String label, String part, String code) {
        return new Variant(label, part, code + "\nreturn 1");
    }

    static String storeScript(String name) {
        return resource(STORE_SCRIPTS + name);
    }

    static String ownScript(String name) {
        return resource(OWN_SCRIPTS + name);
    }

    private static String resource(String path) {
        try (InputStream in = LuaBreakdown.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    private static void invoke(ToolBoundary boundary, RunContext run, String runId, String toolCallId, String request) {
        if (boundary.invoke(run, ToolCallEnvelope.of(runId, toolCallId, Payloads.TOOL_NAME, request)).isLeft()) {
            throw new IllegalStateException("a call failed");
        }
    }
}
