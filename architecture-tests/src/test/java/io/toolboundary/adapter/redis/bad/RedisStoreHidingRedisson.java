package io.toolboundary.adapter.redis.bad;

import org.redisson.api.RedissonClient;

/** Follows the signature rule: Redisson only in private and package-private members. */
public final class RedisStoreHidingRedisson {

    private final RedissonClient redisson;

    RedisStoreHidingRedisson(RedissonClient redisson) {
        this.redisson = redisson;
    }

    /** The id of the client, as plain text. */
    public String clientId() {
        return idOf(redisson);
    }

    private static String idOf(RedissonClient client) {
        return client.getId();
    }
}
