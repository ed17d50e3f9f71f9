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

    /**
     * {@return a tool that always answers {@code raw}}
     *
     * @param raw the raw response of every execution, whatever the request
     * @throws NullPointerException when {@code raw} is null
     */
    public static ToolExecutor returning(String raw) {
        requireNonNull(raw, "raw is null");
        return request -> raw;
    }

    /**
     * A tool that always throws an {@link IllegalStateException} with {@code message}; leak tests put
     * markers in the message to prove it never reaches the agent.
     *
     * @param message the message of the exception thrown on every execution
     * @return a tool executor that never answers
     * @throws NullPointerException when {@code message} is null
     */
    public static ToolExecutor throwing(String message) {
        requireNonNull(message, "message is null");
        return request -> {
            throw new IllegalStateException(message);
        };
    }

    /**
     * {@return a tool that always throws {@code failure}}
     *
     * @param failure the exception thrown, the same instance, on every execution
     * @throws NullPointerException when {@code failure} is null
     */
    public static ToolExecutor throwing(Exception failure) {
        requireNonNull(failure, "failure is null");
        return request -> {
            throw failure;
        };
    }

    /**
     * A tool that answers a text of exactly {@code utf8Bytes} UTF-8 bytes (see
     * {@link Fixtures#textOfUtf8Bytes(int)}), for raw-limit tests.
     *
     * @param utf8Bytes the size of the raw response, in UTF-8 bytes
     * @return a tool executor that always answers the same text of that size
     * @throws IllegalArgumentException when {@code utf8Bytes} is negative
     */
    public static ToolExecutor returningBytes(int utf8Bytes) {
        return returning(Fixtures.textOfUtf8Bytes(utf8Bytes));
    }

    /**
     * {@return a wrapper that counts the executions and delegates each to {@code executor}}
     *
     * @param executor the tool executor every execution is passed on to
     * @throws NullPointerException when {@code executor} is null
     */
    public static CountingExecutor counting(ToolExecutor executor) {
        return new CountingExecutor(executor);
    }
}
