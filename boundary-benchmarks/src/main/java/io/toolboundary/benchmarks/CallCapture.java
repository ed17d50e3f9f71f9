package io.toolboundary.benchmarks;

import io.toolboundary.testsupport.redis.RedisAdmin;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;

/**
 * The commands one real call sends, as the server received them: {@code MONITOR} while the call runs, up
 * to a marker sent after it returned. Leaves out commands run by a script (they belong to the script's
 * own command), connection upkeep and the transaction brackets. Knows nothing of the store's commands.
 */
final class CallCapture {

    private static final Set<String> SKIPPED = Set.of("MULTI", "EXEC", "PING", "CLIENT", "HELLO", "AUTH", "SELECT",
            "READONLY", "ECHO", "INFO", "COMMAND", "SCRIPT");

    private CallCapture() {
    }

    /** Runs {@code call} under {@code MONITOR} and answers what it sent, in order; refuses a call that sent nothing. */
    static List<List<String>> capture(RedisEndpoint endpoint, Runnable call) {
        String marker = "capture-end-" + System.nanoTime();
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder().timeoutMillis(120_000)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        endpoint.password().forEach(config::password);
        List<List<String>> commands = new ArrayList<>();
        try (Connection monitor = new Connection(new HostAndPort(endpoint.host(), endpoint.port()), config.build());
                RedisAdmin other = RedisAdmin.open(endpoint, Duration.ofMinutes(2))) {
            monitor.sendCommand(Protocol.Command.MONITOR);
            monitor.getStatusCodeReply();
            call.run();
            other.command("ECHO", marker);
            while (true) {
                String line = monitor.getStatusCodeReply();
                int open = line.indexOf('[');
                int close = line.indexOf(']', open);
                List<String> command = open < 0 || close < 0 ? List.of() : parse(line.substring(close + 1));
                if (command.size() == 2 && command.get(1).equals(marker)) {
                    break;
                }
                if (!command.isEmpty() && !line.substring(open, close).endsWith(" lua")
                        && !SKIPPED.contains(command.get(0).toUpperCase())) {
                    commands.add(List.copyOf(command));
                }
            }
        }
        if (commands.isEmpty()) {
            throw new IllegalStateException("the captured call sent no command");
        }
        return List.copyOf(commands);
    }

    /**
     * The quoted arguments of one {@code MONITOR} line after its source, unescaped: {@code \"},
     * {@code \\}, {@code \n}, {@code \r}, {@code \t}, {@code \a}, {@code \b} and {@code \xHH} (a byte);
     * the bytes are UTF-8.
     */
    static List<String> parse(String text) {
        List<String> arguments = new ArrayList<>();
        for (int i = text.indexOf('"'); i >= 0; i = text.indexOf('"', i + 1)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (i++; i < text.length() && text.charAt(i) != '"'; i++) {
                char c = text.charAt(i);
                if (c != '\\' || i + 1 == text.length()) {
                    bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                    continue;
                }
                char next = text.charAt(++i);
                switch (next) {
                    case 'n' -> bytes.write('\n');
                    case 'r' -> bytes.write('\r');
                    case 't' -> bytes.write('\t');
                    case 'a' -> bytes.write(7);
                    case 'b' -> bytes.write('\b');
                    case 'x' -> {
                        bytes.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
                        i += 2;
                    }
                    default -> bytes.write(next);
                }
            }
            arguments.add(bytes.toString(StandardCharsets.UTF_8));
        }
        return arguments;
    }
}
