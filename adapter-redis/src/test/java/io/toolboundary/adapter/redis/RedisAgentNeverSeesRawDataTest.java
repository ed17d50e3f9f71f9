package io.toolboundary.adapter.redis;

import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.boundary.AgentNeverSeesRawDataContract;
import io.toolboundary.tck.boundary.SpecValues;
import io.toolboundary.testkit.MutableClock;
import io.toolboundary.testsupport.redis.RedisDeployment;

/** What the agent sees on every path, through the boundary on a real Redis; the subclasses choose the deployment. */
abstract class RedisAgentNeverSeesRawDataTest implements AgentNeverSeesRawDataContract {

    private final MutableClock clock = MutableClock.at(SpecValues.START);
    private final RedisCanonicalInvocationStore store;
    private final RecordLife life;

    RedisAgentNeverSeesRawDataTest(RedisDeployment deployment) {
        this.store = SharedRedisStores.withDefaultOptions(deployment);
        this.life = new RecordLife(deployment, store);
    }

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
        life.expire(key);
    }

    @Override
    public void passLease(InvocationKey key) {
        life.passLease(key);
    }

    @Override
    public long maxRecordBytes() {
        return store.options().recordCapBytes().orElse(io.toolboundary.application.ToolBoundaryConfig.DEFAULT_RECORD_BYTES);
    }
}
