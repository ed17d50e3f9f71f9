package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;
import static org.awaitility.Awaitility.await;

import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * A record's (and a run's state's) time to live as Redis itself sees it, read and ended from the test's
 * own connection: what the store contract suite's {@code remainingTtl}, {@code expire} and
 * {@code expireRun} hooks need.
 */
final class RecordLife {

    private final RedisDeployment redis;
    private final RedisCanonicalInvocationStore store;

    RecordLife(RedisDeployment redis, RedisCanonicalInvocationStore store) {
        this.redis = requireNonNull(redis, "redis is null");
        this.store = requireNonNull(store, "store is null");
    }

    /** {@code PTTL}: none when the record is gone; {@link ChronoUnit#FOREVER} when it has no TTL (a bug). */
    Option<Duration> remainingTtl(InvocationKey key) {
        long millis = redis.callLong("PTTL", store.recordKey(key));
        if (millis == -2) {
            return Option.none();
        }
        return Option.of(millis == -1 ? ChronoUnit.FOREVER.getDuration() : Duration.ofMillis(millis));
    }

    /**
     * Lets the record's execution lease run out now: its end, the third value of the record's head by
     * the server's clock, becomes the epoch. The TTL is not touched.
     */
    void passLease(InvocationKey key) {
        String recordKey = store.recordKey(key);
        String[] head = ((String) redis.call("HGET", recordKey, RecordCodec.HEAD)).split("\\|", 6);
        head[2] = "0:000000000";
        redis.call("HSET", recordKey, RecordCodec.HEAD, String.join("|", head));
    }

    /** Ends the record's life the way its TTL would: {@code PEXPIRE key 1}, then waits until Redis reports it gone. */
    void expire(InvocationKey key) {
        endNow(store.recordKey(key));
    }

    /**
     * Ends the life of the run's state (its token and budget counters) the way its TTL would, leaving
     * the run's records as they are: {@code PEXPIRE <prefix>:{<runId>}:run 1}, then waits until Redis
     * reports it gone.
     */
    void expireRun(RunId runId) {
        endNow(store.runKey(runId));
    }

    private void endNow(String key) {
        redis.callLong("PEXPIRE", key, "1");
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(2))
                .until(() -> redis.callLong("PTTL", key) == -2L);
    }
}
