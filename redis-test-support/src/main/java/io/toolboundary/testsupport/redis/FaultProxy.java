package io.toolboundary.testsupport.redis;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A loopback TCP proxy to one Redis server ({@link #endpoint()}) that a test switches at runtime to break the
 * link as a network does. {@link Mode#PASS} forwards; {@link Mode#DROP_REPLIES} forwards only the client's
 * bytes; {@link Mode#BLACK_HOLE} forwards nothing; {@link Mode#REFUSE} resets every connection. Back in
 * {@link Mode#PASS}, it resets every connection that swallowed bytes, so a lost reply is never followed by
 * later ones. {@link #resetAll()} and {@link #resetAfterClientBytes(long)} cut connections on demand.
 *
 * <p>Blocking sockets, at most {@value #MAX_CONNECTIONS} connections; resets use {@code SO_LINGER} 0 (a
 * {@code RST}). {@link #close()} resets everything. Thread-safe.
 */
public final class FaultProxy implements AutoCloseable {

    /** The most connections open at once; further ones are reset when accepted. */
    public static final int MAX_CONNECTIONS = 256;
    private static final String LOOPBACK = "127.0.0.1";
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    private static final int BUFFER_BYTES = 16 * 1024;

    /** What the proxy does with the traffic. */
    public enum Mode {
        /** Forward both ways. */
        PASS,
        /** Forward the client's bytes, swallow the server's: commands run, their replies are lost. */
        DROP_REPLIES,
        /** Read both ways and forward nothing: no command arrives, no reply comes. */
        BLACK_HOLE,
        /** Reset every open connection, and every new one as soon as it is accepted. */
        REFUSE
    }

    private final RedisEndpoint target;
    private final ServerSocket listener;
    private final Thread acceptor;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong resets = new AtomicLong();
    private final AtomicLong toServer = new AtomicLong();
    private final AtomicLong toClient = new AtomicLong();
    private final AtomicLong swallowed = new AtomicLong();
    /** Client bytes still forwarded before the connection carrying them is reset; negative when unarmed. */
    private final AtomicLong resetAfter = new AtomicLong(-1);
    private volatile Mode mode = Mode.PASS;
    /** How long each chunk of server bytes is held before it is forwarded; zero forwards at once. */
    private volatile long replyDelayNanos;
    private volatile boolean closed;

    private FaultProxy(RedisEndpoint target, ServerSocket listener) {
        this.target = target;
        this.listener = listener;
        this.acceptor = new Thread(this::acceptLoop, "fault-proxy-accept-" + listener.getLocalPort());
        this.acceptor.setDaemon(true);
    }

    /**
     * Starts a proxy to {@code target} in {@link Mode#PASS}.
     *
     * @throws UncheckedIOException when no loopback port can be bound
     */
    public static FaultProxy start(RedisEndpoint target) {
        requireNonNull(target, "target is null");
        ServerSocket listener;
        try {
            listener = new ServerSocket();
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), 0), 128);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot bind the fault proxy", failure);
        }
        FaultProxy proxy = new FaultProxy(target, listener);
        proxy.acceptor.start();
        return proxy;
    }

    /** Where clients connect (no password: the client authenticates through the proxy as to the server). */
    public RedisEndpoint endpoint() {
        return new RedisEndpoint(LOOPBACK, listener.getLocalPort(), target.password());
    }

    /** The current mode. */
    public Mode mode() {
        return mode;
    }

    /**
     * Switches the mode. {@link Mode#REFUSE} resets every open connection; {@link Mode#PASS} resets every
     * connection that swallowed bytes meanwhile.
     */
    public void mode(Mode next) {
        requireNonNull(next, "mode is null");
        mode = next;
        for (Link link : List.copyOf(links)) {
            synchronized (link) {
                if (next == Mode.REFUSE || (next == Mode.PASS && link.damaged)) {
                    link.reset();
                }
            }
        }
    }

    /** {@return how many connections were open} Resets every open connection now. */
    public int resetAll() {
        int reset = 0;
        for (Link link : List.copyOf(links)) {
            synchronized (link) {
                link.reset();
            }
            reset++;
        }
        return reset;
    }

    /**
     * Arms a cut: the connection that carries the next {@code bytes} client bytes (counted over all
     * connections, from now on) forwards exactly them and is then reset. Disarms itself when it fires.
     */
    public void resetAfterClientBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes must be positive, was " + bytes);
        }
        resetAfter.set(bytes);
    }

    /** Disarms a cut armed by {@link #resetAfterClientBytes} that has not fired. */
    public void disarmCut() {
        resetAfter.set(-1);
    }

    /** True while a cut armed by {@link #resetAfterClientBytes} has not fired. */
    public boolean cutArmed() {
        return resetAfter.get() > 0;
    }

    /**
     * Holds every chunk of server bytes read from now on for {@code delay} before forwarding it, in order and
     * intact: a slow network, not a broken one. {@link Duration#ZERO} forwards at once again.
     */
    public void delayReplies(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + delay);
        }
        replyDelayNanos = delay.toNanos();
    }

    /** Client bytes forwarded to the server so far. */
    public long bytesToServer() {
        return toServer.get();
    }

    /** Server bytes forwarded to clients so far. */
    public long bytesToClient() {
        return toClient.get();
    }

    /** Bytes read and not forwarded, either way, so far. */
    public long bytesSwallowed() {
        return swallowed.get();
    }

    /** Connections accepted so far (refused ones included). */
    public long accepted() {
        return accepted.get();
    }

    /** Connections reset so far. */
    public long resets() {
        return resets.get();
    }

    /** Connections open now. */
    public int openConnections() {
        return links.size();
    }

    /** Stops accepting and resets every connection. Safe to call more than once. */
    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // Closing is all that is wanted.
        }
        resetAll();
        try {
            acceptor.join(2_000);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "fault proxy " + LOOPBACK + ":" + listener.getLocalPort() + " -> " + target.hostAndPort() + " (" + mode
                + ")";
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException failure) {
                if (closed) {
                    return;
                }
                continue;
            }
            accepted.incrementAndGet();
            if (mode == Mode.REFUSE || links.size() >= MAX_CONNECTIONS) {
                abort(client);
                resets.incrementAndGet();
                continue;
            }
            Socket server = new Socket();
            try {
                server.connect(new InetSocketAddress(target.host(), target.port()), CONNECT_TIMEOUT_MILLIS);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
            } catch (IOException unreachable) {
                abort(client);
                abort(server);
                resets.incrementAndGet();
                continue;
            }
            Link link = new Link(client, server);
            links.add(link);
            link.start();
        }
    }

    private static void abort(Socket socket) {
        try {
            if (!socket.isClosed()) {
                if (socket.isConnected()) {
                    socket.setSoLinger(true, 0);
                }
                socket.close();
            }
        } catch (IOException ignored) {
            // The socket is gone either way.
        }
    }

    /** One client connection and the proxy's connection to the server for it. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        /** True once this link swallowed a byte: it must not carry traffic on after the bytes it lost. */
        private boolean damaged;
        private boolean reset;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            int port = client.getPort();
            Thread up = new Thread(this::clientToServer, "fault-proxy-up-" + port);
            Thread down = new Thread(this::serverToClient, "fault-proxy-down-" + port);
            up.setDaemon(true);
            down.setDaemon(true);
            up.start();
            down.start();
        }

        /** Closes both sockets with a RST; once. Callers hold this link's lock. */
        void reset() {
            if (!reset) {
                reset = true;
                resets.incrementAndGet();
            }
            abort(client);
            abort(server);
            links.remove(this);
        }

        private void clientToServer() {
            byte[] buffer = new byte[BUFFER_BYTES];
            try (InputStream in = client.getInputStream(); OutputStream out = server.getOutputStream()) {
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                    synchronized (this) {
                        if (reset) {
                            return;
                        }
                        switch (mode) {
                            case PASS, DROP_REPLIES -> {
                                if (forwardUntilCut(buffer, read, out)) {
                                    return;
                                }
                            }
                            case BLACK_HOLE -> {
                                swallowed.addAndGet(read);
                                damaged = true;
                            }
                            case REFUSE -> {
                                reset();
                                return;
                            }
                        }
                    }
                }
            } catch (IOException | RuntimeException broken) {
                // The link is cut: below.
            }
            end();
        }

        /** Forwards {@code read} bytes, or as many as an armed cut allows and then resets; true when it reset. */
        private boolean forwardUntilCut(byte[] buffer, int read, OutputStream out) throws IOException {
            long allowed = read;
            while (true) {
                long left = resetAfter.get();
                if (left <= 0) {
                    break;
                }
                long take = Math.min(left, read);
                if (resetAfter.compareAndSet(left, left - take)) {
                    allowed = take;
                    if (left - take == 0) {
                        out.write(buffer, 0, (int) take);
                        out.flush();
                        toServer.addAndGet(take);
                        reset();
                        return true;
                    }
                    break;
                }
            }
            out.write(buffer, 0, (int) allowed);
            out.flush();
            toServer.addAndGet(allowed);
            return false;
        }

        private void serverToClient() {
            byte[] buffer = new byte[BUFFER_BYTES];
            try (InputStream in = server.getInputStream(); OutputStream out = client.getOutputStream()) {
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                    hold(replyDelayNanos);
                    synchronized (this) {
                        if (reset) {
                            return;
                        }
                        switch (mode) {
                            case PASS -> {
                                out.write(buffer, 0, read);
                                out.flush();
                                toClient.addAndGet(read);
                            }
                            case DROP_REPLIES, BLACK_HOLE -> {
                                swallowed.addAndGet(read);
                                damaged = true;
                            }
                            case REFUSE -> {
                                reset();
                                return;
                            }
                        }
                    }
                }
            } catch (IOException | RuntimeException broken) {
                // The link is cut: below.
            }
            end();
        }

        /** Holds this direction's traffic for {@code nanos}: the injected delay itself, not a wait for a condition. */
        private void hold(long nanos) {
            long until = System.nanoTime() + nanos;
            for (long left = nanos; left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }

        /** One side closed or failed: the whole link goes, as a proxy's would. */
        private void end() {
            synchronized (this) {
                reset();
            }
        }
    }
}
