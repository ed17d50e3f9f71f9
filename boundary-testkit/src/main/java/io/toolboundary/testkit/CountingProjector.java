package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.Projection;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Projector} that counts how often it was called before delegating. Thread-safe: the count
 * is exact under concurrent calls, and a call counts even when the delegate throws.
 */
public final class CountingProjector implements Projector {

    private final Projector delegate;
    private final AtomicInteger projections = new AtomicInteger();

    CountingProjector(Projector delegate) {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    @Override
    public Projection project(ToolRequest request, String rawResponse) throws Exception {
        projections.incrementAndGet();
        return delegate.project(request, rawResponse);
    }

    /** {@return how many times the projector was called so far, including those that threw} */
    public int projections() {
        return projections.get();
    }
}
