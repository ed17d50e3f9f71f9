package io.toolboundary.adapter.redis.bad;

import io.vavr.control.Option;
import org.redisson.api.RLock;

/** Breaks the signature rule: a Redisson type hidden in a type argument is still exposed. */
public final class RedisStoreLeakingRedissonThroughAGenericType {

    /** A lock, when one is held. */
    public Option<RLock> heldLock() {
        return Option.none();
    }
}
