package io.toolboundary.testsupport.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Starts {@code redis-server} processes on free loopback ports, each in its own temporary directory,
 * without persistence; stops them all when {@link #stopAll()} runs (the fixture calls it at JVM exit).
 */
final class LocalRedisProcesses {

    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration CLUSTER_TIMEOUT = Duration.ofSeconds(30);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final int START_ATTEMPTS = 3;
    /** Redis Cluster talks on the client port plus 10000, so client ports stay below 55536. */
    private static final int LOWEST_PORT = 20_000;
    private static final int HIGHEST_PORT = 45_000;
    private static final int CLUSTER_BUS_OFFSET = 10_000;

    private final List<Process> processes = new ArrayList<>();
    private final List<Path> directories = new ArrayList<>();

    /** The {@code redis-server} executable on the PATH, when there is one. */
    static Optional<Path> serverExecutable() {
        return executable("redis-server");
    }

    /** The {@code redis-cli} executable on the PATH, when there is one. */
    static Optional<Path> cliExecutable() {
        return executable("redis-cli");
    }

    /** Starts one standalone server and waits until it answers PING. */
    synchronized RedisEndpoint startStandalone() {
        return start(false);
    }

    /** Starts three cluster-enabled servers, joins them as three masters and waits until the cluster is ok. */
    synchronized List<RedisEndpoint> startCluster() {
        List<RedisEndpoint> masters = List.of(start(true), start(true), start(true));
        Path cli = cliExecutable().orElseThrow(() -> new IllegalStateException("redis-cli is not on the PATH"));
        List<String> command = new ArrayList<>(List.of(cli.toString(), "--cluster", "create"));
        masters.forEach(master -> command.add(master.hostAndPort()));
        command.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        Path log = directories.get(directories.size() - 1).resolve("cluster-create.log");
        try {
            Process create = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            if (!create.waitFor(CLUSTER_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                create.destroyForcibly();
                throw new IllegalStateException("redis-cli --cluster create did not finish in " + CLUSTER_TIMEOUT);
            }
            if (create.exitValue() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed: " + tail(log));
            }
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot run redis-cli", failure);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the cluster", interrupted);
        }
        for (RedisEndpoint master : masters) {
            awaitTrue(() -> clusterIsOk(master), CLUSTER_TIMEOUT, "cluster_state:ok on " + master);
        }
        return masters;
    }

    /** Stops every process this instance started and deletes their directories. */
    synchronized void stopAll() {
        for (Process process : processes) {
            process.destroy();
        }
        for (Process process : processes) {
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException interrupted) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
        directories.forEach(OsProcesses::deleteQuietly);
        directories.clear();
    }

    private RedisEndpoint start(boolean clusterEnabled) {
        Path server = serverExecutable().orElseThrow(() -> new IllegalStateException("redis-server is not on the PATH"));
        IllegalStateException last = null;
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            int port = freePort(clusterEnabled);
            try {
                return startOn(server, port, clusterEnabled);
            } catch (IllegalStateException failure) {
                last = failure;
            }
        }
        throw last;
    }

    private RedisEndpoint startOn(Path server, int port, boolean clusterEnabled) {
        Path directory;
        try {
            directory = Files.createTempDirectory("toolboundary-redis-" + port + "-");
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot create a directory for redis-server", failure);
        }
        directories.add(directory);
        List<String> command = new ArrayList<>(List.of(server.toString(),
                "--port", Integer.toString(port), "--bind", LOOPBACK,
                "--save", "", "--appendonly", "no", "--daemonize", "no",
                "--dir", directory.toString()));
        if (clusterEnabled) {
            command.addAll(List.of("--cluster-enabled", "yes",
                    "--cluster-config-file", directory.resolve("nodes.conf").toString(),
                    "--cluster-node-timeout", "5000"));
        }
        Path log = directory.resolve("redis.log");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot start redis-server", failure);
        }
        processes.add(process);
        RedisEndpoint endpoint = RedisEndpoint.of(LOOPBACK, port);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!answersPing(endpoint)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited on port " + port + ": " + tail(log));
            }
            if (System.nanoTime() - deadline > 0) {
                process.destroyForcibly();
                throw new IllegalStateException("redis-server did not answer PING in " + START_TIMEOUT);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        return endpoint;
    }

    /** Polls until the condition holds, failing after the timeout. */
    static void awaitTrue(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("timed out after " + timeout + " waiting for " + what);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    static boolean answersPing(RedisEndpoint endpoint) {
        try (RedisAdmin connection = RedisAdmin.open(endpoint, Duration.ofMillis(500))) {
            return "PONG".equals(connection.command("PING"));
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private static boolean clusterIsOk(RedisEndpoint endpoint) {
        try (RedisAdmin connection = RedisAdmin.open(endpoint, Duration.ofSeconds(1))) {
            return connection.commandString("CLUSTER", "INFO").contains("cluster_state:ok");
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private static int freePort(boolean clusterEnabled) {
        return OsProcesses.freePort(LOWEST_PORT, HIGHEST_PORT, clusterEnabled ? CLUSTER_BUS_OFFSET : 0);
    }

    private static Optional<Path> executable(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.concat(Stream.of(path.split(java.io.File.pathSeparator)), Stream.of("/usr/bin", "/usr/local/bin"))
                .filter(directory -> !directory.isBlank())
                .map(directory -> Path.of(directory, name))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException | UncheckedIOException unreadable) {
            return "(no log)";
        }
    }
}
