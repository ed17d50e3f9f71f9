package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.BoundaryError;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.redisson.api.options.KeysScanOptions;
import org.redisson.api.redisnode.RedisNode;

/**
 * What an operator may look at in the Redis behind a {@link RedisCanonicalInvocationStore}, beyond the
 * store port: the keys under the store's prefix (by SCAN, never {@code KEYS}), the facts of one key
 * (type, TTL, memory, the record's small fields and the sizes of its large ones), and the masters'
 * health: whether they answer, and their eviction policy. Reads only: nothing here writes a key or touches a TTL. For tools such as the
 * {@code toolboundary} command line; the boundary itself never needs it. Names no Redis client type.
 */
public final class RedisOperatorView {

    /** The {@code COUNT} hint of each SCAN step. */
    private static final int SCAN_COUNT = 1000;

    private final RedisCanonicalInvocationStore store;
    private final Duration timeout;

    private RedisOperatorView(RedisCanonicalInvocationStore store, Duration timeout) {
        this.store = store;
        this.timeout = timeout;
    }

    /**
     * A view of the Redis behind {@code store}, each of whose reads waits at most {@code timeout}.
     *
     * @param store the store, whose client and key prefix the view uses
     * @param timeout the longest each read may take
     * @return the view
     */
    public static RedisOperatorView of(RedisCanonicalInvocationStore store, Duration timeout) {
        requireNonNull(store, "store is null");
        requireNonNull(timeout, "timeout is null");
        return new RedisOperatorView(store, timeout);
    }

    /**
     * The store's key prefix.
     *
     * @return the prefix every key of the store starts with (before {@code ":"})
     */
    public String keyPrefix() {
        return store.options().keyPrefix();
    }

    /**
     * The key of a record, {@code <prefix>:{<runId>}:call:<toolCallId>}.
     *
     * @param runId the run
     * @param toolCallId the tool_call_id
     * @return the record's key
     */
    public String recordKey(io.toolboundary.domain.RunId runId, io.toolboundary.domain.ToolCallId toolCallId) {
        return store.recordKey(io.toolboundary.domain.InvocationKey.of(runId, toolCallId));
    }

    /**
     * One page of keys under the store's prefix.
     *
     * @param keys the keys, each once within the page (a key may appear again on a later page)
     * @param nextCursor the cursor of the next page, {@code "0"} when the walk is over
     */
    public record KeyPage(List<String> keys, String nextCursor) {

        /**
         * Copies the keys.
         *
         * @param keys the keys
         * @param nextCursor the next cursor
         */
        public KeyPage {
            keys = List.copyOf(keys);
            requireNonNull(nextCursor, "nextCursor is null");
        }
    }

    /**
     * Walks the keys under {@code <prefix>:} with SCAN (MATCH, COUNT), never {@code KEYS}. On a
     * standalone server or behind Sentinel, one page is SCAN steps from {@code cursor} until at least
     * {@code limit} keys are seen or the walk ends, and the next cursor continues it. On Redis Cluster the
     * client scans every master in turn and cannot resume: the page holds at most {@code limit} keys
     * and its next cursor is always {@code "0"}.
     *
     * @param cursor {@code "0"} to start, or a page's {@code nextCursor}
     * @param limit the most keys to return, at least 1
     * @return the page, or {@code STORE_UNAVAILABLE} when Redis did not answer
     * @throws IllegalArgumentException when {@code limit} is below 1 or the cursor is not a number
     */
    public Either<BoundaryError, KeyPage> scan(String cursor, int limit) {
        requireNonNull(cursor, "cursor is null");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        if (!cursor.matches("[0-9]{1,20}")) {
            throw new IllegalArgumentException("cursor must be a number");
        }
        String pattern = RedisKeys.globEscaped(keyPrefix() + ":") + "*";
        if (store.client().getConfig().isClusterConfig()) {
            try (Stream<String> keys = store.client().getKeys().getKeysStream(
                    KeysScanOptions.defaults().pattern(pattern).chunkSize(SCAN_COUNT).limit(limit))) {
                return Either.right(new KeyPage(keys.distinct().limit(limit).toList(), "0"));
            } catch (RuntimeException failed) {
                return Either.left(BoundaryError.of(io.toolboundary.domain.ErrorCode.STORE_UNAVAILABLE));
            }
        }
        List<String> keys = new ArrayList<>();
        String next = cursor;
        do {
            Either<StoreFailure, Object> step = store.runScript(LuaScripts.SCAN,
                    new ScriptArgs.Scan(keyPrefix(), next, pattern, SCAN_COUNT), timeout);
            if (step.isLeft()) {
                return Either.left(BoundaryError.of(io.toolboundary.domain.ErrorCode.STORE_UNAVAILABLE));
            }
            List<?> reply = (List<?>) step.get();
            next = String.valueOf(reply.get(0));
            reply.subList(1, reply.size()).forEach(key -> {
                if (!keys.contains(String.valueOf(key))) {
                    keys.add(String.valueOf(key));
                }
            });
        } while (keys.size() < limit && !"0".equals(next));
        return Either.right(new KeyPage(keys, next));
    }

