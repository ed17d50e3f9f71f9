package io.toolboundary.adapter.redis;

import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisEndpoint;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;

/** One Redisson client per deployment and JVM, shared by the test classes, shut down at JVM exit. */
final class RedisTestServers {

    /** The key prefix of every store in these tests, so that SCAN can list exactly their keys. */
    static final String PREFIX = "tbtest";

    private static RedissonClient standaloneClient;
    private static RedissonClient clusterClient;

    private RedisTestServers() {
    }

    static synchronized RedissonClient standaloneClient() {
        if (standaloneClient == null) {
            standaloneClient = start(config(RedisServerFixture.standalone()));
        }
        return standaloneClient;
    }

    static synchronized RedissonClient clusterClient() {
        if (clusterClient == null) {
            clusterClient = start(config(RedisServerFixture.cluster()));
        }
        return clusterClient;
    }

    static RedissonClient client(RedisDeployment deployment) {
        return deployment.isCluster() ? clusterClient() : standaloneClient();
    }

    /** A Redisson config for a deployment, without keep-alive PINGs so that command counts stay exact. */
    static Config config(RedisDeployment deployment) {
        Config config = new Config();
        if (deployment.isCluster()) {
            ClusterServersConfig cluster = config.useClusterServers().setPingConnectionInterval(0);
            for (RedisEndpoint node : deployment.nodes()) {
                cluster.addNodeAddress(node.uri());
            }
        } else {
            config.useSingleServer().setAddress(deployment.nodes().get(0).uri()).setPingConnectionInterval(0);
        }
        return config;
    }

    private static RedissonClient start(Config config) {
        RedissonClient client = Redisson.create(config);
        Runtime.getRuntime().addShutdownHook(new Thread(client::shutdown, "redisson-test-client-stop"));
        return client;
    }
}
