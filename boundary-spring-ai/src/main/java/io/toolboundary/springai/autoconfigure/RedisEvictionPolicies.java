package io.toolboundary.springai.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

/**
 * Reads {@code maxmemory-policy} from every Redis master behind a {@code RedissonClient}, so that the
 * auto-configuration can refuse a server that may evict records in the words of its properties, and the
 * health indicator can report it.
 */
final class RedisEvictionPolicies {

    static final String NO_EVICTION = "noeviction";
    static final String POLICY = "maxmemory-policy";

    private RedisEvictionPolicies() {
    }

    /** The first policy other than {@code noeviction}, or {@code noeviction} when every master has it. */
    static String weakest(RedissonClient client) {
        for (String policy : policies(client)) {
            if (!NO_EVICTION.equals(policy)) {
                return policy;
            }
        }
        return NO_EVICTION;
    }

    /** A master's ping, for every master. */
    static boolean pingAll(RedissonClient client) {
        return masters(client).stream().allMatch(RedisNode::ping);
    }

    private static List<String> policies(RedissonClient client) {
        List<String> policies = new ArrayList<>();
        for (RedisNode master : masters(client)) {
            Map<String, String> config = master.getConfig(POLICY);
            String policy = config.get(POLICY);
            if (policy == null) {
                throw new IllegalStateException("no " + POLICY + " in the reply");
            }
            policies.add(policy);
        }
        return policies;
    }

    private static List<? extends RedisNode> masters(RedissonClient client) {
        Config config = client.getConfig();
        if (config.isClusterConfig()) {
            return List.copyOf(client.getRedisNodes(RedisNodes.CLUSTER).getMasters());
        }
        if (config.isSentinelConfig()) {
            return List.of(client.getRedisNodes(RedisNodes.SENTINEL_MASTER_SLAVE).getMaster());
        }
        if (config.isSingleConfig()) {
            return List.of(client.getRedisNodes(RedisNodes.SINGLE).getInstance());
        }
        return List.of(client.getRedisNodes(RedisNodes.MASTER_SLAVE).getMaster());
    }
}
