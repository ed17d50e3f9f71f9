package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisServerFixture;

/** The requirement text through the boundary on one standalone Redis server. */
class RedisStandaloneToolBoundarySpecTest extends RedisToolBoundarySpecTest {

    RedisStandaloneToolBoundarySpecTest() {
        super(RedisServerFixture.standalone());
    }
}
