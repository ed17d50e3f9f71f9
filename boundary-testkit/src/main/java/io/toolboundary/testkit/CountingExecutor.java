package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link ToolExecutor} that counts how often it was called before delegating. Thread-safe: the
 * count is exact under concurrent calls, and a call counts even when the delegate throws.
 */
public final class CountingExecutor implements ToolExecutor {

    private final ToolExecutor delegate;
    private final AtomicInteger executions = new AtomicInteger();

    CountingExecutor(ToolExecutor delegate) {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    @Override
    public String execute(ToolRequest request) throws Exception {
        executions.incrementAndGet();
        return delegate.execute(request);
    }

    /** {@return how many times the tool was executed so far, including those that threw} */
    public int executions() {
        return executions.get();
    }
}
