package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisServerFixture;

/** The requirement text through the boundary on a Redis Cluster of three masters. */
class RedisClusterToolBoundarySpecTest extends RedisToolBoundarySpecTest {

    RedisClusterToolBoundarySpecTest() {
        super(RedisServerFixture.cluster());
    }
}
