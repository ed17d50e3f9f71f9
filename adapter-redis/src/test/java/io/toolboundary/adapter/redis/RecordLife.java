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
     * Lets the record's execution lease run out now: the remaining TTL at which it ends, the fourth value
     * of the record's head, becomes larger than any TTL. The TTL is not touched.
     */
    void passLease(InvocationKey key) {
        String recordKey = store.recordKey(key);
        String value = (String) redis.call("GET", recordKey);
        String[] head = value.substring(0, value.indexOf('\n')).split("\\|", -1);
        head[3] = "999999999999999";
        redis.call("SET", recordKey, String.join("|", head) + value.substring(value.indexOf('\n')), "XX", "KEEPTTL");
    }

    /**
     * Ends the record's life the way its TTL would: {@code PEXPIRE key 1} on the record and on the pending key
     * of each attempt still running it (whose TTL, set a moment before the record's, ends with it), then waits
     * until Redis reports them gone.
     */
    void expire(InvocationKey key) {
        // Run on the node that holds the record (MOVED is followed), which holds its pending keys too.
        redis.call("EVAL", "for _, pending in ipairs(redis.call('SCAN', '0', 'MATCH', ARGV[1], 'COUNT', 100000)[2]) do"
                + " redis.call('PEXPIRE', pending, 1) end", "1", store.recordKey(key),
                store.keys().run(key.runId()) + ":pending:*:" + key.toolCallId().value());
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
