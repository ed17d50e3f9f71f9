package io.toolboundary.application.bad;

import org.redisson.api.RedissonClient;

/** Breaks "no public signature exposes a Redis type": a port that hands out the Redisson client. */
public interface ApplicationPortExposingRedisson {

    /** The client behind the port. */
    RedissonClient client();
}
