package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.boundary.FailuresSpecContract;
import io.toolboundary.tck.boundary.LimitsSpecContract;
import io.toolboundary.tck.boundary.PreflightSpecContract;
import io.toolboundary.tck.boundary.RecordLifecycleSpecContract;
import io.toolboundary.tck.boundary.RepeatedCallSpecContract;
import io.toolboundary.tck.boundary.ReusableBoundarySpecContract;
import io.toolboundary.tck.boundary.SpecState;
import io.toolboundary.tck.boundary.SpecValues;
import io.toolboundary.testkit.MutableClock;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.vavr.control.Option;
import java.time.Duration;

/**
 * The requirement text, scenario by scenario, through the boundary on a real Redis; the subclasses
 * choose standalone or cluster. Redis keeps its own time: TTLs are read with {@code PTTL} and ended with
 * {@code PEXPIRE}, from the test's own connection.
 */
abstract class RedisToolBoundarySpecTest implements PreflightSpecContract, RecordLifecycleSpecContract,
        RepeatedCallSpecContract, LimitsSpecContract, FailuresSpecContract, ReusableBoundarySpecContract {

    private final MutableClock clock = MutableClock.at(SpecValues.START);
    private final SpecState spec = new SpecState();
    private final RedisCanonicalInvocationStore store;
    private final RecordLife life;

    RedisToolBoundarySpecTest(RedisDeployment deployment) {
        this.store = SharedRedisStores.withDefaultOptions(deployment);
        this.life = new RecordLife(deployment, store);
    }

    @Override
    public MutableClock clock() {
        return clock;
    }

    @Override
    public SpecState specState() {
        return spec;
    }

    @Override
    public CanonicalInvocationStore store() {
        return store;
    }

    @Override
    public Option<Duration> remainingTtl(InvocationKey key) {
        return life.remainingTtl(key);
    }

    @Override
    public void expire(InvocationKey key) {
        life.expire(key);
    }

    @Override
    public boolean storeExpiresOnTheSuiteClock() {
        return false;
    }
}
