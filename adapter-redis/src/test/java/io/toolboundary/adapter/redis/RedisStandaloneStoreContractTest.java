package io.toolboundary.adapter.redis;

import io.toolboundary.testkit.redis.RedisServerFixture;

/** The whole store contract on one standalone Redis server. */
class RedisStandaloneStoreContractTest extends RedisStoreContractTest {

    RedisStandaloneStoreContractTest() {
        super(RedisServerFixture.standalone());
    }
}
