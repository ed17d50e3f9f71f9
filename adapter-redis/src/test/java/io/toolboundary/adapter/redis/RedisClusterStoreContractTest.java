package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisServerFixture;

/** The whole store contract on a Redis Cluster of three masters. */
class RedisClusterStoreContractTest extends RedisStoreContractTest {

    RedisClusterStoreContractTest() {
        super(RedisServerFixture.cluster());
    }
}
