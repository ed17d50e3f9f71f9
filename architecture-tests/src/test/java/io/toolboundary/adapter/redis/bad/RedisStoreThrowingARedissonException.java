package io.toolboundary.adapter.redis.bad;

import org.redisson.client.RedisException;

/** Breaks the signature rule: a Redisson exception declared in a throws clause is exposed. */
public final class RedisStoreThrowingARedissonException {

    /** Checks the server. */
    public void ping() throws RedisException {
        // nothing to check in this sample
    }
}
