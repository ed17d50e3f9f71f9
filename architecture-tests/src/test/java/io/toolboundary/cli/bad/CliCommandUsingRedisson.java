package io.toolboundary.cli.bad;

import org.redisson.api.RedissonClient;

/** Breaks the Redis client rule: a command of the CLI reaching Redis with a client of its own. */
public final class CliCommandUsingRedisson {

    private CliCommandUsingRedisson() {
    }

    static boolean isClient(Object candidate) {
        return candidate instanceof RedissonClient;
    }
}
