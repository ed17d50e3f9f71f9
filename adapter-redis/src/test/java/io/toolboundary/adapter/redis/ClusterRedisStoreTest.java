package io.toolboundary.adapter.redis;

import io.toolboundary.testkit.redis.RedisDeployment;
import io.toolboundary.testkit.redis.RedisServerFixture;

/** The store's semantics on a Redis Cluster of three masters. */
class ClusterRedisStoreTest extends RedisStoreBehaviourTest {

    @Override
    RedisDeployment deployment() {
        return RedisServerFixture.cluster();
    }
}
