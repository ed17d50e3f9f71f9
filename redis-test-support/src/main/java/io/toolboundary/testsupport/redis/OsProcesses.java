package io.toolboundary.testsupport.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the test processes need of the operating system: free loopback ports, signals, waiting for an
 * exit, a process's state, and removing temporary directories. Shared by {@link RedisServerProcess} and
 * {@link LocalRedisProcesses}.
 */
final class OsProcesses {

    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private OsProcesses() {
    }

    /** A loopback port in [{@code lowest}, {@code highest}) nobody listens on, and {@code port + offset} too when an offset is given. */
    static int freePort(int lowest, int highest, int alsoFreeOffset) {
        for (int tries = 0; tries < 200; tries++) {
            int port = ThreadLocalRandom.current().nextInt(lowest, highest);
            if (canBind(port) && (alsoFreeOffset == 0 || canBind(port + alsoFreeOffset))) {
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port found for redis-server");
    }

    private static boolean canBind(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** Sends {@code signal} (for example {@code -STOP}) to the running {@code target}. */
    static void signal(Process target, String signal) {
        if (!target.isAlive()) {
            throw new IllegalStateException("the server process is not running");
        }
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(target.pid())).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || kill.exitValue() != 0) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill " + signal + " " + target.pid() + " failed");
            }
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot run kill", failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling redis-server", interrupted);
        }
    }

    /** Waits, at most ten seconds, for {@code victim} to exit. */
    static void awaitExit(Process victim) {
        try {
            if (!victim.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server " + victim.pid() + " did not exit in " + STOP_TIMEOUT);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for redis-server to exit", interrupted);
        }
    }

    /** The state letter of {@code /proc/<pid>/stat} (R, S, T, Z, ...), or '?' when unreadable. */
    static char stateOf(Path stat) {
        try {
            String line = Files.readString(stat, StandardCharsets.US_ASCII);
            int afterName = line.lastIndexOf(')');
            return afterName > 0 && afterName + 2 < line.length() ? line.charAt(afterName + 2) : '?';
        } catch (IOException | UncheckedIOException unreadable) {
            return '?';
        }
    }

    /** Deletes {@code directory} and everything in it, as far as it can. */
    static void deleteQuietly(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // A leftover temporary directory is harmless.
        }
    }
}
