package io.toolboundary.adapter.redis;

import io.toolboundary.adapter.redis.FinalRecordWrite.Replied;
import io.vavr.control.Option;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.OptionalOptions;
import org.redisson.client.RedisNoScriptException;

/**
 * Sends a writing script with {@code WAIT} behind it, in one batch on one connection, and says whether
 * enough replicas acknowledged. A reply that wrote needs enough replicas ({@link ReplicasNotAcknowledged}
 * otherwise); a refusal stands whatever the replicas say; a confirmation of an earlier write is followed
 * by {@code touch.lua} and another {@code WAIT}, since {@code WAIT} counts only its own connection's
 * writes. A reply of no known kind counts as a write. A script the server does not know fails the try;
 * the caller runs it once by source ({@link #loadAndRun}) and tries again.
 */
final class ReplicaAcknowledger {

    private final RedissonClient client;
    private final RedisStoreOptions.ReplicaAcknowledgement wanted;
    private final long responseTimeoutMillis;
    private final RScript plain;

    ReplicaAcknowledger(RedissonClient client, RedisStoreOptions.ReplicaAcknowledgement wanted,
            RedisStoreOptions options) {
        this.client = client;
        this.wanted = wanted;
        this.responseTimeoutMillis = options.responseTimeout().toMillis();
        this.plain = client.getScript(OptionalOptions.defaults().codec(ScriptCodec.INSTANCE)
                .timeout(options.responseTimeout()).retryAttempts(0));
    }

    /** What was asked for. */
    RedisStoreOptions.ReplicaAcknowledgement wanted() {
        return wanted;
    }

    /**
     * One try of {@code script} by SHA, with {@code WAIT} behind it; for a reply that confirms an earlier
     * write, a touch with another {@code WAIT}. Completes with the script's reply, or fails with
     * {@link ReplicasNotAcknowledged} when too few replicas acknowledged, or with the batch's failure.
     */
    CompletableFuture<Object> send(LuaScripts.Script<?, ?> script, String routingKey, List<Object> keys, Object[] values,
            Option<FinalRecordWrite> write) {
        return batch(script, routingKey, keys, values, write).thenCompose(sent -> switch (effect(script, sent.reply())) {
            case REFUSAL -> CompletableFuture.completedFuture(sent.reply());
            case WRITE -> acknowledged(sent, sent.reply());
            case CONFIRMATION -> sent.syncedReplicas() < wanted.replicas()
                    ? acknowledged(sent, sent.reply())
                    : touch(routingKey, new ScriptArgs.Touch((String) keys.get(0)))
                            .thenCompose(touched -> acknowledged(touched, sent.reply()));
        });
    }

    /**
     * Runs {@code script} by source outside a batch (Redisson sends the source, follows redirects, and
     * the node that runs it keeps it), without waiting for replicas: what makes the next batch's
     * {@code EVALSHA} known to the node.
     */
    CompletableFuture<Object> loadAndRun(LuaScripts.Script<?, ?> script, String routingKey, List<Object> keys,
            Object[] values) {
        return plain.evalAsync(routingKey, RScript.Mode.READ_WRITE, script.source(), RScript.ReturnType.LIST, keys,
                values).toCompletableFuture();
    }

    /** What a reply of {@code script} says it did; a reply of no known kind counts as a write. */
    static ScriptReplies.Effect effect(LuaScripts.Script<?, ?> script, Object reply) {
        return reply instanceof List<?> items && !items.isEmpty() && items.get(0) instanceof String outcome
                ? script.reply(outcome).map(ScriptReplies.Reply::effect).getOrElse(ScriptReplies.Effect.WRITE)
                : ScriptReplies.Effect.WRITE;
    }

    private CompletableFuture<Object> acknowledged(Replied sent, Object reply) {
        return sent.syncedReplicas() >= wanted.replicas()
                ? CompletableFuture.completedFuture(reply)
                : CompletableFuture.failedFuture(new ReplicasNotAcknowledged(sent.syncedReplicas(), wanted));
    }

    /** The touch and its {@code WAIT}; {@code NOSCRIPT} loads it (by running it) and sends the batch once more. */
    private CompletableFuture<Replied> touch(String routingKey, ScriptArgs.Touch touch) {
        List<Object> keys = touch.keys();
        Object[] values = touch.argv().toArray();
        return batch(LuaScripts.TOUCH, routingKey, keys, values, Option.none())
                .handle((sent, failure) -> failure == null ? CompletableFuture.completedFuture(sent)
                        : unwrap(failure) instanceof RedisNoScriptException
                                ? loadAndRun(LuaScripts.TOUCH, routingKey, keys, values)
                                        .thenCompose(loaded -> batch(LuaScripts.TOUCH, routingKey, keys, values,
                                                Option.none()))
                                : CompletableFuture.<Replied>failedFuture(unwrap(failure)))
                .thenCompose(next -> next)
                .thenApply(sent -> {
                    if (!(sent.reply() instanceof List<?> items)
                            || !List.of(ScriptReplies.Touch.TOUCHED.name()).equals(items)) {
                        // The record is gone: the earlier write cannot be proven on the replicas.
                        throw new ReplicasNotAcknowledged(0, wanted);
                    }
                    return sent;
                });
    }

    /**
     * {@code EVALSHA} and {@code WAIT} in one batch, one Redisson try; with a write response, its
     * {@code SET} and the script in one pipeline, then {@code WAIT}.
     */
    private CompletableFuture<Replied> batch(LuaScripts.Script<?, ?> script, String routingKey, List<Object> keys,
            Object[] values, Option<FinalRecordWrite> write) {
        BatchOptions options = BatchOptions.defaults()
                .sync(wanted.replicas(), wanted.timeout())
                .responseTimeout(responseTimeoutMillis, TimeUnit.MILLISECONDS)
                .retryAttempts(0);
        if (write.isDefined()) {
            return write.get().send(client, options, script, routingKey, keys, values);
        }
        RBatch batch = client.createBatch(options);
        batch.getScript(ScriptCodec.INSTANCE).evalShaAsync(routingKey, RScript.Mode.READ_WRITE, script.sha1(),
                RScript.ReturnType.LIST, keys, values);
        return batch.executeAsync().toCompletableFuture().thenApply(result -> {
            List<?> responses = result.getResponses();
            if (responses.size() != 1) {
                throw new IllegalStateException("a batch of one command answered " + responses.size() + " replies");
            }
            return new Replied(responses.get(0), result.getSyncedSlaves());
        });
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /**
     * Fewer replicas than asked acknowledged a write within the timeout: the write is on the master and
     * may not survive a failover. Final for the operation, which answers {@code STORE_OUTCOME_UNKNOWN}.
     */
    static final class ReplicasNotAcknowledged extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final int acknowledged;
        private final transient RedisStoreOptions.ReplicaAcknowledgement wanted;

        ReplicasNotAcknowledged(int acknowledged, RedisStoreOptions.ReplicaAcknowledgement wanted) {
            super(acknowledged + " of " + wanted.replicas() + " replicas acknowledged within "
                    + wanted.timeout().toMillis() + " ms", null, false, false);
            this.acknowledged = acknowledged;
            this.wanted = wanted;
        }

        /** How many replicas acknowledged. */
        int acknowledged() {
            return acknowledged;
        }

        /** What was asked for. */
        RedisStoreOptions.ReplicaAcknowledgement wanted() {
            return wanted;
        }
    }
}
