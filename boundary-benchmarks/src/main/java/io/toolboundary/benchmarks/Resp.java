package io.toolboundary.benchmarks;

import io.toolboundary.testsupport.redis.RedisEndpoint;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain RESP2 connection for measuring: commands of byte arrays, written in batches (pipelined) and
 * read back in order, with no client library in between, so that {@code MONITOR}, {@code DUMP} and
 * {@code RESTORE} see exactly the bytes sent. Replies: {@code String} (simple), {@code byte[]} (bulk),
 * {@code Long}, {@code List<Object>}, {@code null} (nil) or {@link Error}. Not thread-safe.
 */
final class Resp implements AutoCloseable {

    /** An error reply. */
    record Error(String message) {
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private Resp(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        this.out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
    }

    /** Connects, authenticating when the endpoint has a password. */
    static Resp connect(RedisEndpoint endpoint) {
        try {
            Resp resp = new Resp(new Socket(endpoint.host(), endpoint.port()));
            resp.socket.setTcpNoDelay(true);
            resp.socket.setSoTimeout(120_000);
            for (String password : endpoint.password()) {
                resp.call("AUTH", password);
            }
            return resp;
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot connect to " + endpoint, failure);
        }
    }

    /** One command of strings; its reply, an error reply thrown. */
    Object call(String... command) {
        List<byte[]> parts = new ArrayList<>();
        for (String part : command) {
            parts.add(part.getBytes(StandardCharsets.UTF_8));
        }
        send(parts);
        flush();
        Object reply = read();
        if (reply instanceof Error error) {
            throw new IllegalStateException("Redis refused " + command[0] + ": " + error.message());
        }
        return reply;
    }

    /** A string reply of {@link #call}, bulk or simple. */
    String text(String... command) {
        return text(call(command));
    }

    /** A reply as text: a bulk reply decoded as UTF-8, anything else by {@code toString}. */
    static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    /** Writes one command without flushing (pipelining). */
    void send(List<byte[]> command) {
        try {
            out.write(('*' + Integer.toString(command.size()) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (byte[] part : command) {
                out.write(('$' + Integer.toString(part.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(part);
                out.write('\r');
                out.write('\n');
            }
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot write to Redis", failure);
        }
    }

    /** Sends what was written. */
    void flush() {
        try {
            out.flush();
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot write to Redis", failure);
        }
    }

    /** Reads the next reply. */
    Object read() {
        try {
            int type = in.read();
            String line = line();
            return switch (type) {
                case '+' -> line;
                case '-' -> new Error(line);
                case ':' -> Long.parseLong(line);
                case '$' -> bulk(Integer.parseInt(line));
                case '*' -> {
                    int count = Integer.parseInt(line);
                    if (count < 0) {
                        yield null;
                    }
                    List<Object> items = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        items.add(read());
                    }
                    yield items;
                }
                case -1 -> throw new IOException("Redis closed the connection");
                default -> throw new IOException("unexpected reply type " + (char) type);
            };
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read from Redis", failure);
        }
    }

    private byte[] bulk(int length) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length || in.read() != '\r' || in.read() != '\n') {
            throw new IOException("short bulk reply");
        }
        return bytes;
    }

    private String line() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        for (int b = in.read(); ; b = in.read()) {
            if (b == -1) {
                throw new IOException("Redis closed the connection");
            }
            if (b == '\r') {
                if (in.read() != '\n') {
                    throw new IOException("a line without LF");
                }
                return bytes.toString(StandardCharsets.UTF_8);
            }
            bytes.write(b);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a measuring connection: nothing left to do
        }
    }
}
