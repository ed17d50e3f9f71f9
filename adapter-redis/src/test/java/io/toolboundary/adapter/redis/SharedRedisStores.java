package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisDeployment;

/**
 * One Redis store per deployment and JVM with the default options (only the key prefix is the tests'),
 * shared by the boundary suites: JUnit makes a test instance per test, the store is made once.
 */
final class SharedRedisStores {

    private static RedisCanonicalInvocationStore standalone;
    private static RedisCanonicalInvocationStore cluster;

    private SharedRedisStores() {
    }

    /** The shared store on {@code deployment}, created on first call; its client is {@link RedisTestServers}'. */
    static synchronized RedisCanonicalInvocationStore withDefaultOptions(RedisDeployment deployment) {
        if (deployment.isCluster()) {
            if (cluster == null) {
                cluster = create(deployment);
            }
            return cluster;
        }
        if (standalone == null) {
            standalone = create(deployment);
        }
        return standalone;
    }

    private static RedisCanonicalInvocationStore create(RedisDeployment deployment) {
        return RedisCanonicalInvocationStoreFactory.create(RedisTestServers.client(deployment),
                RedisStoreOptions.custom().keyPrefix(RedisTestServers.PREFIX).build());
    }
}
