package io.toolboundary.springai.autoconfigure;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.adapter.inmemory.InMemoryStoreBuilder;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import java.time.Clock;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The store choices, imported in this order (not nested: Spring processes nested classes before imports, in
 * no promised order). {@code toolboundary.store}: {@code auto} takes Redis when there is a
 * {@code RedissonClient} bean and {@code adapter-redis}, else in-memory; {@code redis} fails the start when
 * it cannot; {@code memory}. The choice and key prefix are logged once at INFO. With
 * {@code toolboundary.export.enabled=true} the store is built with its outbox on
 * ({@code toolboundary.export.outbox}: {@code keys} or {@code records}), which {@link ExportConfigurations}
 * reads.
 */
final class StoreConfigurations {

    private static final Log LOG = LogFactory.getLog(ToolBoundaryAutoConfiguration.class);

    private StoreConfigurations() {
    }

    /**
     * The Redis store on the context's {@code RedissonClient}, which stays the caller's: closing the store
     * does not shut it down. Its record limit is {@code toolboundary.limits.record}; it refuses to start on a
     * server that may evict records unless {@code toolboundary.redis.eviction-policy-check=warn}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.redisson.api.RedissonClient",
            "io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory"})
    @Conditional(RedisChosen.class)
    static class Redis {

        @Bean
        @ConditionalOnMissingBean(CanonicalInvocationStore.class)
        RedisCanonicalInvocationStore redisToolBoundaryStore(ObjectProvider<RedissonClient> clients, ToolBoundaryConfig config,
                ToolBoundaryProperties properties) {
            RedissonClient client = clients.getIfUnique(() -> {
                throw new ToolBoundaryStartupException(
                        "toolboundary.store=redis, but the context has no single RedissonClient bean.",
                        "Add a RedissonClient bean (for example with redisson-spring-boot-starter and"
                                + " spring.data.redis.host/port), or set toolboundary.store=auto or memory.");
            });
            ToolBoundaryProperties.Redis redis = properties.getRedis();
            ToolBoundaryProperties.Export export = properties.getExport();
            RedisStoreOptions.Outbox outbox = !export.isEnabled() ? RedisStoreOptions.Outbox.NONE
                    : export.carriesRecords() ? RedisStoreOptions.Outbox.RECORDS : RedisStoreOptions.Outbox.KEYS;
            if (outbox != RedisStoreOptions.Outbox.NONE && client.getConfig().isClusterConfig()) {
                throw new ToolBoundaryStartupException("toolboundary.export.enabled=true, but the RedissonClient is"
                        + " a Redis Cluster client, and Redis Cluster refuses export: a record's script runs in its"
                        + " run's slot and cannot append to one outbox stream that lives in another.",
                        "Export from a standalone Redis server or one behind Sentinel, or set"
                                + " toolboundary.export.enabled=false.");
            }
            checkEvictionPolicy(client, redis.getEvictionPolicyCheck());
            RedisStoreOptions options = RedisStoreOptions.custom()
                    .keyPrefix(redis.getKeyPrefix())
                    .evictionPolicyCheck(RedisStoreOptions.EvictionPolicyCheck.valueOf(redis.getEvictionPolicyCheck().name()))
                    .outbox(outbox)
                    .build();
            RedisCanonicalInvocationStore store = RedisCanonicalInvocationStoreFactory.create(client, options);
            LOG.info("Tool Boundary store: Redis (toolboundary.store=" + name(properties) + "), key prefix '"
                    + redis.getKeyPrefix() + "', eviction-policy-check " + name(redis.getEvictionPolicyCheck())
                    + (outbox == RedisStoreOptions.Outbox.NONE ? "" : ", export outbox " + name(outbox)));
            return store;
        }

        private static void checkEvictionPolicy(RedissonClient client, ToolBoundaryProperties.EvictionPolicyCheck check) {
            String policy;
            try {
                policy = RedisEvictionPolicies.weakest(client);
            } catch (RuntimeException cannotRead) {
                LOG.warn("Tool Boundary Redis store: could not read " + RedisEvictionPolicies.POLICY + " ("
                        + cannotRead.getClass().getSimpleName() + "; is CONFIG GET allowed?). Make sure it is "
                        + RedisEvictionPolicies.NO_EVICTION + ".");
                return;
            }
            if (RedisEvictionPolicies.NO_EVICTION.equals(policy)) {
                return;
            }
            String description = "Redis " + RedisEvictionPolicies.POLICY + " is '" + policy + "', not '"
                    + RedisEvictionPolicies.NO_EVICTION + "': Redis may delete live canonical records (each has a"
                    + " TTL, so volatile-* policies apply too).";
            if (check == ToolBoundaryProperties.EvictionPolicyCheck.REFUSE) {
                throw new ToolBoundaryStartupException(description + " toolboundary.redis.eviction-policy-check is"
                        + " refuse.", "Set maxmemory-policy noeviction on the Redis server (CONFIG SET maxmemory-policy"
                        + " noeviction, and in redis.conf), or set toolboundary.redis.eviction-policy-check=warn to"
                        + " start anyway.");
            }
            LOG.warn("Tool Boundary Redis store: " + description + " Starting because"
                    + " toolboundary.redis.eviction-policy-check=warn.");
        }
    }

    /** The in-memory store, when no other store is defined and {@code toolboundary.store} is not {@code redis}. */
    @Configuration(proxyBeanMethods = false)
    static class InMemory {

