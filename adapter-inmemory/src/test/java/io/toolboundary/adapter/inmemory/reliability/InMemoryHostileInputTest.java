package io.toolboundary.adapter.inmemory.reliability;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.tck.reliability.HostileInputContract;
import io.toolboundary.testkit.MutableClock;
import java.time.Instant;

/** Hostile input through the boundary on one in-memory store, shared by the class's tests. */
class InMemoryHostileInputTest implements HostileInputContract {

    private static final InMemoryCanonicalInvocationStore STORE =
            InMemoryCanonicalInvocationStore.create(MutableClock.at(Instant.parse("2031-01-01T00:00:00Z")));

    @Override
    public CanonicalInvocationStore store() {
        return STORE;
    }

    @Override
    public String storeName() {
        return "in-memory";
    }
}
