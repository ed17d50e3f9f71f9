package io.toolboundary.adapter.inmemory.reliability;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.tck.reliability.InterruptContract;

/** Interrupts at every point of a call, on the default in-memory store. */
class InMemoryInterruptTest implements InterruptContract {

    private static final InMemoryCanonicalInvocationStore STORE = InMemoryCanonicalInvocationStore.create();

    @Override
    public CanonicalInvocationStore store() {
        return STORE;
    }

    @Override
    public String storeName() {
        return "in-memory";
    }
}
