package io.toolboundary.testsupport.sql;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The one server process behind a {@link SqlServer}: launched, awaited until it accepts connections, signalled
 * to stop, forced when it does not. Not thread-safe: its owner synchronizes.
 */
final class ServerProcess {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(10);

    private final String name;
    private final Path log;
    private Process process;

    ServerProcess(String name, Path log) {
        this.name = name;
        this.log = log;
    }

    /**
     * Starts {@code command} and waits until {@code ready} holds.
     *
     * @throws IllegalStateException when the process exits first or is not ready in 60 seconds (it is then
     *     killed), with the log's tail
     */
    void launch(List<String> command, Path workingDirectory, BooleanSupplier ready) {
        Process started = SqlProcesses.launch(command, workingDirectory, log);
        process = started;
        boolean answered = SqlProcesses.await(() -> !started.isAlive() || ready.getAsBoolean(), READY_TIMEOUT);
        if (!started.isAlive()) {
            process = null;
            throw new IllegalStateException(name + " exited with " + started.exitValue() + " while starting: " + logTail());
        }
        if (!answered) {
            started.destroyForcibly();
            SqlProcesses.awaitExit(started, KILL_TIMEOUT);
            process = null;
            throw new IllegalStateException(name + " did not accept connections within " + READY_TIMEOUT + ": " + logTail());
        }
    }

    /** True while the process runs. */
    boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The running process. */
    Process process() {
        if (process == null) {
            throw new IllegalStateException(name + " is not running");
        }
        return process;
    }

    /**
     * Sends {@code signal} (or SIGTERM when null) and waits up to 30 seconds for the exit, then kills with
     * SIGKILL.
     */
    void stop(String signal) {
        if (process == null) {
            return;
        }
        Process stopping = process;
        if (signal == null) {
            stopping.destroy();
        } else {
            SqlProcesses.signal(stopping, signal);
        }
        if (!SqlProcesses.awaitExit(stopping, STOP_TIMEOUT)) {
            stopping.destroyForcibly();
            SqlProcesses.awaitExit(stopping, KILL_TIMEOUT);
        }
        process = null;
    }

    /** Sends {@code signal} (or SIGKILL when null), waits briefly, then kills with SIGKILL. */
    void stopAtOnce(String signal) {
        if (process == null) {
            return;
        }
        Process stopping = process;
        if (signal == null) {
            stopping.destroyForcibly();
        } else {
            SqlProcesses.signal(stopping, signal);
        }
        if (!SqlProcesses.awaitExit(stopping, KILL_TIMEOUT)) {
            stopping.destroyForcibly();
            SqlProcesses.awaitExit(stopping, KILL_TIMEOUT);
        }
        process = null;
    }

    String logTail() {
        return SqlProcesses.tail(log, 8);
    }
}
