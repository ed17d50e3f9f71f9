package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;

/** The store's semantics on one standalone Redis server. */
class StandaloneRedisStoreTest extends RedisStoreBehaviourTest {

    @Override
    RedisDeployment deployment() {
        return RedisServerFixture.standalone();
    }
}
