package io.toolboundary.benchmarks;

import io.toolboundary.testsupport.redis.RedisEndpoint;
import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.commands.ProtocolCommand;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A connection for measuring, on a Jedis {@link Connection}: commands of byte arrays, written in batches
 * (pipelined) and read back in order, exactly as given, so that {@code MONITOR}, {@code DUMP} and
 * {@code RESTORE} see the bytes sent. Replies: {@code byte[]} (simple or bulk), {@code Long},
 * {@code List<Object>}, {@code null} (nil) or {@link Error}. Not thread-safe.
 */
final class Resp implements AutoCloseable {

    /** An error reply. */
    record Error(String message) {
    }

    private final Link connection;

    private Resp(Link connection) {
        this.connection = connection;
    }

    /** Connects, authenticating when the endpoint has a password. */
    static Resp connect(RedisEndpoint endpoint) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .timeoutMillis(120_000)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        endpoint.password().forEach(config::password);
        return new Resp(new Link(new HostAndPort(endpoint.host(), endpoint.port()), config.build()));
    }

    /** A Jedis connection whose written commands can be sent without reading a reply. */
    private static final class Link extends Connection {
        Link(HostAndPort address, DefaultJedisClientConfig config) {
            super(address, config);
        }

        void sendWritten() {
            flush();
        }
    }

    /** One command of strings; its reply, an error reply thrown. */
    Object call(String... command) {
        byte[][] parts = new byte[command.length][];
        for (int i = 0; i < command.length; i++) {
            parts[i] = command[i].getBytes(StandardCharsets.UTF_8);
        }
        send(List.of(parts));
        Object reply = read();
        if (reply instanceof Error error) {
            throw new IllegalStateException("Redis refused " + command[0] + ": " + error.message());
        }
        return reply;
    }

    /** A string reply of {@link #call}. */
    String text(String... command) {
        return text(call(command));
    }

    /** A reply as text: bytes decoded as UTF-8, anything else by {@code toString}. */
    static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    /** Writes one command without waiting for its reply (pipelining); {@link #read} sends what was written. */
    void send(List<byte[]> command) {
        byte[] name = command.get(0);
        ProtocolCommand named = () -> name;
        connection.sendCommand(named, command.subList(1, command.size()).toArray(new byte[0][]));
    }

    /** Sends what was written. */
    void flush() {
        connection.sendWritten();
    }

    /** Sends what was written and reads the next reply. */
    Object read() {
        try {
            return connection.getOne();
        } catch (JedisDataException refused) {
            return new Error(String.valueOf(refused.getMessage()));
        }
    }

    @Override
    public void close() {
        connection.close();
    }
}
