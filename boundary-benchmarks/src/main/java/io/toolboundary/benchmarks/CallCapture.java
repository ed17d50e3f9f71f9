package io.toolboundary.benchmarks;

import io.toolboundary.testsupport.redis.RedisEndpoint;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The commands one real call sends, as the server received them: {@code MONITOR} on the benchmark's
 * own server while the call runs, up to a marker sent after it returned. Commands run by a script
 * ({@code [0 lua]}) belong to the script's own command and are left out, as are connection upkeep
 * ({@code PING}, {@code CLIENT}, ...) and the transaction brackets {@code MULTI} / {@code EXEC}, which
 * {@code redis-benchmark} cannot replay around several commands (they are counted, see
 * {@link Captured#skipped}). Nothing here knows the store's command shape.
 */
final class CallCapture {

    /** Commands that are no part of a call: connection upkeep, and the transaction brackets. */
    private static final Set<String> SKIPPED = Set.of("MULTI", "EXEC", "PING", "CLIENT", "HELLO", "AUTH", "SELECT",
            "READONLY", "ECHO", "INFO", "COMMAND", "SCRIPT");

    private CallCapture() {
    }

    /** The commands a call sent, in order, and the names of those left out. */
    record Captured(List<List<String>> commands, List<String> skipped) {
    }

    /** Runs {@code call} under {@code MONITOR} and answers what it sent. */
    static Captured capture(RedisEndpoint endpoint, Runnable call) {
        String marker = "capture-end-" + System.nanoTime();
        List<List<String>> commands = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        try (Resp monitor = Resp.connect(endpoint); Resp other = Resp.connect(endpoint)) {
            monitor.call("MONITOR");
            call.run();
            other.call("ECHO", marker);
            while (true) {
                String line = Resp.text(monitor.read());
                int open = line.indexOf('[');
                int close = line.indexOf(']', open);
                if (open < 0 || close < 0) {
                    continue;
                }
                String source = line.substring(open + 1, close);
                List<String> command = parse(line.substring(close + 1));
                if (command.isEmpty()) {
                    continue;
                }
                if (command.size() == 2 && command.get(1).equals(marker)) {
                    break;
                }
                if (source.endsWith(" lua")) {
                    continue;
                }
                String name = command.get(0).toUpperCase();
                if (SKIPPED.contains(name)) {
                    skipped.add(name);
                } else {
                    commands.add(List.copyOf(command));
                }
            }
        }
        if (commands.isEmpty()) {
            throw new IllegalStateException("the captured call sent no command");
        }
        return new Captured(List.copyOf(commands), List.copyOf(skipped));
    }

    /**
     * The quoted arguments of one {@code MONITOR} line after its source, unescaped: {@code \"},
     * {@code \\}, {@code \n}, {@code \r}, {@code \t}, {@code \a}, {@code \b} and {@code \xHH} (a byte);
     * the bytes are UTF-8.
     */
    static List<String> parse(String text) {
        List<String> arguments = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            if (text.charAt(i) != '"') {
                i++;
                continue;
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            i++;
            while (i < text.length() && text.charAt(i) != '"') {
                char c = text.charAt(i);
                if (c == '\\' && i + 1 < text.length()) {
                    char next = text.charAt(i + 1);
                    switch (next) {
                        case 'n' -> bytes.write('\n');
                        case 'r' -> bytes.write('\r');
                        case 't' -> bytes.write('\t');
                        case 'a' -> bytes.write(7);
                        case 'b' -> bytes.write('\b');
                        case 'x' -> {
                            bytes.write(Integer.parseInt(text.substring(i + 2, i + 4), 16));
                            i += 2;
                        }
                        default -> bytes.write(next);
                    }
                    i += 2;
                } else {
                    byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                    bytes.write(encoded, 0, encoded.length);
                    i++;
                }
            }
            arguments.add(bytes.toString(StandardCharsets.UTF_8));
            i++;
        }
        return arguments;
    }

    /** Every key of the database with its serialized value and remaining TTL, to put back before each replay. */
    record Snapshot(List<String> keys, List<byte[]> dumps, List<Long> ttls) {

        /** Reads every key. */
        static Snapshot take(Resp redis) {
            List<String> keys = new ArrayList<>();
            String cursor = "0";
            do {
                List<?> reply = (List<?>) redis.call("SCAN", cursor, "COUNT", "1000");
                cursor = Resp.text(reply.get(0));
                for (Object key : (List<?>) reply.get(1)) {
                    keys.add(Resp.text(key));
                }
            } while (!cursor.equals("0"));
            List<byte[]> dumps = new ArrayList<>();
            List<Long> ttls = new ArrayList<>();
            for (String key : keys) {
                dumps.add((byte[]) redis.call("DUMP", key));
                ttls.add((Long) redis.call("PTTL", key));
            }
            return new Snapshot(List.copyOf(keys), List.copyOf(dumps), List.copyOf(ttls));
        }

        /** Empties the database and restores the keys, each with its TTL as taken. */
        void restore(Resp redis) {
            redis.call("FLUSHALL");
            for (int i = 0; i < keys.size(); i++) {
                redis.send(List.of(bytes("RESTORE"), bytes(keys.get(i)), bytes(Long.toString(Math.max(0, ttls.get(i)))),
                        dumps.get(i), bytes("REPLACE")));
            }
            redis.flush();
            for (int i = 0; i < keys.size(); i++) {
                if (redis.read() instanceof Resp.Error error) {
                    throw new IllegalStateException("cannot restore " + keys.get(i) + ": " + error.message());
                }
            }
        }

        private static byte[] bytes(String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
    }
}
