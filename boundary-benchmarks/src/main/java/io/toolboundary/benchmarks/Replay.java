package io.toolboundary.benchmarks;

import io.toolboundary.testsupport.redis.RedisEndpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replays a captured call's commands with {@code redis-benchmark}, one command at a time, each request
 * on a call id of its own: the captured tool_call_id is replaced everywhere by {@value #ID_PREFIX}
 * followed by {@code __rand_int__} (twelve digits, drawn per occurrence). Before command {@code k} is
 * measured, the commands before it run for ids {@code 0..n-1} from this class's own connection
 * (pipelined), so that every measured request finds the state the real call found: a record begun, a
 * raw response written. A command that gives the same reply when it runs twice on one id (a plain
 * {@code SET XX}) needs few such ids; one that does not (a compare-and-set) gets five times as many ids
 * as requests, so that about nine requests in ten find an id no earlier request used. Every measurement
 * starts from the same snapshot of the database (the run as it was opened).
 */
final class Replay {

    static final String ID_PREFIX = "c";
    private static final String PLACEHOLDER = "__rand_int__";
    private static final int KEYSPACE = 2_000_000_000;
    /** The most bytes the prepared ids may take in the server. */
    private static final long PREPARE_BUDGET_BYTES = 256L << 20;
    private static final int BATCH = 200;
    private static final Pattern CSV_TAIL = Pattern.compile(
            "\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\",\"([0-9.]+)\"\\s*$");

    private final RedisEndpoint endpoint;
    private final Resp redis;
    private final CallCapture.Snapshot start;
    private final List<List<String>> templates;
    private final List<String> successReplies = new ArrayList<>();
    private final List<Boolean> repeatable = new ArrayList<>();
    private final List<Boolean> creates = new ArrayList<>();

    /**
     * Checks that the captured commands, replayed on a new id from {@code start}, make a call that
     * {@code succeeded} accepts (given that id), and records each command's reply as its success reply.
     */
    Replay(RedisEndpoint endpoint, Resp redis, CallCapture.Snapshot start, CallCapture.Captured call, String callId,
            Predicate<String> succeeded) {
        this.endpoint = endpoint;
        this.redis = redis;
        this.start = start;
        this.templates = call.commands().stream()
                .map(command -> command.stream().map(part -> part.replace(callId, ID_PREFIX + PLACEHOLDER)).toList())
                .toList();
        if (templates.stream().flatMap(List::stream).noneMatch(part -> part.contains(PLACEHOLDER))) {
            throw new IllegalStateException("the captured call does not name its tool_call_id");
        }
        String id = id(999_999_999_999L);
        for (int k = 0; k < templates.size(); k++) {
            start.restore(redis);
            replayBefore(k, id);
            long keys = (Long) redis.call("DBSIZE");
            successReplies.add(shape(send(templates.get(k), id)));
            creates.add((Long) redis.call("DBSIZE") > keys);
            repeatable.add(shape(send(templates.get(k), id)).equals(successReplies.get(k)));
        }
        start.restore(redis);
        replayBefore(templates.size(), id);
        if (!succeeded.test(id)) {
            throw new IllegalStateException("the replayed commands do not make the call the real one made");
        }
    }

    private void replayBefore(int k, String id) {
        for (int c = 0; c < k; c++) {
            String reply = shape(send(templates.get(c), id));
            if (!reply.equals(successReplies.get(c))) {
                throw new IllegalStateException("replayed command " + c + " answered " + reply);
            }
        }
    }

    /** The captured commands, with the placeholder in place of the call id. */
    List<List<String>> templates() {
        return templates;
    }

    /** One measurement of one command: what redis-benchmark saw and what the server says of it. */
    record Measured(int command, int callers, long requests, long preparedIds, double rps, double p50Ms, double p99Ms,
            double usecPerCall, double p50Usec, double p99Usec, double p999Usec, double cpuMainUsecPerRequest,
            Map<String, Double> innerUsecPerRequest) {
    }

    /**
     * Measures command {@code k} with {@code callers} connections for about {@code requests} requests
     * (fewer when the prepared ids would not fit the memory budget).
     */
    Measured measure(int k, int callers, long wanted) {
        long requests = wanted;
        List<String> template = templates.get(k);
        start.restore(redis);
        long ids = 0;
        if (k > 0) {
            long perId = 0;
            for (List<String> earlier : templates.subList(0, k)) {
                perId += 2L * earlier.stream().mapToLong(String::length).sum() + 200;
            }
            long fit = Math.max(1000, PREPARE_BUDGET_BYTES / perId);
            if (repeatable.get(k)) {
                ids = Math.min(fit, Math.max(1000, requests));
            } else {
                requests = Math.max(200, Math.min(requests, fit / 5));
                ids = 5 * requests;
            }
            prepare(k, ids);
            // The last prepared id: the measured command must succeed on a prepared id.
            String check = shape(send(template, id(ids - 1)));
            if (!check.equals(successReplies.get(k))) {
                throw new IllegalStateException("command " + k + " answers " + check + " on a prepared id, not "
                        + successReplies.get(k));
            }
        } else if (!shape(send(template, id(999_999_999_998L))).equals(successReplies.get(0))) {
            throw new IllegalStateException("the first command does not succeed on a new id");
        }
        long keysBefore = (Long) redis.call("DBSIZE");
        ServerStats.reset(redis);
        ServerStats before = ServerStats.read(redis);
        double[] client = redisBenchmark(callers, requests, k == 0 ? KEYSPACE : ids, template);
        ServerStats after = ServerStats.read(redis);
        String name = template.get(0).toLowerCase();
        long calls = after.calls(name);
        if (calls < requests) {
            throw new IllegalStateException("the server counted " + calls + " " + name + " for " + requests + " requests");
        }
        if (creates.get(k) && (Long) redis.call("DBSIZE") - keysBefore < (k == 0 ? 0.98 : 0.8) * requests) {
            throw new IllegalStateException("command " + k + " did not create a key per request: it was refused");
        }
        Map<String, Double> inner = new LinkedHashMap<>();
        for (Map.Entry<String, ServerStats.Command> stat : after.commands().entrySet()) {
            String command = stat.getKey();
            if (!command.equals(name) && !command.startsWith("config") && !command.equals("info")
                    && !command.equals("dbsize") && stat.getValue().calls() >= requests / 2) {
                inner.put(command, stat.getValue().usec() / requests);
            }
        }
        return new Measured(k, callers, requests, ids, client[0], client[1], client[2], after.usec(name) / calls,
                after.percentile(name, "p50"), after.percentile(name, "p99"), after.percentile(name, "p99.9"),
                (after.cpuMainSeconds() - before.cpuMainSeconds()) * 1e6 / requests, inner);
    }

    /** Runs the commands before {@code k} for ids {@code 0..ids-1}, each reply its success reply. */
    private void prepare(int k, long ids) {
        for (long first = 0; first < ids; first += BATCH) {
            long last = Math.min(ids, first + BATCH);
            for (long i = first; i < last; i++) {
                for (List<String> template : templates.subList(0, k)) {
                    redis.send(fill(template, id(i)));
                }
            }
            redis.flush();
            for (long i = first; i < last; i++) {
                for (int c = 0; c < k; c++) {
                    String reply = shape(redis.read());
                    if (!reply.equals(successReplies.get(c))) {
                        throw new IllegalStateException("preparing id " + i + ": command " + c + " answered " + reply);
                    }
                }
            }
        }
    }

    private Object send(List<String> template, String id) {
        redis.send(fill(template, id));
        redis.flush();
        return redis.read();
    }

    private static List<byte[]> fill(List<String> template, String id) {
        List<byte[]> parts = new ArrayList<>(template.size());
        for (String part : template) {
            parts.add(part.replace(ID_PREFIX + PLACEHOLDER, id).getBytes(StandardCharsets.UTF_8));
        }
        return parts;
    }

    /** The id redis-benchmark makes of {@code n}. */
    static String id(long n) {
        return ID_PREFIX + String.format("%012d", n);
    }

    /** A reply reduced to what tells success from refusal: a list's first element, a short text, a type. */
    static String shape(Object reply) {
        if (reply instanceof List<?> list) {
            return list.isEmpty() ? "[]" : "[" + shape(list.get(0));
        }
        if (reply instanceof Resp.Error error) {
            return "ERR " + error.message().split(" ")[0];
        }
        if (reply instanceof Long) {
            return "int";
        }
        if (reply == null) {
            return "nil";
        }
        String text = Resp.text(reply);
        return text.length() <= 32 ? text : "bulk";
    }

    /** {requests per second, p50 ms, p99 ms} from redis-benchmark's CSV line. */
    private double[] redisBenchmark(int callers, long requests, long keyspace, List<String> command) {
        List<String> process = new ArrayList<>(List.of("redis-benchmark", "-h", endpoint.host(),
                "-p", Integer.toString(endpoint.port()), "-c", Integer.toString(callers),
                "-n", Long.toString(requests), "-r", Long.toString(keyspace), "-P", "1", "--csv"));
        endpoint.password().forEach(password -> process.addAll(List.of("-a", password)));
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
                throw new IllegalStateException("cannot read redis-benchmark's output: " + out);
            }
            return new double[] {Double.parseDouble(numbers.group(1)), Double.parseDouble(numbers.group(4)),
                Double.parseDouble(numbers.group(6))};
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot run redis-benchmark", failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", interrupted);
        }
    }
}
