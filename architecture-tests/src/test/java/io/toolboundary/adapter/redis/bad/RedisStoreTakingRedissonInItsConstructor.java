package io.toolboundary.adapter.redis.bad;

import org.redisson.api.RedissonClient;

/** Breaks the signature rule: a public constructor that is not on the factory takes a Redisson client. */
public final class RedisStoreTakingRedissonInItsConstructor {

    private final RedissonClient redisson;

    /** Wraps the client. */
    public RedisStoreTakingRedissonInItsConstructor(RedissonClient redisson) {
        this.redisson = redisson;
    }

    String id() {
        return redisson.getId();
    }
}
