package io.toolboundary.springai.autoconfigure;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.ToolBoundaryConfig;
import java.time.Clock;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The store choices of {@link ToolBoundaryAutoConfiguration}, imported in this order: Redis when it applies,
 * else in-memory. They are not nested in the auto-configuration, because Spring processes a configuration's
 * nested classes before its imports and in no promised order.
 */
final class StoreConfigurations {

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
    @ConditionalOnBean(type = "org.redisson.api.RedissonClient")
    static class Redis {

        @Bean
        @ConditionalOnMissingBean(CanonicalInvocationStore.class)
        CanonicalInvocationStore redisToolBoundaryStore(RedissonClient client, ToolBoundaryConfig config,
                ToolBoundaryProperties properties) {
            ToolBoundaryProperties.Redis redis = properties.getRedis();
            RedisStoreOptions options = RedisStoreOptions.custom()
                    .keyPrefix(redis.getKeyPrefix())
                    .evictionPolicyCheck(RedisStoreOptions.EvictionPolicyCheck.valueOf(redis.getEvictionPolicyCheck().name()))
                    .build();
            return RedisCanonicalInvocationStoreFactory.create(client, options);
        }
    }

    /** The in-memory store, when no other store is defined. */
    @Configuration(proxyBeanMethods = false)
    static class InMemory {

        @Bean
        @ConditionalOnMissingBean(CanonicalInvocationStore.class)
        CanonicalInvocationStore inMemoryToolBoundaryStore(ToolBoundaryConfig config, ObjectProvider<Clock> clock) {
            return InMemoryCanonicalInvocationStore.create(clock.getIfUnique(Clock::systemUTC),
                    config.limits().recordBytes());
        }
    }
}
