package io.toolboundary.testkit.bad;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;

/** Breaks the testkit and Redis rules: a fixture that opens its own Redisson client. */
public final class TestkitFixtureUsingRedisson {

    private TestkitFixtureUsingRedisson() {
    }

    static RedissonClient client() {
        return Redisson.create();
    }
}
