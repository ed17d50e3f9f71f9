package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.ToolExecutor;

/**
 * Ready-made {@link ToolExecutor}s for tests: a tool that answers, one that fails, one whose answer
 * is too large, and a counting wrapper around any of them.
 */
public final class FakeTools {

    private FakeTools() {
    }

    /** A tool that always answers {@code raw}. */
    public static ToolExecutor returning(String raw) {
        requireNonNull(raw, "raw is null");
        return request -> raw;
    }

    /**
     * A tool that always throws an {@link IllegalStateException} with {@code message}; leak tests put
     * markers in the message to prove it never reaches the agent.
     */
    public static ToolExecutor throwing(String message) {
        requireNonNull(message, "message is null");
        return request -> {
            throw new IllegalStateException(message);
        };
    }

    /** A tool that always throws {@code failure}. */
    public static ToolExecutor throwing(Exception failure) {
        requireNonNull(failure, "failure is null");
        return request -> {
            throw failure;
        };
    }

    /**
     * A tool that answers a text of exactly {@code utf8Bytes} UTF-8 bytes (see
     * {@link Fixtures#textOfUtf8Bytes(int)}), for raw-limit tests.
     */
    public static ToolExecutor returningBytes(int utf8Bytes) {
        return returning(Fixtures.textOfUtf8Bytes(utf8Bytes));
    }

    /** Counts the executions of {@code executor}. */
    public static CountingExecutor counting(ToolExecutor executor) {
        return new CountingExecutor(executor);
    }
}
