package io.toolboundary.testsupport.redis;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@code redis-server} process on a free loopback port that a test owns and may hurt: {@link #kill()},
 * freeze and thaw ({@code kill -STOP}/{@code -CONT}, so a POSIX {@code kill} is needed), {@link #restart()} on
 * the same port. With {@link Persistence#NONE} (the default) a restart starts empty; with
 * {@link Persistence#AOF} ({@code appendfsync always}) it keeps every acknowledged write. Each command uses a
 * fresh {@link RedisAdmin}, so it works across restarts. {@link #close()} (and JVM exit) kills it and deletes
 * its directories. Never one of {@link RedisServerFixture}'s shared servers. Thread-safe.
 */
public final class RedisServerProcess implements AutoCloseable {

    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);
    /** Below Linux's ephemeral range (32768 and up), so that no client socket takes the port while the server is down. */
    private static final int LOWEST_PORT = 20_000;
    private static final int HIGHEST_PORT = 32_000;
    private static final int START_ATTEMPTS = 5;
    private static final Set<RedisServerProcess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(LIVE).forEach(RedisServerProcess::close),
                "redis-server-process-stop"));
    }

    /** What a server keeps across a restart. */
    public enum Persistence {
        /** {@code --save "" --appendonly no}, a new directory per start: a restart starts with an empty dataset. */
        NONE,
        /**
         * {@code --save "" --appendonly yes --appendfsync always}, one directory for every start: a restart
         * loads the append-only file, so every write acknowledged before a kill is there again.
         */
        AOF
    }

    private final Path executable;
    private final int port;
    private final Persistence persistence;
    private final List<String> extraArguments;
    /** The lines of a sentinel's configuration file; empty for a server. */
    private final List<String> sentinelConfig;
    private final List<Path> directories = new ArrayList<>();
    private Process process;
    private boolean frozen;
    private boolean closed;

    private RedisServerProcess(Path executable, int port, Persistence persistence, List<String> extraArguments,
            List<String> sentinelConfig) {
        this.executable = executable;
        this.port = port;
        this.persistence = persistence;
        this.extraArguments = extraArguments;
        this.sentinelConfig = sentinelConfig;
    }

    /** Starts a server without persistence on a free loopback port and waits until it answers {@code PING}. */
    public static RedisServerProcess start() {
        return start(Persistence.NONE);
    }

    /** Starts a server with the given persistence on a free loopback port and waits until it answers {@code PING}. */
    public static RedisServerProcess start(Persistence persistence) {
        return start(persistence, List.of());
    }

    /**
     * Starts a server with further {@code redis-server} arguments (for example {@code --replicaof host port}),
     * which every restart repeats.
     */
    static RedisServerProcess start(Persistence persistence, List<String> extraArguments) {
        return start(persistence, extraArguments, List.of());
    }

    /**
     * Starts a Redis Sentinel ({@code redis-server sentinel.conf --sentinel}) on a free loopback port, its
     * configuration file (which the sentinel rewrites as it learns) made of {@code configLines} in its own
     * directory, and waits until it answers {@code PING}.
     */
    static RedisServerProcess startSentinel(List<String> configLines) {
        List<String> config = List.copyOf(requireNonNull(configLines, "configLines is null"));
        if (config.isEmpty()) {
            throw new IllegalArgumentException("a sentinel needs at least one configuration line");
        }
        return start(Persistence.NONE, List.of(), config);
    }

    private static RedisServerProcess start(Persistence persistence, List<String> extraArguments,
            List<String> sentinelConfig) {
        requireNonNull(persistence, "persistence is null");
        List<String> extra = List.copyOf(requireNonNull(extraArguments, "extraArguments is null"));
        Path executable = LocalRedisProcesses.serverExecutable()
                .orElseThrow(() -> new IllegalStateException("redis-server is not on the PATH"));
        IllegalStateException last = new IllegalStateException("redis-server did not start");
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            RedisServerProcess server = new RedisServerProcess(executable, OsProcesses.freePort(LOWEST_PORT, HIGHEST_PORT, 0), persistence, extra,
                    sentinelConfig);
            try {
                server.launch();
                return server;
            } catch (IllegalStateException failure) {
                server.close();
                last = failure;
            }
        }
        throw last;
    }

    /** Where the server listens; the same across restarts. */
    public RedisEndpoint endpoint() {
        return RedisEndpoint.of(LOOPBACK, port);
    }

    /** What the server keeps across a restart. */
    public Persistence persistence() {
        return persistence;
    }

    /** The process id of the current server process. */
    public synchronized long pid() {
        return current().pid();
    }

    /** True while the current server process exists (frozen or not). */
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Kills the server with {@code SIGKILL} (as {@code kill -9}) and waits until the process is gone. */
    public synchronized void kill() {
        Process victim = current();
        victim.destroyForcibly();
        OsProcesses.awaitExit(victim);
        frozen = false;
    }

    /**
     * Freezes the server with {@code SIGSTOP}: it keeps its connections and data but answers nothing,
     * as a server stalled by the machine would. Returns once the kernel reports the process stopped
     * (where {@code /proc} shows it).
     */
    public synchronized void freeze() {
        signal("-STOP");
        frozen = true;
        Path stat = Path.of("/proc", Long.toString(current().pid()), "stat");
        if (Files.isReadable(stat)) {
            LocalRedisProcesses.awaitTrue(() -> OsProcesses.stateOf(stat) == 'T', STOP_TIMEOUT, "redis-server to stop");
        }
    }

    /** Thaws a frozen server with {@code SIGCONT}; it then serves everything that waited in its sockets. */
    public synchronized void thaw() {
        signal("-CONT");
        frozen = false;
    }

    /** True between {@link #freeze()} and {@link #thaw()}. */
    public synchronized boolean isFrozen() {
        return frozen;
    }

    /**
     * Starts a new server process on the same port (after {@code SIGKILL} of the current one, if it runs) and
     * waits until it answers {@code PING}: empty without persistence, with every acknowledged write with AOF.
     */
    public synchronized void restart() {
        if (isAlive()) {
            kill();
        }
        launch();
    }

    /**
     * {@return the reply to one command sent over a fresh connection, as {@link RedisAdmin#command} gives it}
     *
     * @throws RedisErrorReply when Redis answers with an error
     * @throws UncheckedIOException when the server cannot be reached or does not answer in 5 seconds
     */
    public Object call(String... command) {
        try (RedisAdmin connection = RedisAdmin.open(endpoint(), COMMAND_TIMEOUT)) {
            return connection.command(command);
        }
    }

    /** {@link #call} for an integer reply. */
    public long callLong(String... command) {
        Object reply = call(command);
        if (reply instanceof Long value) {
            return value;
        }
        throw new IllegalStateException("expected an integer reply to " + command[0] + ", got " + reply);
    }

    /**
     * Every key matching {@code pattern} (a {@code SCAN MATCH} pattern), read with a full {@code SCAN}
     * over one connection.
     */
    public List<String> keys(String pattern) {
        requireNonNull(pattern, "pattern is null");
        try (RedisAdmin connection = RedisAdmin.open(endpoint(), COMMAND_TIMEOUT)) {
            return connection.scan(pattern);
        }
    }

    /**
     * {@return how many established connections hold bytes the server has not read yet} While the server is
     * frozen, a command a client sent shows up here. Reads {@code /proc/net/tcp}, so Linux only.
     */
    public int connectionsWithUnreadInput() {
        Path table = Path.of("/proc/net/tcp");
        if (!Files.isReadable(table)) {
            throw new IllegalStateException("connectionsWithUnreadInput needs /proc/net/tcp (Linux)");
        }
        String localSuffix = String.format(":%04X", port);
        int waiting = 0;
        try {
            for (String line : Files.readAllLines(table, StandardCharsets.US_ASCII)) {
                String[] columns = line.trim().split("\\s+");
                boolean established = columns.length > 4 && "01".equals(columns[3]);
                if (established && columns[1].endsWith(localSuffix)) {
                    String receiveQueue = columns[4].substring(columns[4].indexOf(':') + 1);
                    if (Long.parseLong(receiveQueue, 16) > 0) {
                        waiting++;
                    }
                }
            }
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read " + table, failure);
        }
        return waiting;
    }

    /** The last lines of the current server's log, for failure messages. */
    public String logTail() {
        return logTail(5);
    }

    /** The last {@code count} lines of the current server's log, joined by {@code " | "}. */
    synchronized String logTail(int count) {
        if (directories.isEmpty()) {
            return "(no log)";
        }
        try {
            List<String> lines = Files.readAllLines(directories.get(directories.size() - 1).resolve("redis.log"),
                    StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - count), lines.size()));
        } catch (IOException | UncheckedIOException unreadable) {
            return "(no log)";
        }
    }

    /** Kills the server, frozen or not, and deletes its directories. Safe to call more than once. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        LIVE.remove(this);
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            OsProcesses.awaitExit(process);
        }
        directories.forEach(OsProcesses::deleteQuietly);
        directories.clear();
    }

    @Override
    public String toString() {
        return (sentinelConfig.isEmpty() ? "redis-server on " : "redis-sentinel on ") + endpoint();
    }

    private void launch() {
        if (closed) {
            throw new IllegalStateException("the server process was closed");
        }
        Path directory = directoryForLaunch();
        List<String> command = new ArrayList<>(List.of(executable.toString()));
        if (!sentinelConfig.isEmpty()) {
            command.addAll(List.of(writeSentinelConfig(directory).toString(), "--sentinel"));
        }
        command.addAll(List.of("--port", Integer.toString(port), "--bind", LOOPBACK, "--save", "", "--daemonize", "no",
                "--dir", directory.toString()));
        if (persistence == Persistence.AOF) {
            command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        } else {
            command.addAll(List.of("--appendonly", "no"));
        }
        command.addAll(extraArguments);
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("redis.log").toFile())).start();
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot start redis-server", failure);
        }
        LIVE.add(this);
        frozen = false;
        Process started = process;
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        LocalRedisProcesses.awaitTrue(() -> {
            if (!started.isAlive() || System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("redis-server did not start on port " + port + ": " + logTail());
            }
            return LocalRedisProcesses.answersPing(endpoint());
        }, START_TIMEOUT.plusSeconds(1), "PING on " + endpoint());
    }

    private Path writeSentinelConfig(Path directory) {
        Path file = directory.resolve("sentinel.conf");
        try {
            return Files.write(file, sentinelConfig, StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot write " + file, failure);
        }
    }

    /** A new directory per start without persistence; the first one again with AOF, so that it is replayed. */
    private Path directoryForLaunch() {
        if (persistence == Persistence.AOF && !directories.isEmpty()) {
            return directories.get(0);
        }
        try {
            Path directory = Files.createTempDirectory("toolboundary-redis-fault-" + port + "-");
            directories.add(directory);
            return directory;
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot create a directory for redis-server", failure);
        }
    }

    private Process current() {
        if (process == null) {
            throw new IllegalStateException("no server process");
        }
        return process;
    }
    private void signal(String signal) {
        OsProcesses.signal(current(), signal);
    }
}
