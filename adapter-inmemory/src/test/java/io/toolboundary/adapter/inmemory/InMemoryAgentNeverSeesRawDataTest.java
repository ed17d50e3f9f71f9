package io.toolboundary.adapter.inmemory;

import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.boundary.AgentNeverSeesRawDataContract;
import io.toolboundary.tck.boundary.SpecValues;
import io.toolboundary.testkit.MutableClock;

/** What the agent sees on every path, through the boundary on the in-memory store. */
class InMemoryAgentNeverSeesRawDataTest implements AgentNeverSeesRawDataContract {

    private final MutableClock clock = MutableClock.at(SpecValues.START);
    private final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(clock);

    @Override
    public MutableClock clock() {
        return clock;
    }

    @Override
    public CanonicalInvocationStore store() {
        return store;
    }

    @Override
    public void expire(InvocationKey key) {
        store.remainingTtl(key).forEach(clock()::advance);
    }

    @Override
    public long maxRecordBytes() {
        return ToolBoundaryConfig.DEFAULT_RECORD_BYTES;
    }
}
