package io.toolboundary.adapter.redis;

import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.AgentNeverSeesRawDataContract;
import io.toolboundary.testsupport.redis.RedisDeployment;

/** What the agent sees on every path, through the boundary on a real Redis; the subclasses choose the deployment. */
abstract class RedisAgentNeverSeesRawDataTest extends AgentNeverSeesRawDataContract {

    private final RedisCanonicalInvocationStore store;
    private final RecordLife life;

    RedisAgentNeverSeesRawDataTest(RedisDeployment deployment) {
        this.store = SharedRedisStores.withDefaultOptions(deployment);
        this.life = new RecordLife(deployment, store);
    }

    @Override
    protected CanonicalInvocationStore store() {
        return store;
    }

    @Override
    protected void expire(InvocationKey key) {
        life.expire(key);
    }

    @Override
    protected void passLease(InvocationKey key) {
        life.passLease(key);
    }

    @Override
    protected long maxRecordBytes() {
        return store.options().recordCapBytes().orElse(io.toolboundary.domain.Limits.DEFAULT_RECORD_BYTES);
    }
}
