package io.toolboundary.testsupport.sql;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * What the SQL server processes need of the operating system: executables, free loopback ports, signals,
 * running a setup command to its end, waiting, logs, removing directories, and the one JVM exit hook that
 * closes every server still open.
 */
final class SqlProcesses {

    static final String LOOPBACK = "127.0.0.1";
    /** Below Linux's ephemeral range (32768 and up), so that no client socket takes the port while a server is stopped. */
    private static final int LOWEST_PORT = 20_000;
    private static final int HIGHEST_PORT = 32_000;
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Every server not closed yet, with what closes it at JVM exit (a shared one too). */
    private static final Map<SqlServer, Runnable> LIVE = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(SqlProcesses::closeAll, "sql-server-process-stop"));
    }

    private SqlProcesses() {
    }

    /** Runs {@code closer} at JVM exit unless {@code server} was closed before. */
    static void closeAtExit(SqlServer server, Runnable closer) {
        LIVE.put(server, closer);
    }

    /** Forgets {@code server}: it was closed. */
    static void closed(SqlServer server) {
        LIVE.remove(server);
    }

    private static void closeAll() {
        for (Runnable closer : List.copyOf(LIVE.values())) {
            try {
                closer.run();
            } catch (RuntimeException ignored) {
                // Stopping goes on for the rest.
            }
        }
    }

    /**
     * The failure of the caller's test because {@code what} cannot run here: never a skip, so that a test
     * that needs a database server runs or fails, with what to install.
     */
    static IllegalStateException unavailable(String what, String why, String aptPackages) {
        return new IllegalStateException(what + " cannot run on this machine: " + why + ". Install " + aptPackages
                + " (.ci/run installs them with apt-get when missing).");
    }

    /** The first executable named {@code name} in the PATH or in {@code moreDirectories}. */
    static Optional<Path> executable(String name, String... moreDirectories) {
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.concat(Stream.of(path.split(File.pathSeparator)), Stream.of(moreDirectories))
                .filter(directory -> !directory.isBlank())
                .map(directory -> Path.of(directory, name))
                .filter(Files::isRegularFile)
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** True when this JVM runs as root (servers that refuse root must then run as another user). */
    static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** {@return the numeric uid and gid of a system user, read from {@code /etc/passwd}, or empty} */
    static Optional<int[]> systemUser(String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/passwd"), StandardCharsets.UTF_8)) {
                String[] fields = line.split(":", -1);
                if (fields.length > 3 && fields[0].equals(name)) {
                    return Optional.of(new int[] {Integer.parseInt(fields[2]), Integer.parseInt(fields[3])});
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** A loopback port in [20000, 32000) nobody listens on now. */
    static int freePort() {
        for (int tries = 0; tries < 200; tries++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST_PORT, HIGHEST_PORT);
            if (canBind(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port found for an SQL server");
    }

    /** True when nothing listens on the loopback {@code port}. */
    static boolean canBind(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /** A new temporary directory named after {@code prefix}. */
    static Path temporaryDirectory(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot create a temporary directory", failure);
        }
    }

    /**
     * Runs a setup command to its end, its output appended to {@code log} and its input read from {@code input}
     * when given; fails with the log's tail unless it exits 0 within {@code timeout}.
     */
    static void run(List<String> command, Path workingDirectory, Path input, Path log, Duration timeout) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(workingDirectory.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.redirectInput(input == null ? ProcessBuilder.Redirect.from(new File("/dev/null"))
                : ProcessBuilder.Redirect.from(input.toFile()));
        try {
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command.get(0) + " did not finish in " + timeout + ": " + tail(log, 10));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(command + " exited with " + process.exitValue() + ": " + tail(log, 10));
            }
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot run " + command.get(0), failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), interrupted);
        }
    }

    /** Starts a long-running server process, its output appended to {@code log}. */
    static Process launch(List<String> command, Path workingDirectory, Path log) {
        try {
            return new ProcessBuilder(command).directory(workingDirectory.toFile()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot start " + command.get(0), failure);
        }
    }

    /** Sends {@code signal} (for example {@code -INT}) to {@code target} with the POSIX {@code kill} command. */
    static void signal(Process target, String signal) {
        if (!target.isAlive()) {
            return;
        }
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(target.pid())).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot run kill", failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + target.pid(), interrupted);
        }
    }

    /** Waits at most {@code timeout} for {@code process} to exit; true when it did. */
    static boolean awaitExit(Process process, Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** Polls {@code condition} until it holds; false when {@code timeout} passed first. */
    static boolean await(BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        return true;
    }

    /** The last {@code count} lines of {@code log}, joined by {@code " | "}. */
    static String tail(Path log, int count) {
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(log, StandardCharsets.UTF_8));
            lines.removeIf(String::isBlank);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - count), lines.size()));
        } catch (IOException | UncheckedIOException unreadable) {
            return "(no log)";
        }
    }

    /** Deletes {@code directory} and everything in it, as far as it can. */
    static void deleteQuietly(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // A leftover temporary directory is harmless.
        }
    }
}
