package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;

/**
 * The Redis store's outbox as the command line sees it: the stream {@code <prefix>:outbox}, which the
 * store's scripts append each final record to while export is on, and its tally of records lost before
 * export, {@code <prefix>:outbox:lost}. Neither has a TTL, by design: an entry must outlive its record
 * until an exporter acknowledges it.
 */
final class Outboxes {

    private Outboxes() {
    }

    /** {@return the outbox stream's key, {@code <prefix>:outbox}} */
    static String stream(RedisOperatorView view) {
        return view.keyPrefix() + ":outbox";
    }

    /** {@return the key of the outbox's tally of lost records, {@code <prefix>:outbox:lost}} */
    static String lostTally(RedisOperatorView view) {
        return stream(view) + ":lost";
    }

    /** {@return whether {@code key} is one of the outbox's two keys, which have no TTL by design} */
    static boolean isOutboxKey(RedisOperatorView view, String key) {
        return key.equals(stream(view)) || key.equals(lostTally(view));
    }

    /**
     * {@return whether the outbox stream exists: export is on, or was, for this prefix} An acknowledged entry
     * is deleted from the stream, but the stream stays (with its consumer group) once created.
     */
    static boolean exists(RedisOperatorView view) {
        return facts(view, stream(view)).ttlMillis() != -2;
    }

    /** {@return the facts of one of the outbox's keys: {@code ttlMillis} -2 when it does not exist} */
    static RedisOperatorView.KeyFacts facts(RedisOperatorView view, String key) {
        return view.inspect(key).getOrElseThrow(
                failed -> new Connection.UnreachableException("Redis did not answer (" + failed.code() + ")"));
    }
}
