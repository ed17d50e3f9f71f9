package io.toolboundary.springai.autoconfigure;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Actuator health of the Redis store, as {@link RedisStoreHealth} finds it, on Spring Boot 4 ({@code spring-boot-health}).
 */
final class ToolBoundaryRedisHealthIndicator extends AbstractHealthIndicator {

    /** Spring Boot 4's health indicator type, whose presence on the class path enables this indicator. */
    static final String HEALTH_INDICATOR = "org.springframework.boot.health.contributor.HealthIndicator";

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
