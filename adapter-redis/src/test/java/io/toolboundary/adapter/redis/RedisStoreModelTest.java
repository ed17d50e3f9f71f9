package io.toolboundary.adapter.redis;

import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.testkit.MutableClock;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.toolboundary.tck.reliability.StoreModelContract;
import io.vavr.control.Option;
import java.time.Duration;

/**
 * The Redis store, on one standalone server, against the reference model. Redis keeps its own clock:
 * time passes through short TTLs and {@link RecordLife#expire}; the TTL is read with {@code PTTL}.
 */
class RedisStoreModelTest extends StoreModelContract {

    private static final RedisDeployment REDIS = RedisServerFixture.standalone();
    private static final RedisCanonicalInvocationStore STORE = RedisCanonicalInvocationStoreFactory.create(
            RedisTestServers.client(REDIS), RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).build());
    private static final RecordLife LIFE = new RecordLife(REDIS, STORE);

    @Override
    protected CanonicalInvocationStore store() {
        return STORE;
    }

    @Override
    protected String storeName() {
        return "redis-standalone";
    }

    @Override
    protected Option<Duration> remainingTtl(InvocationKey key) {
        return LIFE.remainingTtl(key);
    }

    @Override
    protected Option<MutableClock> storeClock() {
        return Option.none();
    }

    @Override
    protected void expire(InvocationKey key) {
        LIFE.expire(key);
    }

    @Override
    protected int sequences() {
        return scaled(40);
    }

    @Override
    protected int actionsPerSequence() {
        return 50;
    }
}
