package com.example.redis;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import java.util.List;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;

/** Each way to connect the Redis store. Each store owns the client it builds: close the store when done. */
public final class RedisConnections {

    /** Prefix "toolboundary"; a server whose maxmemory-policy may evict records is refused. */
    static final RedisStoreOptions OPTIONS = RedisStoreOptions.ofDefaults();

    private RedisConnections() {
    }

    /** A standalone server. */
    public static RedisCanonicalInvocationStore standalone() {
        return RedisCanonicalInvocationStoreFactory.connectStandalone("redis://10.0.0.5:6379", OPTIONS);
    }

    /** A Redis Cluster: one reachable seed is enough; the client learns every master from it. */
    public static RedisCanonicalInvocationStore cluster() {
        return RedisCanonicalInvocationStoreFactory.connectCluster(
                List.of("redis://10.0.1.1:7000", "redis://10.0.1.2:7000"), OPTIONS);
    }

    /** A master found through Redis Sentinel. */
    public static RedisCanonicalInvocationStore sentinel() {
        return RedisCanonicalInvocationStoreFactory.connectSentinel(
                "mymaster", List.of("redis://10.0.2.1:26379", "redis://10.0.2.2:26379"), OPTIONS);
    }

    /** Redisson settings of your own: a cluster whose state reads go to masters, with a password. */
    public static RedisCanonicalInvocationStore clusterFromConfig() {
        Config config = new Config();
        config.useClusterServers()
                .addNodeAddress("redis://10.0.1.1:7000", "redis://10.0.1.2:7000")
                .setReadMode(ReadMode.MASTER);
        config.setPassword(System.getenv("REDIS_PASSWORD"));
        return RedisCanonicalInvocationStoreFactory.create(config, OPTIONS);
    }

    /** The same through Sentinel, whose sentinels need credentials of their own. */
    public static RedisCanonicalInvocationStore sentinelFromConfig() {
        Config config = new Config();
        config.useSentinelServers()
                .setMasterName("mymaster")
                .addSentinelAddress("redis://10.0.2.1:26379", "redis://10.0.2.2:26379")
                .setReadMode(ReadMode.MASTER)
                .setSentinelPassword(System.getenv("SENTINEL_PASSWORD"));
        config.setPassword(System.getenv("REDIS_PASSWORD"));
        return RedisCanonicalInvocationStoreFactory.create(config, OPTIONS);
    }
}
