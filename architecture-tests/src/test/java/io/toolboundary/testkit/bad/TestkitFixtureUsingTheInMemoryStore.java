package io.toolboundary.testkit.bad;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.spi.CanonicalInvocationStore;

/** Breaks the testkit rule: a fixture that depends on an adapter. */
public final class TestkitFixtureUsingTheInMemoryStore {

    private TestkitFixtureUsingTheInMemoryStore() {
    }

    static CanonicalInvocationStore anyStore() {
        return InMemoryCanonicalInvocationStore.create();
    }
}
