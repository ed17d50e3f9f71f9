package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.reliability.StoreModelContract;
import io.toolboundary.testkit.MutableClock;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Option;
import java.time.Duration;

/**
 * The Redis store, on one standalone server, against the reference model. Redis keeps its own clock:
 * time passes through short TTLs and {@link RecordLife#expire}; the TTL is read with {@code PTTL}.
 */
class RedisStoreModelTest implements StoreModelContract {

    private static final RedisDeployment REDIS = RedisServerFixture.standalone();
    private static final RedisCanonicalInvocationStore STORE = RedisCanonicalInvocationStoreFactory.create(
            RedisTestServers.client(REDIS), RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).build());
    private static final RecordLife LIFE = new RecordLife(REDIS, STORE);

    @Override
    public CanonicalInvocationStore store() {
        return STORE;
    }

    @Override
    public String storeName() {
        return "redis-standalone";
    }

    @Override
    public Option<Duration> remainingTtl(InvocationKey key) {
        return LIFE.remainingTtl(key);
    }

    @Override
    public Option<MutableClock> storeClock() {
        return Option.none();
    }

    @Override
    public void expire(InvocationKey key) {
        LIFE.expire(key);
    }

    @Override
    public int sequences() {
        return StoreModelContract.scaled(40);
    }

    @Override
    public int actionsPerSequence() {
        return 50;
    }
}
