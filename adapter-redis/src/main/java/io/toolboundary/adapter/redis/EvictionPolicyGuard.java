package io.toolboundary.adapter.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

/**
 * Reads {@code maxmemory-policy} on every master at start. Under any policy but {@code noeviction}
 * Redis may delete live records, so the store refuses to start (or warns, when the options say so).
 */
final class EvictionPolicyGuard {

    static final String NO_EVICTION = "noeviction";
    static final String POLICY = "maxmemory-policy";
    private static final System.Logger LOG = System.getLogger(RedisCanonicalInvocationStore.class.getName());

    private EvictionPolicyGuard() {
    }

    /**
     * Checks the servers behind the client.
     *
     * @throws IllegalStateException naming the policy, when a master may evict and the options say REFUSE
     */
    static void check(RedissonClient client, RedisStoreOptions options) {
        List<String> policies;
        try {
            policies = policies(client);
        } catch (RuntimeException cannotRead) {
            LOG.log(System.Logger.Level.WARNING, "Tool Boundary Redis store: could not read " + POLICY
                    + " (" + cannotRead.getClass().getSimpleName() + "; is CONFIG GET allowed?). Make sure it is "
                    + NO_EVICTION + ": under any other policy Redis may delete live canonical records.");
            return;
        }
        for (String policy : policies) {
            if (!NO_EVICTION.equals(policy)) {
                String message = "Redis " + POLICY + " is '" + policy + "', not '" + NO_EVICTION
                        + "': Redis may delete live canonical records (each has a TTL, so volatile-* policies apply too)."
                        + " Set " + POLICY + " " + NO_EVICTION + ", or choose EvictionPolicyCheck.WARN.";
                if (options.evictionPolicyCheck() == RedisStoreOptions.EvictionPolicyCheck.REFUSE) {
                    throw new IllegalStateException(message);
                }
                LOG.log(System.Logger.Level.WARNING, "Tool Boundary Redis store: " + message);
                return;
            }
        }
    }

    static List<String> policies(RedissonClient client) {
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

    static List<? extends RedisNode> masters(RedissonClient client) {
        Config config = client.getConfig();
        if (config.isClusterConfig()) {
            return List.copyOf(client.getRedisNodes(RedisNodes.CLUSTER).getMasters());
        }
        if (config.isSingleConfig()) {
            return List.of(client.getRedisNodes(RedisNodes.SINGLE).getInstance());
        }
        if (config.isSentinelConfig()) {
            return List.of(client.getRedisNodes(RedisNodes.SENTINEL_MASTER_SLAVE).getMaster());
        }
        return List.of(client.getRedisNodes(RedisNodes.MASTER_SLAVE).getMaster());
    }
}
