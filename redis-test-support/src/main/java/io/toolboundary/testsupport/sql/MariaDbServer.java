package io.toolboundary.testsupport.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A real MariaDB server ({@code mariadbd}) for tests: its own data directory made by {@code mariadb-install-db}
 * in a temporary directory, a free loopback port, database {@value #DATABASE} ({@code utf8mb4}) and user
 * {@value #USER} with a random password and every privilege on that database. It never touches a server that
 * was already running: no option file is read ({@code --no-defaults}), the socket and pid file are in its own
 * directory. Startup takes about a second; {@link #start()} returns once the server greets a client.
 *
 * <p>{@link #startNew()} gives a server the caller owns and may {@link #stop()}, {@link #start()} again (same
 * port, same data) and {@link #close()}; {@link #shared()} gives the one server of the JVM, which refuses
 * both. Needs {@code mariadbd} and {@code mariadb-install-db} (the {@code mariadb-server} package): without
 * them the test fails under {@code CI=true} and is aborted (skipped) otherwise. Thread-safe.
 */
public final class MariaDbServer implements SqlServer {

    /** The database made for the tests. */
    public static final String DATABASE = "toolboundary";
    /** The user made for the tests. */
    public static final String USER = "toolboundary";

    private static final String PRODUCT = "MariaDB";
    private static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(120);
    private static final int START_ATTEMPTS = 5;
    private static final String[] SERVER_DIRECTORIES = {"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin",
        "/usr/local/mysql/bin"};
    /** Shared by {@code mariadb-install-db} and every start: small, fast, and nothing a test depends on. */
    private static final List<String> ENGINE_OPTIONS = List.of("--innodb-buffer-pool-size=32M",
            "--innodb-log-file-size=16M", "--innodb-flush-log-at-trx-commit=2", "--skip-log-bin",
            "--performance-schema=OFF", "--skip-name-resolve");

    private static MariaDbServer shared;
    private static RuntimeException sharedFailure;

    private final Path server;
    private final Path directory;
    private final Path dataDirectory;
    private final int port;
    private final String password;
    private final boolean isShared;
    private final ServerProcess process;
    private boolean closed;

    private MariaDbServer(Path server, Path directory, int port, boolean isShared) {
        this.server = server;
        this.directory = directory;
        this.dataDirectory = directory.resolve("data");
        this.port = port;
        this.password = "tb-" + HexFormat.of().formatHex(randomBytes());
        this.isShared = isShared;
        this.process = new ServerProcess("mariadbd on port " + port, directory.resolve("mariadbd.log"));
    }

    /**
     * Makes a data directory and starts a server on it that the caller owns (about a second).
     *
     * @throws IllegalStateException when it cannot start, or (under {@code CI=true}) the binaries are missing
     * @throws org.opentest4j.TestAbortedException when the binaries are missing outside CI
     */
    public static MariaDbServer startNew() {
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
    public static synchronized MariaDbServer shared() {
        if (shared == null && sharedFailure == null) {
            try {
                shared = startNew(true);
            } catch (IllegalStateException | UncheckedIOException failure) {
                sharedFailure = failure;
            }
        }
        if (sharedFailure != null) {
            throw new IllegalStateException("the shared MariaDB server did not start: " + sharedFailure.getMessage(),
                    sharedFailure);
        }
        return shared;
    }

    /** {@return why no server can run here (missing binaries), or empty when one can} */
    public static Optional<String> unavailableReason() {
        if (serverExecutable().isEmpty()) {
            return Optional.of("mariadbd is neither on the PATH nor in /usr/sbin");
        }
        if (installExecutable().isEmpty()) {
            return Optional.of("mariadb-install-db is not on the PATH");
        }
        return Optional.empty();
    }

    private static MariaDbServer startNew(boolean isShared) {
        Optional<String> missing = unavailableReason();
        if (missing.isPresent()) {
            throw SqlProcesses.unavailable("A MariaDB server for the tests", missing.get(), "mariadb-server");
        }
        Path server = serverExecutable().orElseThrow();
        Path directory = SqlProcesses.temporaryDirectory("toolboundary-mariadb-");
        RuntimeException last = null;
        try {
            install(directory);
            for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
                MariaDbServer candidate = new MariaDbServer(server, directory, SqlProcesses.freePort(), isShared);
                try {
                    candidate.writeInitFile();
                    candidate.start();
                    SqlProcesses.closeAtExit(candidate, candidate::closeNow);
                    return candidate;
                } catch (IllegalStateException failure) {
                    // Most likely another process took the port between the check and the bind: try another one.
                    last = failure;
                }
            }
        } catch (RuntimeException failure) {
            SqlProcesses.deleteQuietly(directory);
            throw failure;
        }
        SqlProcesses.deleteQuietly(directory);
        throw last;
    }

    private static void install(Path directory) {
        List<String> command = new ArrayList<>(List.of(installExecutable().orElseThrow().toString(), "--no-defaults",
                "--datadir=" + directory.resolve("data"), "--auth-root-authentication-method=normal", "--skip-test-db"));
        if (SqlProcesses.runningAsRoot()) {
            command.add("--user=root");
        }
        command.addAll(ENGINE_OPTIONS);
        SqlProcesses.run(command, directory, null, directory.resolve("install.log"), INSTALL_TIMEOUT);
    }

    /** The statements every start runs before it accepts a client: the database and the user, if missing. */
    private void writeInitFile() {
        String quoted = "'" + password + "'";
        List<String> statements = List.of(
                "CREATE DATABASE IF NOT EXISTS " + DATABASE + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;",
                "CREATE USER IF NOT EXISTS '" + USER + "'@'%' IDENTIFIED BY " + quoted + ";",
                "ALTER USER '" + USER + "'@'%' IDENTIFIED BY " + quoted + ";",
                "GRANT ALL PRIVILEGES ON " + DATABASE + ".* TO '" + USER + "'@'%';");
        try {
            Files.createDirectories(directory.resolve("tmp"));
            Files.write(directory.resolve("init.sql"), statements, StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot write the init file of " + this, failure);
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
        return "jdbc:mariadb://" + host() + ":" + port + "/" + DATABASE;
    }

    @Override
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException(this + " was closed");
        }
        if (process.isRunning()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(server.toString(), "--no-defaults"));
        if (SqlProcesses.runningAsRoot()) {
            command.add("--user=root");
        }
        command.addAll(List.of("--datadir=" + dataDirectory, "--port=" + port, "--bind-address=" + host(),
                "--skip-networking=0", "--socket=" + directory.resolve("mysqld.sock"),
                "--pid-file=" + directory.resolve("mariadbd.pid"), "--tmpdir=" + directory.resolve("tmp"),
                "--init-file=" + directory.resolve("init.sql"), "--host-cache-size=0",
                "--character-set-server=utf8mb4", "--collation-server=utf8mb4_unicode_ci"));
        command.addAll(ENGINE_OPTIONS);
        process.launch(command, directory, this::greets);
    }

    @Override
    public synchronized void stop() {
        refuseIfShared("stop");
        process.stop(null);
    }

    @Override
    public synchronized boolean isRunning() {
        return process.isRunning();
    }

    /** {@return the process id of the running server} */
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
        process.stopAtOnce(null);
        SqlProcesses.deleteQuietly(directory);
    }

    @Override
    public String toString() {
        return "MariaDB server on " + host() + ":" + port + (isShared ? " (shared)" : "");
    }

    private void refuseIfShared(String what) {
        if (isShared) {
            throw new IllegalStateException("the shared MariaDB server cannot " + what
                    + ": other tests use it; use MariaDbServer.startNew() for a server of your own");
        }
    }

    /**
     * True when the server sent its handshake (protocol 10) to a new connection: it runs its init file before
     * it accepts anyone, so the database and the user exist by then.
     */
    private boolean greets() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host(), port), 250);
            socket.setSoTimeout(2_000);
            InputStream in = socket.getInputStream();
            byte[] header = in.readNBytes(5);
            return header.length == 5 && header[4] == 0x0a;
        } catch (IOException notYet) {
            return false;
        }
    }

    private static Optional<Path> serverExecutable() {
        Optional<Path> found = SqlProcesses.executable("mariadbd", SERVER_DIRECTORIES);
        return found.isPresent() ? found : SqlProcesses.executable("mysqld", SERVER_DIRECTORIES);
    }

    private static Optional<Path> installExecutable() {
        Optional<Path> found = SqlProcesses.executable("mariadb-install-db", SERVER_DIRECTORIES);
        return found.isPresent() ? found : SqlProcesses.executable("mysql_install_db", SERVER_DIRECTORIES);
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[12];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
