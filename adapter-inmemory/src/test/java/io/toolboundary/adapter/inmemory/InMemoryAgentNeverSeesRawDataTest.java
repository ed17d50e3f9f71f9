package io.toolboundary.adapter.inmemory;

import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Limits;
import io.toolboundary.tck.AgentNeverSeesRawDataContract;

/** What the agent sees on every path, through the boundary on the in-memory store. */
class InMemoryAgentNeverSeesRawDataTest extends AgentNeverSeesRawDataContract {

    private final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(clock());

    @Override
    protected CanonicalInvocationStore store() {
        return store;
    }

    @Override
    protected void expire(InvocationKey key) {
        store.remainingTtl(key).forEach(clock()::advance);
    }

    @Override
    protected long maxRecordBytes() {
        return Limits.DEFAULT_RECORD_BYTES;
    }
}
