package io.toolboundary.adapter.redis.bad;

import org.redisson.api.RedissonClient;

/** Follows the signature rule: the factory of the Redis adapter may take a Redisson client. */
public final class RedisStoreFactory {

    private RedisStoreFactory() {
    }

    /** Builds a store on the given client. */
    public static RedisStoreHidingRedisson create(RedissonClient redisson) {
        return new RedisStoreHidingRedisson(redisson);
    }
}
