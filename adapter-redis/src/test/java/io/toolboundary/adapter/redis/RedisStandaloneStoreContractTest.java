package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisServerFixture;

/** The whole store contract on one standalone Redis server. */
class RedisStandaloneStoreContractTest extends RedisStoreContractTest {

    RedisStandaloneStoreContractTest() {
        super(RedisServerFixture.standalone());
    }
}
