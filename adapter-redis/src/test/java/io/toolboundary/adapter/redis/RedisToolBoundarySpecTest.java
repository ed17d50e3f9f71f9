package io.toolboundary.adapter.redis;

import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.ToolBoundarySpecContract;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.vavr.control.Option;
import java.time.Duration;

/**
 * The requirement text, scenario by scenario, through the boundary on a real Redis; the subclasses
 * choose standalone or cluster. Redis keeps its own time: TTLs are read with {@code PTTL} and ended with
 * {@code PEXPIRE}, from the test's own connection.
 */
abstract class RedisToolBoundarySpecTest extends ToolBoundarySpecContract {

    private final RedisCanonicalInvocationStore store;
    private final RecordLife life;

    RedisToolBoundarySpecTest(RedisDeployment deployment) {
        this.store = SharedRedisStores.withDefaultOptions(deployment);
        this.life = new RecordLife(deployment, store);
    }

    @Override
    protected CanonicalInvocationStore store() {
        return store;
    }

    @Override
    protected Option<Duration> remainingTtl(InvocationKey key) {
        return life.remainingTtl(key);
    }

    @Override
    protected void expire(InvocationKey key) {
        life.expire(key);
    }

    @Override
    protected boolean storeExpiresOnTheSuiteClock() {
        return false;
    }
}
