package io.toolboundary.testsupport.redis;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * One plain RESP2 (Jedis) connection to one Redis server, for tests that inspect or change a server from
 * outside the code under test. It sends nothing but {@code AUTH} of its own, so command statistics show only
 * the test's commands. {@link #command} answers a {@link String}, {@link Long}, {@link List} or
 * {@link Nil#NIL}, never {@code null}; an error reply throws {@link RedisErrorReply}, a failed or timed-out
 * connection {@link UncheckedIOException}. It is synchronized, so threads may share a connection.
 */
public final class RedisAdmin implements AutoCloseable {

    /** The nil reply. */
    public enum Nil {
        /** The one nil value. */
        NIL
    }

    private final RedisEndpoint endpoint;
    private final Jedis jedis;

    private RedisAdmin(RedisEndpoint endpoint, Jedis jedis) {
        this.endpoint = endpoint;
        this.jedis = jedis;
    }

    /**
     * Connects, authenticating when the endpoint has a password.
     *
     * @param endpoint the server
     * @param timeout the connect timeout and the longest wait for one reply
     * @throws UncheckedIOException when the server cannot be reached
     * @throws RedisErrorReply when the server refuses the password
     */
    public static RedisAdmin open(RedisEndpoint endpoint, Duration timeout) {
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(timeout, "timeout is null");
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .timeoutMillis(millis)
                .autoNegotiateProtocol(false)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        endpoint.password().forEach(config::password);
        try {
            return new RedisAdmin(endpoint, new Jedis(new HostAndPort(endpoint.host(), endpoint.port()), config.build()));
        } catch (JedisConnectionException failure) {
            throw unreachable("cannot connect to " + endpoint, failure);
        } catch (JedisDataException refused) {
            throw new RedisErrorReply(String.valueOf(refused.getMessage()));
        }
    }

    /** The server this connection talks to. */
    public RedisEndpoint endpoint() {
        return endpoint;
    }

    /**
     * {@return the reply to one command (see the class comment)}
     *
     * @param command the command and its arguments, for example {@code "PTTL", key} or {@code "CLIENT", "KILL", "ID", id}
     * @throws RedisErrorReply when Redis answers with an error
     * @throws UncheckedIOException when the connection fails or no reply comes within the timeout
     */
    public synchronized Object command(String... command) {
        requireNonNull(command, "command is null");
        if (command.length == 0) {
            throw new IllegalArgumentException("command must not be empty");
        }
        String[] arguments = new String[command.length - 1];
        for (int i = 0; i < command.length; i++) {
            requireNonNull(command[i], "command argument is null");
            if (i > 0) {
                arguments[i - 1] = command[i];
            }
        }
        try {
            return decode(jedis.sendCommand(named(command[0]), arguments));
        } catch (JedisConnectionException failure) {
            throw unreachable("Redis command failed: " + command[0], failure);
        } catch (JedisDataException error) {
            throw new RedisErrorReply(String.valueOf(error.getMessage()));
        }
    }

    /** {@link #command} for an integer reply. */
    public long commandLong(String... command) {
        Object reply = command(command);
        if (reply instanceof Long value) {
            return value;
        }
        throw new IllegalStateException("expected an integer reply to " + command[0] + ", got " + reply);
    }

    /** {@link #command} for a simple or bulk string reply. */
    public String commandString(String... command) {
        Object reply = command(command);
        if (reply instanceof String value) {
            return value;
        }
        throw new IllegalStateException("expected a string reply to " + command[0] + ", got " + reply);
    }

    /**
     * {@return one field of {@code INFO section}, for example {@code info("replication", "role")}, or an empty string
     * when there is no such field}
     */
    public String info(String section, String field) {
        requireNonNull(field, "field is null");
        String prefix = field + ":";
        for (String line : commandString("INFO", requireNonNull(section, "section is null")).split("\r?\n")) {
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length()).trim();
            }
        }
        return "";
    }

    /** The first word of {@code ROLE}: {@code master}, {@code slave} or {@code sentinel}. */
    public String role() {
        Object reply = command("ROLE");
        if (reply instanceof List<?> parts && !parts.isEmpty() && parts.get(0) instanceof String role) {
            return role;
        }
        throw new IllegalStateException("unexpected ROLE reply " + reply);
    }

    /** Every key matching {@code pattern} (a {@code SCAN MATCH} pattern), read with a full {@code SCAN}. */
    public List<String> scan(String pattern) {
        requireNonNull(pattern, "pattern is null");
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            List<?> reply = (List<?>) command("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = (String) reply.get(0);
            for (Object key : (List<?>) reply.get(1)) {
                keys.add((String) key);
            }
        } while (!"0".equals(cursor));
        return List.copyOf(keys);
    }

    /** Closes the connection; safe to repeat. */
    @Override
    public void close() {
        try {
            jedis.close();
        } catch (RuntimeException ignored) {
            // Nothing left to release.
        }
    }

    @Override
    public String toString() {
        return "admin connection to " + endpoint;
    }

    private static ProtocolCommand named(String name) {
        byte[] raw = name.getBytes(StandardCharsets.UTF_8);
        return () -> raw;
    }

    /** Jedis's RESP2 reply (byte[], Long, List, null) as this class promises it. */
    private static Object decode(Object reply) {
        if (reply == null) {
            return Nil.NIL;
        }
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (reply instanceof List<?> items) {
            List<Object> decoded = new ArrayList<>(items.size());
            for (Object item : items) {
                decoded.add(decode(item));
            }
            return List.copyOf(decoded);
        }
        if (reply instanceof Long) {
            return reply;
        }
        throw new IllegalStateException("unexpected reply type " + reply.getClass().getName());
    }

    private static UncheckedIOException unreachable(String message, JedisConnectionException failure) {
        return new UncheckedIOException(message, new IOException(failure.getMessage(), failure));
    }
}
