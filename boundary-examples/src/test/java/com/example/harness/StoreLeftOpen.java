package com.example.harness;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;

/** What {@link RedisHarness} would be without its try-with-resources: the Redis client keeps the JVM alive. */
final class StoreLeftOpen {

    private StoreLeftOpen() {
    }

    public static void main(String[] args) {
        RedisCanonicalInvocationStoreFactory.connectStandalone(args[0], RedisStoreOptions.ofDefaults());
        System.out.println("connected");
    }
}
