package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.tck.reliability.HostileInputContract;
import io.toolboundary.testsupport.redis.RedisServerFixture;

/** Hostile input through the boundary on the Redis store, on one standalone server; one store for the class. */
class RedisHostileInputTest implements HostileInputContract {

    private static RedisCanonicalInvocationStore store;

    @Override
    public CanonicalInvocationStore store() {
        synchronized (RedisHostileInputTest.class) {
            if (store == null) {
                store = RedisCanonicalInvocationStoreFactory.create(
                        RedisTestServers.client(RedisServerFixture.standalone()),
                        RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).build());
            }
            return store;
        }
    }

    @Override
    public String storeName() {
        return "redis-standalone";
    }
}
