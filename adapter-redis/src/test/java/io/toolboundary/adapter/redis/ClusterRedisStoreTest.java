package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;

/** The store's semantics on a Redis Cluster of three masters. */
class ClusterRedisStoreTest extends RedisStoreBehaviourTest {

    @Override
    RedisDeployment deployment() {
        return RedisServerFixture.cluster();
    }
}
