package io.toolboundary.adapter.redis;

import io.toolboundary.domain.ErrorCode;
import java.util.Locale;
import org.redisson.client.RedisException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.client.RedisTimeoutException;

/**
 * Maps a failure seen at the Redis edge to a safe code. Only the failure's type and the first word of
 * a Redis error reply are looked at; no text of it ever leaves this class.
 */
final class RedisFailures {

    private RedisFailures() {
    }

    /**
     * The code for a failure thrown while talking to Redis or reading its reply.
     *
     * <ul>
     *   <li>Redis refused a write for lack of memory ({@code OOM}): {@link ErrorCode#STORE_FULL}; nothing was written.</li>
     *   <li>A command was sent but no reply came in time: {@link ErrorCode#STORE_OUTCOME_UNKNOWN}.</li>
     *   <li>No connection, a closed connection, a cluster that is down or loading, a client shut down,
     *       any other Redis error: {@link ErrorCode#STORE_UNAVAILABLE}.</li>
     *   <li>A key of the wrong type, or a reply that is not what the scripts return:
     *       {@link ErrorCode#STORE_DATA_INVALID}.</li>
     * </ul>
     */
    static ErrorCode classify(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                return ErrorCode.STORE_OUTCOME_UNKNOWN;
            }
            if (cause instanceof RedisException redis) {
                return classifyRedis(redis);
            }
        }
        return ErrorCode.STORE_DATA_INVALID;
    }

    private static ErrorCode classifyRedis(RedisException failure) {
        String reply = firstWord(failure.getMessage());
        if (failure instanceof RedisOutOfMemoryException || reply.equals("OOM")) {
            return ErrorCode.STORE_FULL;
        }
        if (failure instanceof RedisResponseTimeoutException || failure instanceof RedisTimeoutException) {
            return ErrorCode.STORE_OUTCOME_UNKNOWN;
        }
        if (reply.equals("WRONGTYPE") || String.valueOf(failure.getMessage()).contains("WRONGTYPE")) {
            return ErrorCode.STORE_DATA_INVALID;
        }
        // Connection refused or closed, CLUSTERDOWN, LOADING, a client shut down, and any other error reply.
        return ErrorCode.STORE_UNAVAILABLE;
    }

    private static String firstWord(String message) {
        if (message == null) {
            return "";
        }
        String trimmed = message.strip();
        int end = 0;
        while (end < trimmed.length() && Character.isLetter(trimmed.charAt(end))) {
            end++;
        }
        return trimmed.substring(0, end).toUpperCase(Locale.ROOT);
    }
}
