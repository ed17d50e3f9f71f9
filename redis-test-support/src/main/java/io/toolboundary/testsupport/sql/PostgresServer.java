package io.toolboundary.testsupport.sql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A real PostgreSQL server ({@code postgres}) for tests: its own cluster made by {@code initdb} (UTF-8, C
 * locale) in a temporary directory, a free loopback port, database {@value #DATABASE} owned by user
 * {@value #USER} with a random password (password authentication over TCP). It never touches a server that
 * was already running: its socket is in its own directory, and no configuration outside it is read. Startup
 * takes about a second; {@link #start()} returns once the server reports itself ready.
 *
 * <p>PostgreSQL refuses to run as root: under root, {@code initdb} and {@code postgres} run as the
 * {@code postgres} system user through {@code setpriv}, and the directory belongs to that user.
 * {@link #stop()} is a fast shutdown ({@code SIGINT}: open sessions are cut, the data is kept);
 * {@link #close()} an immediate one ({@code SIGQUIT}) before the directory is deleted.
 *
 * <p>{@link #startNew()} gives a server the caller owns and may {@link #stop()}, {@link #start()} again (same
 * port, same data) and {@link #close()}; {@link #shared()} gives the one server of the JVM, which refuses
 * both. Needs {@code initdb} and {@code postgres} (the {@code postgresql} package; found on the PATH or in
 * {@code /usr/lib/postgresql/<version>/bin}), and under root {@code setpriv} and a {@code postgres} user:
 * without them the test fails under {@code CI=true} and is aborted (skipped) otherwise. Thread-safe.
 */
public final class PostgresServer implements SqlServer {

    /** The database made for the tests. */
    public static final String DATABASE = "toolboundary";
    /** The user made for the tests; it owns {@link #DATABASE}. */
    public static final String USER = "toolboundary";

    private static final String PRODUCT = "PostgreSQL";
    private static final String SYSTEM_USER = "postgres";
    private static final Duration SETUP_TIMEOUT = Duration.ofSeconds(120);
    private static final int START_ATTEMPTS = 5;
    private static final String[] INSTALL_ROOTS = {"/usr/lib/postgresql", "/usr/local/pgsql", "/opt/postgresql"};

    private static PostgresServer shared;
    private static RuntimeException sharedFailure;

    private final Path postgres;
    private final List<String> asServerUser;
    private final Path directory;
    private final Path dataDirectory;
    private final int port;
    private final String password;
    private final boolean isShared;
    private final ServerProcess process;
    private boolean closed;

    private PostgresServer(Path postgres, List<String> asServerUser, Path directory, int port, String password,
            boolean isShared) {
        this.postgres = postgres;
        this.asServerUser = asServerUser;
        this.directory = directory;
        this.dataDirectory = directory.resolve("data");
        this.port = port;
        this.password = password;
        this.isShared = isShared;
        this.process = new ServerProcess("postgres on port " + port, directory.resolve("postgres.log"));
    }

    /**
     * Makes a cluster and starts a server on it that the caller owns (about a second).
     *
     * @throws IllegalStateException when it cannot start, or (under {@code CI=true}) the binaries are missing
     * @throws org.opentest4j.TestAbortedException when the binaries are missing outside CI
     */
    public static PostgresServer startNew() {
        return startNew(false);
    }

    /**
     * The JVM's shared server, started on first call and closed at JVM exit; it refuses {@link #stop()} and
     * {@link #close()}. Each test should use its own tables or rows.
     *
     * @throws IllegalStateException when it cannot start (every later call too), or (under {@code CI=true})
     *     the binaries are missing
     * @throws org.opentest4j.TestAbortedException when the binaries are missing outside CI
     */
    public static synchronized PostgresServer shared() {
        if (shared == null && sharedFailure == null) {
            try {
                shared = startNew(true);
            } catch (IllegalStateException | UncheckedIOException failure) {
                sharedFailure = failure;
            }
        }
        if (sharedFailure != null) {
            throw new IllegalStateException("the shared PostgreSQL server did not start: "
                    + sharedFailure.getMessage(), sharedFailure);
        }
        return shared;
    }

    /** {@return why no server can run here (missing binaries, or no way to leave root), or empty when one can} */
    public static Optional<String> unavailableReason() {
        Optional<Path> initdb = initdbExecutable();
        if (initdb.isEmpty()) {
            return Optional.of("initdb is neither on the PATH nor in /usr/lib/postgresql/<version>/bin");
        }
        if (!Files.isExecutable(postgresNextTo(initdb.get()))) {
            return Optional.of("there is no postgres executable beside " + initdb.get());
        }
        if (SqlProcesses.runningAsRoot()) {
            if (SqlProcesses.executable("setpriv", "/usr/bin", "/bin").isEmpty()) {
                return Optional.of("the tests run as root, which PostgreSQL refuses, and setpriv is not on the PATH");
            }
            if (SqlProcesses.systemUser(SYSTEM_USER).isEmpty()) {
                return Optional.of("the tests run as root, which PostgreSQL refuses, and there is no '" + SYSTEM_USER
                        + "' user to run it as");
            }
        }
        return Optional.empty();
    }

    private static PostgresServer startNew(boolean isShared) {
        Optional<String> missing = unavailableReason();
        if (missing.isPresent()) {
            throw SqlProcesses.unavailable("A PostgreSQL server for the tests", missing.get(), "postgresql");
        }
        Path initdb = initdbExecutable().orElseThrow();
        Path postgres = postgresNextTo(initdb);
        List<String> asServerUser = new ArrayList<>();
        Path directory = SqlProcesses.temporaryDirectory("toolboundary-postgres-");
        String password = "tb-" + HexFormat.of().formatHex(randomBytes());
        RuntimeException last = null;
        try {
            if (SqlProcesses.runningAsRoot()) {
                int[] ids = SqlProcesses.systemUser(SYSTEM_USER).orElseThrow();
                asServerUser.addAll(List.of(SqlProcesses.executable("setpriv", "/usr/bin", "/bin").orElseThrow().toString(),
                        "--reuid=" + ids[0], "--regid=" + ids[1], "--clear-groups", "--"));
                Files.setAttribute(directory, "unix:uid", ids[0]);
                Files.setAttribute(directory, "unix:gid", ids[1]);
            }
            initialize(initdb, postgres, asServerUser, directory, password);
            for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
                PostgresServer candidate = new PostgresServer(postgres, List.copyOf(asServerUser), directory,
                        SqlProcesses.freePort(), password, isShared);
                try {
                    candidate.start();
                    SqlProcesses.closeAtExit(candidate, candidate::closeNow);
                    return candidate;
                } catch (IllegalStateException failure) {
                    // Most likely another process took the port between the check and the bind: try another one.
                    last = failure;
                }
            }
        } catch (IOException failure) {
            SqlProcesses.deleteQuietly(directory);
            throw new UncheckedIOException("cannot prepare " + directory + " for postgres", failure);
        } catch (RuntimeException failure) {
            SqlProcesses.deleteQuietly(directory);
            throw failure;
        }
        SqlProcesses.deleteQuietly(directory);
        throw last;
    }

    /** {@code initdb}, then the user and the database in single-user mode, before the first start. */
    private static void initialize(Path initdb, Path postgres, List<String> asServerUser, Path directory,
            String password) throws IOException {
        List<String> init = new ArrayList<>(asServerUser);
        init.addAll(List.of(initdb.toString(), "-D", directory.resolve("data").toString(), "-U", SYSTEM_USER,
                "--auth-local=trust", "--auth-host=md5", "-E", "UTF8", "--no-locale", "--no-sync"));
        Path log = directory.resolve("setup.log");
        SqlProcesses.run(init, directory, null, log, SETUP_TIMEOUT);

        Path setup = directory.resolve("setup.sql");
        Files.write(setup, List.of("CREATE ROLE " + USER + " LOGIN PASSWORD '" + password + "';",
                "CREATE DATABASE " + DATABASE + " OWNER " + USER + ";"), StandardCharsets.UTF_8);
        List<String> single = new ArrayList<>(asServerUser);
        single.addAll(List.of(postgres.toString(), "--single", "-D", directory.resolve("data").toString(), "-F",
                "postgres"));
        SqlProcesses.run(single, directory, setup, log, SETUP_TIMEOUT);
        if (Files.readString(log, StandardCharsets.UTF_8).contains("ERROR:")) {
            throw new IllegalStateException("postgres --single could not create the user and the database: "
                    + SqlProcesses.tail(log, 8));
        }
    }

    @Override
    public String product() {
        return PRODUCT;
    }

    @Override
    public String host() {
        return SqlProcesses.LOOPBACK;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String database() {
        return DATABASE;
    }

    @Override
    public String user() {
        return USER;
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public String jdbcUrl() {
        return "jdbc:postgresql://" + host() + ":" + port + "/" + DATABASE;
    }

    @Override
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException(this + " was closed");
        }
        if (process.isRunning()) {
            return;
        }
        List<String> command = new ArrayList<>(asServerUser);
        command.addAll(List.of(postgres.toString(), "-D", dataDirectory.toString(), "-p", Integer.toString(port),
                "-k", directory.toString(), "-c", "listen_addresses=" + host(), "-c", "fsync=off",
                "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "shared_buffers=16MB",
                "-c", "max_connections=100", "-c", "logging_collector=off"));
        process.launch(command, directory, this::ready);
    }

    @Override
    public synchronized void stop() {
        refuseIfShared("stop");
        process.stop("-INT");
    }

    @Override
    public synchronized boolean isRunning() {
        return process.isRunning();
    }

    /** {@return the process id of the running server (the postmaster)} */
    public synchronized long pid() {
        return process.process().pid();
    }

    /** The server's directory (data, socket, log), which {@link #close()} deletes. */
    Path directory() {
        return directory;
    }

    @Override
    public synchronized String logTail() {
        return process.logTail();
    }

    @Override
    public void close() {
        refuseIfShared("close");
        closeNow();
    }

    private synchronized void closeNow() {
        if (closed) {
            return;
        }
        closed = true;
        SqlProcesses.closed(this);
        process.stopAtOnce("-QUIT");
        SqlProcesses.deleteQuietly(directory);
    }

    @Override
    public String toString() {
        return "PostgreSQL server on " + host() + ":" + port + (isShared ? " (shared)" : "");
    }

    private void refuseIfShared(String what) {
        if (isShared) {
            throw new IllegalStateException("the shared PostgreSQL server cannot " + what
                    + ": other tests use it; use PostgresServer.startNew() for a server of your own");
        }
    }

    /**
     * True when {@code postmaster.pid} names this process and says "ready" (as {@code pg_ctl -w} reads it), and
     * the port takes a connection.
     */
    private boolean ready() {
        try {
            List<String> lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.US_ASCII);
            if (lines.size() < 8 || !lines.get(0).trim().equals(Long.toString(process.process().pid()))
                    || !"ready".equals(lines.get(7).trim())) {
                return false;
            }
        } catch (IOException | UncheckedIOException | IllegalStateException notYet) {
            return false;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host(), port), 250);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    private static Optional<Path> initdbExecutable() {
        Optional<Path> onPath = SqlProcesses.executable("initdb");
        if (onPath.isPresent()) {
            return onPath;
        }
        for (String root : INSTALL_ROOTS) {
            Path base = Path.of(root);
            if (Files.isExecutable(base.resolve("bin/initdb"))) {
                return Optional.of(base.resolve("bin/initdb"));
            }
            if (!Files.isDirectory(base)) {
                continue;
            }
            try (DirectoryStream<Path> versions = Files.newDirectoryStream(base)) {
                List<Path> candidates = new ArrayList<>();
                versions.forEach(version -> candidates.add(version.resolve("bin/initdb")));
                Optional<Path> newest = candidates.stream().filter(Files::isExecutable)
                        .max(Comparator.comparing(PostgresServer::versionOf));
                if (newest.isPresent()) {
                    return newest;
                }
            } catch (IOException | UncheckedIOException unreadable) {
                // Look in the next place.
            }
        }
        return Optional.empty();
    }

    /** {@code /usr/lib/postgresql/15/bin/initdb} is version 15; anything not a number sorts first. */
    private static Integer versionOf(Path initdb) {
        try {
            return Integer.valueOf(initdb.getParent().getParent().getFileName().toString());
        } catch (NumberFormatException | NullPointerException notANumber) {
            return -1;
        }
    }

    /** The {@code postgres} of the same installation as {@code initdb} (a symbolic link is followed). */
    private static Path postgresNextTo(Path initdb) {
        try {
            return initdb.toRealPath().resolveSibling("postgres");
        } catch (IOException unresolvable) {
            return initdb.resolveSibling("postgres");
        }
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[12];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
