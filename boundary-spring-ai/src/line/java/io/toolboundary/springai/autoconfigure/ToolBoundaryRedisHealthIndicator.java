package io.toolboundary.springai.autoconfigure;

import static java.util.Objects.requireNonNull;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisOperatorView;
import io.vavr.control.Either;
import java.util.List;
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

    private final RedisOperatorView view;
    private final ToolBoundaryProperties.Redis redis;

    ToolBoundaryRedisHealthIndicator(RedisCanonicalInvocationStore store, ToolBoundaryProperties.Redis redis) {
        super("Tool Boundary Redis store health check failed");
        this.view = RedisOperatorView.of(requireNonNull(store, "store is null"), store.options().responseTimeout());
        this.redis = requireNonNull(redis, "redis is null");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("keyPrefix", redis.getKeyPrefix());
        if (!view.mastersAnswer()) {
            builder.down().withDetail("ping", "a master did not answer");
            return;
        }
        builder.withDetail("ping", "ok");
        Either<?, List<String>> policies = view.evictionPolicies();
        if (policies.isLeft()) {
            builder.up().withDetail(RedisEvictionPolicies.POLICY, "unreadable").withDetail("warning",
                    "the masters' " + RedisEvictionPolicies.POLICY + " could not be read (is CONFIG GET allowed?)");
            return;
        }
        String policy = RedisEvictionPolicies.weakest(policies.get());
        builder.withDetail(RedisEvictionPolicies.POLICY, policy);
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
