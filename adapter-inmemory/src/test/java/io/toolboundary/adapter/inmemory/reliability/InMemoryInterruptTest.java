package io.toolboundary.adapter.inmemory.reliability;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.tck.reliability.InterruptContract;

/** Interrupts at every point of a call, on the default in-memory store. */
class InMemoryInterruptTest extends InterruptContract {

    private static final InMemoryCanonicalInvocationStore STORE = InMemoryCanonicalInvocationStore.create();

    @Override
    protected CanonicalInvocationStore store() {
        return STORE;
    }

    @Override
    protected String storeName() {
        return "in-memory";
    }
}
