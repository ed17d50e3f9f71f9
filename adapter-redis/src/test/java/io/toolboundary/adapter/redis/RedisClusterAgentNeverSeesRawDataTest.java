package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisServerFixture;

/** What the agent sees on every path, through the boundary on a Redis Cluster of three masters. */
class RedisClusterAgentNeverSeesRawDataTest extends RedisAgentNeverSeesRawDataTest {

    RedisClusterAgentNeverSeesRawDataTest() {
        super(RedisServerFixture.cluster());
    }
}