    /**
     * The facts of one key, read in one script on the master that owns it.
     *
     * @param key the key
     * @param type the Redis type ({@code hash}, {@code string}, {@code none} when there is no key)
     * @param ttlMillis the time to live left in milliseconds; -1 when the key has none, -2 when there
     *     is no key
     * @param memoryBytes what {@code MEMORY USAGE} reports, or -1 when it reports nothing
     * @param serverMicros the server's {@code TIME} when it answered, in microseconds since the epoch
     * @param fields for a record, its small values ({@code schema}, {@code status}, {@code tool},
     *     {@code evidence}, {@code errorCode}, {@code createdAt}, {@code updatedAt}, and for a PROJECTING
     *     record {@code leaseUntil}, {@code <epoch seconds>:<nine digits>} by the server's clock) when present,
     *     immutable
     * @param fieldBytes for a record, the length in bytes of {@code record} (all of it), {@code arguments},
     *     {@code rawResponse}, {@code content}, {@code scope}, {@code failureType} and {@code failureMessage}
     *     (0 when absent), immutable
     */
    public record KeyFacts(String key, String type, long ttlMillis, long memoryBytes, long serverMicros,
            Map<String, String> fields, Map<String, Long> fieldBytes) {

        /**
         * Copies the maps.
         *
         * @param key the key
         * @param type the type
         * @param ttlMillis the TTL left
         * @param memoryBytes the memory used
         * @param serverMicros the server's time
         * @param fields the small fields
         * @param fieldBytes the sizes of the large fields
         */
        public KeyFacts {
            fields = Map.copyOf(fields);
            fieldBytes = Map.copyOf(fieldBytes);
        }
    }

    /**
     * Reads the facts of one key: type, TTL, {@code MEMORY USAGE}, the server's time and, for a record,
     * the record's small fields and the sizes of its large ones. Touches no TTL.
     *
     * @param key the key, as {@link #scan} lists it
     * @return the facts, or {@code STORE_UNAVAILABLE} when Redis did not answer
     */
    public Either<BoundaryError, KeyFacts> inspect(String key) {
        requireNonNull(key, "key is null");
        Either<StoreFailure, Object> reply = store.runScript(LuaScripts.INSPECT, new ScriptArgs.Inspect(key), timeout);
        if (reply.isLeft()) {
            return Either.left(BoundaryError.of(io.toolboundary.domain.ErrorCode.STORE_UNAVAILABLE));
        }
        List<?> items = (List<?>) reply.get();
        Map<String, String> fields = new LinkedHashMap<>();
        Map<String, Long> sizes = new LinkedHashMap<>();
        if ("string".equals(String.valueOf(items.get(0))) && items.size() == 8) {
            // A record's head: its small values, and the sizes of the large ones, which are not shown.
            RecordCodec.facts(String.valueOf(items.get(6)), String.valueOf(items.get(7)), fields, sizes);
            sizes.put("record", Long.parseLong(String.valueOf(items.get(5))));
        }
        long micros = Long.parseLong(String.valueOf(items.get(3))) * 1_000_000L
                + Long.parseLong(String.valueOf(items.get(4)));
        long ttl = Long.parseLong(String.valueOf(items.get(1)));
        String leaseLeft = fields.remove("leaseLeftMillis");
        if (leaseLeft != null && ttl >= 0 && "PROJECTING".equals(fields.get("status"))) {
            // The lease ends when the remaining TTL is leaseLeft: that far after now by the server's clock.
            java.time.Instant until = java.time.Instant.EPOCH.plusNanos(micros * 1000L)
                    .plusMillis(ttl - Long.parseLong(leaseLeft));
            fields.put("leaseUntil", until.getEpochSecond() + ":" + String.format("%09d", until.getNano()));
        }
        return Either.right(new KeyFacts(key, String.valueOf(items.get(0)), Long.parseLong(String.valueOf(items.get(1))),
                Long.parseLong(String.valueOf(items.get(2))), micros, fields, sizes));
    }

    /**
     * Whether every master answers {@code PING}, each within the client's own response timeout.
     *
     * @return true when each master answered; false when one did not, or the masters could not be listed
     */
    public boolean mastersAnswer() {
        try {
            return EvictionPolicyGuard.masters(store.client()).stream().allMatch(RedisNode::ping);
        } catch (RuntimeException unreachable) {
            return false;
        }
    }

    /**
     * The {@code maxmemory-policy} of every master, in the client's order.
     *
     * @return the policies, or {@code STORE_UNAVAILABLE} when they cannot be read ({@code CONFIG} may be
     *     refused)
     */
    public Either<BoundaryError, List<String>> evictionPolicies() {
        try {
            List<String> policies = new ArrayList<>();
            for (RedisNode master : EvictionPolicyGuard.masters(store.client())) {
                policies.add(String.valueOf(master.getConfig("maxmemory-policy").get("maxmemory-policy")));
            }
            return Either.right(List.copyOf(policies));
        } catch (RuntimeException cannotRead) {
            return Either.left(BoundaryError.of(io.toolboundary.domain.ErrorCode.STORE_UNAVAILABLE));
        }
    }
}
