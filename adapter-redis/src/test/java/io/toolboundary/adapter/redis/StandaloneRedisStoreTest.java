package io.toolboundary.adapter.redis;

import io.toolboundary.testkit.redis.RedisDeployment;
import io.toolboundary.testkit.redis.RedisServerFixture;

/** The store's semantics on one standalone Redis server. */
class StandaloneRedisStoreTest extends RedisStoreBehaviourTest {

    @Override
    RedisDeployment deployment() {
        return RedisServerFixture.standalone();
    }
}
