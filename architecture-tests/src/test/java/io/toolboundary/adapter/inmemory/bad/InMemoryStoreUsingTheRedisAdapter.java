package io.toolboundary.adapter.inmemory.bad;

import io.toolboundary.adapter.redis.bad.RedisKeyFormat;

/** Breaks "adapters never depend on each other": the in-memory side borrows from the Redis side. */
public final class InMemoryStoreUsingTheRedisAdapter {

    private InMemoryStoreUsingTheRedisAdapter() {
    }

    static String key(String runId, String toolCallId) {
        return RedisKeyFormat.recordKey(runId, toolCallId);
    }
}
