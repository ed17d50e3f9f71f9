package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.RedissonClient;
import org.redisson.client.protocol.RedisCommand;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.command.CommandBatchService;

/**
 * A completion's final record sent beside {@code complete.lua}, never through it: in one pipeline on the
 * connection of the keys' slot, {@code SET <pending key> <record> XX KEEPTTL}, then the script, which renames
 * the key over the record or deletes it. {@code XX} creates no key and {@code KEEPTTL} keeps the pending
 * key's TTL, set with the record's. The pipeline is not a transaction: the script renames the key only when
 * it holds the final record's length in bytes, else answers {@code NOT_WRITTEN} and writes nothing. The
 * record is encoded once, for every try.
 *
 * @param pendingKey the attempt's pending key, {@link RedisKeys#pending}
 * @param utf8 the final record as {@link RecordCodec#completed} writes it; never changed once made
 */
record FinalRecordWrite(String pendingKey, byte[] utf8) {

    /** {@code EVALSHA}, read as {@code EVAL} returning a list is read. */
    static final RedisCommand<List<Object>> EVALSHA_LIST = new RedisCommand<>(RedisCommands.EVAL_LIST, "EVALSHA");

    FinalRecordWrite {
        requireNonNull(pendingKey, "pendingKey is null");
        requireNonNull(utf8, "utf8 is null");
    }

    /** The script's reply, and how many replicas acknowledged before the {@code WAIT} the options asked for. */
    record Replied(Object reply, int syncedReplicas) {
    }

    /**
     * Sends the pipeline: the {@code SET}, then the script by its SHA-1, on the connection of the keys'
     * slot, with {@code options} as they are (a {@code WAIT} behind it when they ask for one). Completes
     * with the script's reply; fails with the script's failure, with the {@code SET}'s when the script
     * found the final record not written, or with {@link Unlinked}.
     */
    CompletableFuture<Replied> send(RedissonClient client, BatchOptions options, LuaScripts.Script<?, ?> script,
            String routingKey, List<Object> keys, Object[] values) {
        if (!(client instanceof Redisson redisson)) {
            throw new IllegalStateException("not a Redisson client: " + client.getClass().getName());
        }
        try {
            return send(redisson, options, script, routingKey, keys, values);
        } catch (RuntimeException failed) {
            // No connection to be had, a client shut down: the pipeline was not sent.
            return CompletableFuture.failedFuture(failed);
        }
    }

    private CompletableFuture<Replied> send(Redisson redisson, BatchOptions options, LuaScripts.Script<?, ?> script,
            String routingKey, List<Object> keys, Object[] values) {
        // Redisson's buckets send SET ... XX or SET ... KEEPTTL, never both: the SET goes as it is.
        CommandBatchService batch = new CommandBatchService(redisson.getCommandExecutor(),
                options.executionMode(BatchOptions.ExecutionMode.IN_MEMORY));
        CompletableFuture<Boolean> set = batch.<Boolean, Boolean>writeAsync(pendingKey, ScriptCodec.INSTANCE,
                RedisCommands.SET_BOOLEAN, pendingKey, utf8, "XX", "KEEPTTL").toCompletableFuture();
        // The script by its SHA-1; on NOSCRIPT, ScriptRunner sends the two apart, the script by its source.
        CompletableFuture<List<Object>> reply = batch.<List<Object>, List<Object>>writeAsync(routingKey,
                ScriptCodec.INSTANCE, EVALSHA_LIST, evalShaParams(script, keys, values)).toCompletableFuture();
        return batch.executeAsync().toCompletableFuture().handle((result, failure) -> {
            if (!reply.isDone() || reply.isCompletedExceptionally()) {
                Throwable why = cause(reply, failure);
                throw new CompletionException(why != null ? why
                        : new IllegalStateException("a pipeline answered without the script's reply"));
            }
            List<Object> answer = reply.join();
            if (!answer.isEmpty() && ScriptReplies.Complete.NOT_WRITTEN.name().equals(answer.get(0))) {
                // The script wrote nothing: the SET did not reach the key it read.
                throw new CompletionException(set.isCompletedExceptionally() ? cause(set, failure) : new Unlinked());
            }
            // Replied, also when the SET failed: the key held the final record, written by an earlier try of
            // the same attempt. Without the batch's result, no replica is known to have acknowledged.
            return new Replied(answer, failure == null ? result.getSyncedSlaves() : 0);
        });
    }

    /**
     * The {@code SET ... XX KEEPTTL} alone, following redirections as any single command does: it writes
     * only the attempt's pending key, and creates nothing.
     */
    CompletableFuture<Object> sendAlone(RedissonClient client) {
        try {
            return ((Redisson) client).getCommandExecutor().writeAsync(pendingKey, ScriptCodec.INSTANCE,
                    RedisCommands.SET_BOOLEAN, pendingKey, utf8, "XX", "KEEPTTL").toCompletableFuture();
        } catch (RuntimeException failed) {
            return CompletableFuture.failedFuture(failed);
        }
    }

    /**
     * The script found the pending key without the final record although the {@code SET} before it was not
     * refused: the {@code SET} reached another node than the script (a slot in migration). The script wrote
     * nothing; the next try sends the two apart.
     */
    static final class Unlinked extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unlinked() {
            super("the final record's SET reached another node than complete.lua, which wrote nothing", null, false,
                    false);
        }
    }

    /** Why {@code command} failed: its own failure, else the batch's. */
    private static Throwable cause(CompletableFuture<?> command, Throwable batchFailure) {
        if (command.isCompletedExceptionally()) {
            try {
                command.join();
            } catch (CompletionException | CancellationException failed) {
                return failed.getCause() == null ? failed : failed.getCause();
            }
        }
        return batchFailure instanceof CompletionException && batchFailure.getCause() != null
                ? batchFailure.getCause()
                : batchFailure;
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
}
