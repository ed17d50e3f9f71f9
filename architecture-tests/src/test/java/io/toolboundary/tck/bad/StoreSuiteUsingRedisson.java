package io.toolboundary.tck.bad;

import org.redisson.api.RedissonClient;

/** Breaks the store TCK rule: a suite that reaches Redis with a client of its own. */
public final class StoreSuiteUsingRedisson {

    private StoreSuiteUsingRedisson() {
    }

    static boolean isClient(Object candidate) {
        return candidate instanceof RedissonClient;
    }
}
