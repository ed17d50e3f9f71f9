package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisServerFixture;

/** What the agent sees on every path, through the boundary on one standalone Redis server. */
class RedisStandaloneAgentNeverSeesRawDataTest extends RedisAgentNeverSeesRawDataTest {

    RedisStandaloneAgentNeverSeesRawDataTest() {
        super(RedisServerFixture.standalone());
    }
}
