package io.toolboundary.testsupport.redis;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One plain connection to one Redis server, for tests that inspect or change a server from outside
 * the code under test ({@code INFO}, {@code PTTL}, {@code SCAN}, {@code CONFIG SET}, {@code PEXPIRE}).
 *
 * <p>Arguments are sent as UTF-8 bulk strings. {@link #call} answers a {@link String} (simple or bulk
 * string), a {@link Long} (integer), a {@link List} of such values (array), or {@link Nil#NIL} (nil);
 * never {@code null}. An error reply becomes a {@link RedisErrorReply}; an I/O failure an
 * {@link UncheckedIOException}. Not thread-safe; {@link #call} is synchronized so that it may be shared.
 */
public final class RespConnection implements AutoCloseable {

    /** The nil reply. */
    public enum Nil {
        /** The one nil value. */
        NIL
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /**
     * Connects, authenticating when the endpoint has a password.
     *
     * @param endpoint the server
     * @param timeout the connect timeout and the longest wait for one reply
     * @throws UncheckedIOException when the server cannot be reached
     */
    public static RespConnection open(RedisEndpoint endpoint, Duration timeout) {
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(timeout, "timeout is null");
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), millis);
            socket.setSoTimeout(millis);
            socket.setTcpNoDelay(true);
            RespConnection connection = new RespConnection(socket);
            if (endpoint.password().isDefined()) {
                connection.call("AUTH", endpoint.password().get());
            }
            return connection;
        } catch (IOException | RuntimeException failure) {
            closeQuietly(socket);
            if (failure instanceof IOException io) {
                throw new UncheckedIOException("cannot connect to " + endpoint, io);
            }
            throw (RuntimeException) failure;
        }
    }

    /**
     * Sends one command and reads its reply.
     *
     * @param command the command and its arguments, for example {@code "PTTL", key}
     * @return the reply, see the class comment
     * @throws RedisErrorReply when Redis answers with an error
     */
    public synchronized Object call(String... command) {
        requireNonNull(command, "command is null");
        if (command.length == 0) {
            throw new IllegalArgumentException("command must not be empty");
        }
        try {
            out.write(encode(command));
            out.flush();
            return read();
        } catch (IOException failure) {
            throw new UncheckedIOException("Redis command failed: " + command[0], failure);
        }
    }

    /** Sends a command whose reply is an integer. */
    public long callLong(String... command) {
        Object reply = call(command);
        if (reply instanceof Long value) {
            return value;
        }
        throw new IllegalStateException("expected an integer reply to " + command[0] + ", got " + reply);
    }

    /** Sends a command whose reply is a simple or bulk string. */
    public String callString(String... command) {
        Object reply = call(command);
        if (reply instanceof String value) {
            return value;
        }
        throw new IllegalStateException("expected a string reply to " + command[0] + ", got " + reply);
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static byte[] encode(String[] command) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        writeAscii(buffer, "*" + command.length + "\r\n");
        for (String argument : command) {
            requireNonNull(argument, "command argument is null");
            byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
            writeAscii(buffer, "$" + bytes.length + "\r\n");
            buffer.writeBytes(bytes);
            writeAscii(buffer, "\r\n");
        }
        return buffer.toByteArray();
    }

    private static void writeAscii(ByteArrayOutputStream buffer, String text) {
        buffer.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }

    private Object read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed by the server");
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new RedisErrorReply(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return Nil.NIL;
                }
                byte[] bytes = in.readNBytes(length);
                if (bytes.length != length || in.read() != '\r' || in.read() != '\n') {
                    throw new EOFException("truncated bulk string");
                }
                return new String(bytes, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return Nil.NIL;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return List.copyOf(items);
            }
            default:
                throw new IOException("unexpected reply type " + (char) type);
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int next = in.read();
            if (next < 0) {
                throw new EOFException("connection closed in a reply");
            }
            if (previous == '\r' && next == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(next);
            previous = next;
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Nothing left to release.
        }
    }
}