        @Bean
        @ConditionalOnMissingBean(CanonicalInvocationStore.class)
        CanonicalInvocationStore inMemoryToolBoundaryStore(ToolBoundaryConfig config, ToolBoundaryProperties properties,
                ObjectProvider<Clock> clock) {
            if (properties.getStore() == ToolBoundaryProperties.Store.REDIS) {
                throw new ToolBoundaryStartupException(
                        "toolboundary.store=redis, but Redisson or io.toolboundary:adapter-redis is not on the class path.",
                        "Add io.toolboundary:adapter-redis and a RedissonClient bean (for example with"
                                + " redisson-spring-boot-starter), or set toolboundary.store=auto or memory.");
            }
            ToolBoundaryProperties.Export export = properties.getExport();
            InMemoryStoreBuilder store = InMemoryCanonicalInvocationStore.custom()
                    .clock(clock.getIfUnique(Clock::systemUTC))
                    .recordCapBytes(config.recordLimitBytes());
            if (export.isEnabled()) {
                store.outbox(export.getOutboxCapacity()).outboxCarriesRecords(export.carriesRecords());
            }
            LOG.info("Tool Boundary store: in memory (toolboundary.store=" + name(properties)
                    + "); records live in this process only"
                    + (export.isEnabled() ? "; export outbox of " + export.getOutboxCapacity() + " entries"
                            + (export.carriesRecords() ? " carrying records" : "") : ""));
            return store.build();
        }
    }

    /**
     * The Actuator health indicator of the Redis store ({@code toolBoundaryRedis}), when Actuator is on the
     * class path and the store is the Redis store on the context's {@code RedissonClient}.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {ToolBoundaryRedisHealthIndicator.HEALTH_INDICATOR,
            "org.redisson.api.RedissonClient", "io.toolboundary.adapter.redis.RedisCanonicalInvocationStore"})
    @ConditionalOnBean(type = {"io.toolboundary.adapter.redis.RedisCanonicalInvocationStore",
            "org.redisson.api.RedissonClient"})
    static class RedisHealth {

        @Bean
        @ConditionalOnMissingBean(name = "toolBoundaryRedisHealthIndicator")
        ToolBoundaryRedisHealthIndicator toolBoundaryRedisHealthIndicator(RedisCanonicalInvocationStore store,
                ToolBoundaryProperties properties) {
            return new ToolBoundaryRedisHealthIndicator(store, properties.getRedis());
        }
    }

    /** {@code toolboundary.store=redis}, or {@code auto} (the default) with a {@code RedissonClient} bean. */
    static final class RedisChosen extends AnyNestedCondition {

        RedisChosen() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(prefix = "toolboundary", name = "store", havingValue = "redis")
        static class Explicit {
        }

        @ConditionalOnProperty(prefix = "toolboundary", name = "store", havingValue = "auto", matchIfMissing = true)
        @ConditionalOnBean(type = "org.redisson.api.RedissonClient")
        static class AutoWithClient {
        }
    }

    private static String name(ToolBoundaryProperties properties) {
        return name(properties.getStore());
    }

    private static String name(Enum<?> value) {
        return value.name().toLowerCase(java.util.Locale.ROOT);
    }
}
