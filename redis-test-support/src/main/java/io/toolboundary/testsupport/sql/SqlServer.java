package io.toolboundary.testsupport.sql;

/**
 * A real SQL server process a test owns: on a free loopback port, with its own temporary data directory, one
 * database and one user with a password made for it. Never a server that was already running on the machine.
 *
 * <p>{@link #stop()} shuts it down and keeps the data; {@link #start()} starts it again on the same port and
 * data directory and returns once it accepts connections. {@link #close()} (and JVM exit) stops it at once
 * and deletes its directory. A {@linkplain MariaDbServer#shared() shared} server refuses {@code stop} and
 * {@code close}: other tests use it.
 */
public sealed interface SqlServer extends AutoCloseable permits MariaDbServer, PostgresServer {

    /** {@return the product, "MariaDB" or "PostgreSQL"} */
    String product();

    /** {@return the loopback address the server listens on, 127.0.0.1} */
    String host();

    /** {@return the TCP port, the same across restarts} */
    int port();

    /** {@return the database made for the tests} */
    String database();

    /** {@return the user made for the tests; it owns {@link #database()}} */
    String user();

    /** {@return the user's password} */
    String password();

    /** {@return the JDBC URL of {@link #database()}, without user or password} */
    String jdbcUrl();

    /**
     * Starts the server on its data directory and port, and returns once it accepts connections; does
     * nothing while it runs.
     *
     * @throws IllegalStateException when it does not start (with its log's tail), or it was closed
     */
    void start();

    /**
     * Shuts the server down (open connections are cut) and waits until the process is gone; keeps the data.
     * Does nothing while it is stopped.
     *
     * @throws IllegalStateException on a shared server
     */
    void stop();

    /** {@return true while the server process runs} */
    boolean isRunning();

    /** {@return the last lines of the server's log, for failure messages} */
    String logTail();

    /**
     * Stops the server at once and deletes its directory. Safe to call more than once.
     *
     * @throws IllegalStateException on a shared server
     */
    @Override
    void close();
}
