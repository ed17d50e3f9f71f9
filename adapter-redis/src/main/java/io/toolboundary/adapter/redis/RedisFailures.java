package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.StoreFailure;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import org.redisson.RedissonShutdownException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisNoReplicasException;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.RedisNodeNotFoundException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.client.RedisRetryException;
import org.redisson.client.RedisTimeoutException;

/**
 * Says what a failure seen at the Redis edge means for the data: whether the script may have run, and
 * whether trying again can help. The whole cause chain is looked at, but only types and the first word
 * of a Redis error reply; no text of a failure ever leaves this class.
 */
final class RedisFailures {

    /** What one failed try of a script means. */
    enum Failure {
        /** Redis refused for lack of memory ({@code OOM}) before anything was written. Final. */
        FULL(false, false),
        /** A key of the wrong type, a script error or a reply that is not what the scripts return. Final. */
        DATA_INVALID(false, false),
        /**
         * The script cannot have run: no connection was had, the command was never written, or the
         * server refused it before running it ({@code TRYAGAIN}, {@code CLUSTERDOWN}, {@code LOADING},
         * {@code BUSY}, {@code READONLY}, {@code NOSCRIPT}). Worth another try.
         */
        NOT_SENT(false, true),
        /**
         * The script cannot have run and another try cannot help: credentials refused, client shut down, or a
         * master refusing writes for want of replicas ({@code NOREPLICAS}, which comes before a script's first
         * write).
         */
        REFUSED(false, false),
        /**
         * No connection could be made to the node: refused, no route, an unknown host, or none within the
         * connect timeout. The script cannot have run; the store is down for this node, so the call is not
         * tried again (see {@link OutageGate}).
         */
        UNREACHABLE(false, false),
        /**
         * The script may have run: it was written and no reply came, the connection broke while a reply
         * was due, or the failure is of a kind not known to be harmless. Worth another try (every script
         * is idempotent by its token).
         */
        MAY_HAVE_RUN(true, true);

        private final boolean mayHaveRun;
        private final boolean retryable;

        Failure(boolean mayHaveRun, boolean retryable) {
            this.mayHaveRun = mayHaveRun;
            this.retryable = retryable;
        }

        /** True when the script may have run and written. */
        boolean mayHaveRun() {
            return mayHaveRun;
        }

        /** True when another try may succeed. */
        boolean retryable() {
            return retryable;
        }
    }

    private RedisFailures() {
    }

    /**
     * What a failure of one try means; see {@link Failure}. A failure to connect anywhere in the cause chain
     * decides first: the client wraps it in a generic {@link RedisException} that says nothing by itself.
     */
    static Failure classify(Throwable failure) {
        if (isConnectFailure(failure)) {
            return Failure.UNREACHABLE;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof RedisException || cause instanceof RedissonShutdownException) {
                return classifyRedis(cause);
            }
            if (cause instanceof InterruptedException || cause instanceof CancellationException) {
                return Failure.MAY_HAVE_RUN;
            }
        }
        // Not a failure of Redis's: a reply the client could not decode.
        return Failure.DATA_INVALID;
    }

    /** True when {@code failure} or one of its causes says no connection could be made to the node. */
    private static boolean isConnectFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            // ConnectException covers Netty's connect timeout and its "connection refused".
            if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
                    || cause instanceof UnknownHostException || cause instanceof UnresolvedAddressException) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when {@code failure} or one of its causes is Redis's error reply {@code word} (its first word,
     * as {@code NOSCRIPT}), or a {@code type}, as the client may name it instead.
     */
    static boolean replied(Throwable failure, String word, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (type.isInstance(cause) || firstWord(cause.getMessage()).equals(word)) {
                return true;
            }
        }
        return false;
    }

    /** What an operation answers when its last try failed definitely with {@code failure}. */
    static StoreFailure finalFailure(Failure failure, boolean anyTryMayHaveRun) {
        return switch (failure) {
            case FULL -> StoreFailure.full();
            case DATA_INVALID -> StoreFailure.dataInvalid();
            case NOT_SENT, REFUSED, UNREACHABLE, MAY_HAVE_RUN -> anyTryMayHaveRun || failure.mayHaveRun()
                    ? StoreFailure.outcomeUnknown()
                    : StoreFailure.unavailable();
        };
    }

    private static Failure classifyRedis(Throwable failure) {
        if (failure instanceof RedissonShutdownException) {
            return Failure.REFUSED;
        }
        String reply = firstWord(failure.getMessage());
        if (failure instanceof RedisNoReplicasException || reply.equals("NOREPLICAS")) {
            // min-replicas-to-write: the master refuses every write until enough replicas are back within
            // min-replicas-max-lag, which takes longer than one operation's timeout.
            return Failure.REFUSED;
        }
        if (failure instanceof RedisOutOfMemoryException || reply.equals("OOM")) {
            return Failure.FULL;
        }
        if (failure instanceof RedisResponseTimeoutException) {
            return Failure.MAY_HAVE_RUN;
        }
        if (failure instanceof RedisTimeoutException) {
            // No connection within the timeout, or the command still unwritten when it ran out.
            return Failure.NOT_SENT;
        }
        if (failure instanceof RedisConnectionException || failure instanceof RedisNodeNotFoundException
                || failure instanceof RedisRetryException || failure instanceof RedisNoScriptException) {
            return Failure.NOT_SENT;
        }
        return switch (reply) {
            case "TRYAGAIN", "CLUSTERDOWN", "LOADING", "BUSY", "READONLY", "MASTERDOWN", "NOSCRIPT" ->
                    Failure.NOT_SENT;
            case "NOAUTH", "WRONGPASS", "NOPERM" -> Failure.REFUSED;
            case "WRONGTYPE", "ERR" -> Failure.DATA_INVALID;
            default -> String.valueOf(failure.getMessage()).contains("WRONGTYPE")
                    ? Failure.DATA_INVALID
                    : Failure.MAY_HAVE_RUN;
        };
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
