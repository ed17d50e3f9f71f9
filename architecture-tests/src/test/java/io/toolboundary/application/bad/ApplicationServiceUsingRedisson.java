package io.toolboundary.application.bad;

import org.redisson.api.RedissonClient;

/** Breaks the application and Redis rules: it uses Redisson, though only inside. */
public final class ApplicationServiceUsingRedisson {

    private final RedissonClient redisson;

    ApplicationServiceUsingRedisson(RedissonClient redisson) {
        this.redisson = redisson;
    }

    String id() {
        return redisson.getId();
    }
}
