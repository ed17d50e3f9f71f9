package io.toolboundary.export;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source over a real one that a test steers: {@link #hold()} makes each {@code getConnection} wait
 * until {@link #release()} (counting the callers waiting), {@link #refuse} makes it fail with an exception
 * whose message holds secrets, and {@link #loseCommits} makes the next commits take effect and then fail, as a
 * connection lost after the server committed.
 */
final class ControlledDataSource implements DataSource {

    /** Text in every failure this data source makes up: it must never reach a failure's reason. */
    static final String SECRET = "jdbc:secret-host:5432 password=hunter2 INSERT INTO secret_table";

    private final DataSource real;
    private final Semaphore gate = new Semaphore(Integer.MAX_VALUE);
    private final AtomicBoolean held = new AtomicBoolean();
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile String refusing;
    private final AtomicInteger commitsToLose = new AtomicInteger();

    ControlledDataSource(DataSource real) {
        this.real = real;
    }

    /** Makes every later {@code getConnection} wait until {@link #release()}. */
    void hold() {
        if (held.compareAndSet(false, true)) {
            gate.acquireUninterruptibly(Integer.MAX_VALUE);
        }
    }

    /** Lets the waiting and all later callers through. */
    void release() {
        if (held.compareAndSet(true, false)) {
            gate.release(Integer.MAX_VALUE);
        }
    }

    /** {@return how many callers wait in {@code getConnection}} */
    int waiting() {
        return waiting.get();
    }

    /** Makes {@code getConnection} fail with {@code sqlState}, or (null) succeed again. */
    void refuse(String sqlState) {
        this.refusing = sqlState;
    }

    /** Makes the next {@code count} commits commit and then fail as a lost connection. */
    void loseCommits(int count) {
        commitsToLose.set(count);
    }

    @Override
    public Connection getConnection() throws SQLException {
        waiting.incrementAndGet();
        try {
            gate.acquireUninterruptibly();
            gate.release();
        } finally {
            waiting.decrementAndGet();
        }
        String state = refusing;
        if (state != null) {
            throw new SQLException("cannot connect to " + SECRET, state, 0);
        }
        Connection connection = real.getConnection();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    try {
                        Object result = method.invoke(connection, args);
                        if (method.getName().equals("commit") && commitsToLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            throw new SQLException("connection lost after commit, " + SECRET, "08006", 0);
                        }
                        return result;
                    } catch (InvocationTargetException thrown) {
                        throw thrown.getCause();
                    }
                });
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return real.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        real.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        real.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return real.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return real.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return real.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return real.isWrapperFor(type);
    }
}
