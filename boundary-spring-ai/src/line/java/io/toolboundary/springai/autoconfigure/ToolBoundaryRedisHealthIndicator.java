package io.toolboundary.springai.autoconfigure;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Actuator health of the Redis store, as {@link RedisStoreHealth} finds it, on Spring Boot 3.
 */
final class ToolBoundaryRedisHealthIndicator extends AbstractHealthIndicator {

    /** Spring Boot 3's health indicator type, whose presence on the class path enables this indicator. */
    static final String HEALTH_INDICATOR = "org.springframework.boot.actuate.health.HealthIndicator";

    private final RedisStoreHealth health;

    ToolBoundaryRedisHealthIndicator(RedisCanonicalInvocationStore store, ToolBoundaryProperties.Redis redis) {
        super("Tool Boundary Redis store health check failed");
        this.health = new RedisStoreHealth(store, redis);
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        RedisStoreHealth.Report report = health.check();
        (report.up() ? builder.up() : builder.down()).withDetails(report.details());
    }
}
