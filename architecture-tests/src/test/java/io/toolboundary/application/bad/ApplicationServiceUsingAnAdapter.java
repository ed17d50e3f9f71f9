package io.toolboundary.application.bad;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.spi.CanonicalInvocationStore;

/** Breaks "nothing but the adapters and the demo depends on an adapter": it builds its own store. */
public final class ApplicationServiceUsingAnAdapter {

    private ApplicationServiceUsingAnAdapter() {
    }

    static CanonicalInvocationStore store() {
        return InMemoryCanonicalInvocationStore.create();
    }
}
