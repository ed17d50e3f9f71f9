package io.toolboundary.benchmarks;

import io.toolboundary.testsupport.redis.RedisDeployment;

/** Checks, against the real server, that the peer does what it claims before it is measured. */
final class PeerCheck {

    private PeerCheck() {
    }

    /**
     * One call, then: the key holds the finished value, has a TTL, and a second claim of the same
     * tool_call_id is refused.
     *
     * @throws IllegalStateException when the peer misbehaves
     */
    static void verify(BenchRedis redis, HandRolledToolCalls peer, String arguments) throws Exception {
        RedisDeployment server = redis.deployment();
        String runId = "peer-check";
        if (peer.call(runId, "check", arguments) == null) {
            throw new IllegalStateException("peer check: a fresh claim was refused");
        }
        String key = peer.key(runId, "check");
        Object value = server.call("GET", key);
        if (!(value instanceof String text) || !text.startsWith("DONE\n")) {
            throw new IllegalStateException("peer check: the call did not finish its key");
        }
        long ttl = server.callLong("PTTL", key);
        if (ttl <= 0) {
            throw new IllegalStateException("peer check: the finished key lost its TTL (" + ttl + ")");
        }
        if (peer.call(runId, "check", arguments) != null) {
            throw new IllegalStateException("peer check: a duplicate tool_call_id ran again");
        }
        server.call("DEL", key);
    }
}
