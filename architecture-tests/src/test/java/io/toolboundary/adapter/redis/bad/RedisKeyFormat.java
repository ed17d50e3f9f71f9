package io.toolboundary.adapter.redis.bad;

/** A Redis-side helper with no Redisson in it; the in-memory adapter must still not use it. */
public final class RedisKeyFormat {

    private RedisKeyFormat() {
    }

    /** The key of one record. */
    public static String recordKey(String runId, String toolCallId) {
        return "tb:{" + runId + "}:call:" + toolCallId;
    }
}
