package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.BatchResult;
import org.redisson.api.RedissonClient;
import org.redisson.client.protocol.RedisCommand;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.command.CommandBatchService;

/**
 * A completion's raw response on its way to Redis beside {@code complete.lua}, never through it: in one
 * {@code MULTI}/{@code EXEC}, {@code SET <the attempt's pending key> <raw> XX KEEPTTL}, then the script,
 * which links it to the record (or deletes it when it refuses). The raw response costs Redis a plain
 * {@code SET}, whatever its size, and never enters Lua. {@code XX} writes only into the placeholder
 * {@code begin.lua} created for the attempt, so this never creates a key; {@code KEEPTTL} keeps the TTL
 * that placeholder got at creation.
 *
 * @param pendingKey the attempt's pending raw key, {@link RedisKeys#pendingRaw}
 * @param text the raw response, written into the command's buffer in UTF-8 as it is sent
 */
record RawResponseWrite(String pendingKey, String text) {

    /** {@code EVALSHA}, read as {@code EVAL} returning a list is read. */
    static final RedisCommand<List<Object>> EVALSHA_LIST = new RedisCommand<>(RedisCommands.EVAL_LIST, "EVALSHA");

    RawResponseWrite {
        requireNonNull(pendingKey, "pendingKey is null");
        requireNonNull(text, "text is null");
    }

    /**
     * Sends the transaction: {@code MULTI}, the {@code SET}, the script (by SHA, or by source when
     * {@code bySource}), {@code EXEC}, in one pipeline on the connection of the keys' slot. Completes with
     * the script's reply; fails with the failure of the transaction or of the script.
     */
    CompletableFuture<Object> send(RedissonClient client, BatchOptions options, LuaScripts.Script<?, ?> script,
            boolean bySource, String routingKey, List<Object> keys, Object[] values) {
        return transaction(client, options, script, bySource, routingKey, keys, values)
                .thenApply(result -> lastReply(result.getResponses()));
    }

    /**
     * The transaction of {@link #send}, with {@code options} as they are (a {@code WAIT} behind it when
     * they ask for one); completes with the replies of both commands.
     */
    CompletableFuture<BatchResult<?>> transaction(RedissonClient client, BatchOptions options,
            LuaScripts.Script<?, ?> script, boolean bySource, String routingKey, List<Object> keys, Object[] values) {
        if (!(client instanceof Redisson redisson)) {
            throw new IllegalStateException("not a Redisson client: " + client.getClass().getName());
        }
        try {
            return send(redisson, options, script, bySource, routingKey, keys, values);
        } catch (RuntimeException failed) {
            // No connection to be had, a client shut down: the transaction was not sent.
            return CompletableFuture.failedFuture(failed);
        }
    }

    private CompletableFuture<BatchResult<?>> send(Redisson redisson, BatchOptions options, LuaScripts.Script<?, ?> script,
            boolean bySource, String routingKey, List<Object> keys, Object[] values) {
        // Redisson's buckets send SET ... XX or SET ... KEEPTTL, never both, so the transaction is built on
        // the client's own batch service and the SET sent as it is.
        CommandBatchService batch = new CommandBatchService(redisson.getCommandExecutor(),
                options.executionMode(BatchOptions.ExecutionMode.IN_MEMORY_ATOMIC));
        batch.writeAsync(pendingKey, ScriptCodec.INSTANCE, RedisCommands.SET_BOOLEAN, pendingKey, text, "XX",
                "KEEPTTL");
        // The script by its SHA-1, as it is named, never turned into another command by the client's script
        // cache. When the node did not know it, SCRIPT LOAD goes first, in the same transaction on the same
        // connection, so it reaches the node that runs the script.
        if (bySource) {
            batch.writeAsync(routingKey, ScriptCodec.INSTANCE, RedisCommands.SCRIPT_LOAD, script.source());
        }
        batch.writeAsync(routingKey, ScriptCodec.INSTANCE, EVALSHA_LIST, evalShaParams(script, keys, values));
        return batch.executeAsync().toCompletableFuture()
                .handle((result, failure) -> failure == null
                        ? CompletableFuture.<BatchResult<?>>completedFuture(result)
                        : isDiscarded(failure)
                                ? whyDiscarded(redisson)
                                : CompletableFuture.<BatchResult<?>>failedFuture(failure))
                .thenCompose(next -> next);
    }

    /**
     * The transaction was discarded ({@code EXECABORT}): Redis refused a command while queueing it, and ran
     * none. Only the {@code SET} can be refused so ({@code OOM}, or the node's state: {@code READONLY},
     * {@code CLUSTERDOWN}, a redirection), and {@code EXECABORT} does not say why; the {@code SET} alone,
     * sent once more, does. Its failure is the transaction's; when it succeeds (it wrote only the attempt's
     * pending key, as the next try does), the transaction counts as not sent.
     */
    private CompletableFuture<BatchResult<?>> whyDiscarded(Redisson redisson) {
        return sendAlone(redisson).thenCompose(written -> CompletableFuture.<BatchResult<?>>failedFuture(new Discarded()));
    }

    /**
     * The {@code SET ... XX KEEPTTL} alone, following redirections as any single command does: it writes
     * only the attempt's pending key, and creates nothing.
     */
    CompletableFuture<Object> sendAlone(RedissonClient client) {
        try {
            return ((Redisson) client).getCommandExecutor().writeAsync(pendingKey, ScriptCodec.INSTANCE,
                    RedisCommands.SET_BOOLEAN, pendingKey, text, "XX", "KEEPTTL").toCompletableFuture();
        } catch (RuntimeException failed) {
            return CompletableFuture.failedFuture(failed);
        }
    }

    /**
     * Redis discarded the transaction ({@code EXECABORT}), ran none of it, and the {@code SET} alone went
     * through: what refused it was the transaction (a redirection in a slot migration), so the next try
     * sends the two apart.
     */
    static final class Discarded extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Discarded() {
            super("EXECABORT: the transaction was discarded; its SET alone was not refused", null, false, false);
        }
    }

    private static boolean isDiscarded(Throwable failure) {
        return RedisFailures.replied(failure, "EXECABORT", Discarded.class);
    }

    /** The batch options of one try: the store's reply timeout and no retries of the client's own. */
    static BatchOptions options(long responseTimeoutMillis) {
        return BatchOptions.defaults().responseTimeout(responseTimeoutMillis, TimeUnit.MILLISECONDS).retryAttempts(0);
    }

    /** The arguments of {@code EVALSHA}: the script's SHA-1, the number of keys, the keys, the values. */
    static Object[] evalShaParams(LuaScripts.Script<?, ?> script, List<Object> keys, Object[] values) {
        Object[] params = new Object[2 + keys.size() + values.length];
        params[0] = script.sha1();
        params[1] = Integer.toString(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            params[2 + i] = keys.get(i);
        }
        System.arraycopy(values, 0, params, 2 + keys.size(), values.length);
        return params;
    }

    /** The script's reply: the last of a transaction's replies. */
    static Object lastReply(List<?> responses) {
        if (responses.isEmpty()) {
            throw new IllegalStateException("a transaction answered no replies");
        }
        return responses.get(responses.size() - 1);
    }
}
