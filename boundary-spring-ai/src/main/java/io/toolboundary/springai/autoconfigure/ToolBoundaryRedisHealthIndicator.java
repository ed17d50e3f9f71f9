package io.toolboundary.springai.autoconfigure;

import static java.util.Objects.requireNonNull;

import org.redisson.api.RedissonClient;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Actuator health of the Redis store: every master answers PING, and none may evict records
 * ({@code maxmemory-policy} is {@code noeviction}). A master that may evict makes the store DOWN under
 * {@code toolboundary.redis.eviction-policy-check=refuse}, and is reported as a detail under {@code warn}.
 * Details never hold an address, a password or a key.
 */
final class ToolBoundaryRedisHealthIndicator extends AbstractHealthIndicator {

    /** Spring Boot 3's health indicator type, whose presence on the class path enables this indicator. */
    static final String HEALTH_INDICATOR = "org.springframework.boot.actuate.health.HealthIndicator";

    private final RedissonClient client;
    private final ToolBoundaryProperties.Redis redis;

    ToolBoundaryRedisHealthIndicator(RedissonClient client, ToolBoundaryProperties.Redis redis) {
        super("Tool Boundary Redis store health check failed");
        this.client = requireNonNull(client, "client is null");
        this.redis = requireNonNull(redis, "redis is null");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("keyPrefix", redis.getKeyPrefix());
        if (!RedisEvictionPolicies.pingAll(client)) {
            builder.down().withDetail("ping", "a master did not answer");
            return;
        }
        String policy = RedisEvictionPolicies.weakest(client);
        builder.withDetail("ping", "ok").withDetail(RedisEvictionPolicies.POLICY, policy);
        if (RedisEvictionPolicies.NO_EVICTION.equals(policy)) {
            builder.up();
        } else if (redis.getEvictionPolicyCheck() == ToolBoundaryProperties.EvictionPolicyCheck.WARN) {
            builder.up().withDetail("warning", "Redis may evict live canonical records"
                    + " (toolboundary.redis.eviction-policy-check=warn)");
        } else {
            builder.down().withDetail("reason", "Redis may evict live canonical records"
                    + " (toolboundary.redis.eviction-policy-check=refuse)");
        }
    }
}
