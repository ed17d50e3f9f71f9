package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.tck.reliability.InterruptContract;
import io.toolboundary.testsupport.redis.RedisServerFixture;

/**
 * Interrupts at every point of a call, on a standalone Redis with the default store options: Redisson
 * turns an interrupted caller into a failure of the command, which the store must never see.
 */
class RedisInterruptTest implements InterruptContract {

    @Override
    public CanonicalInvocationStore store() {
        return SharedRedisStores.withDefaultOptions(RedisServerFixture.standalone());
    }

    @Override
    public String storeName() {
        return "redis-standalone";
    }
}
