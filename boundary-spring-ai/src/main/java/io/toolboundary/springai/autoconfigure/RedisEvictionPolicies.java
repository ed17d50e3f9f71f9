package io.toolboundary.springai.autoconfigure;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import java.util.List;
import org.redisson.api.RedissonClient;

/**
 * The eviction policy of the Redis masters behind a {@code RedissonClient}, as the Redis store reads
 * it, so that the auto-configuration can refuse a server that may evict records in the words of its
 * properties, and the health indicator can report it.
 */
final class RedisEvictionPolicies {

    static final String NO_EVICTION = "noeviction";
    static final String POLICY = "maxmemory-policy";

    private RedisEvictionPolicies() {
    }

    /** The first policy other than {@code noeviction}, or {@code noeviction} when every master has it. */
    static String weakest(RedissonClient client) {
        return weakest(RedisCanonicalInvocationStoreFactory.evictionPolicies(client));
    }

    /** The first of {@code policies} other than {@code noeviction}, or {@code noeviction} when all are. */
    static String weakest(List<String> policies) {
        return policies.stream().filter(policy -> !NO_EVICTION.equals(policy)).findFirst().orElse(NO_EVICTION);
    }
}
