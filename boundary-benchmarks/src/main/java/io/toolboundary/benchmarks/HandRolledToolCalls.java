package io.toolboundary.benchmarks;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import java.time.Duration;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.command.CommandAsyncExecutor;

/**
 * The Redis peer: the idempotent tool call a team without this library writes on the same Redisson client,
 * {@code SET key PENDING+request NX PX ttl} to claim the tool_call_id, then {@code SET key DONE+... XX KEEPTTL}
 * after the tool and projector ran. None of the boundary's checks, limits, tokens or budgets: the difference
 * the benchmark prices. Thread-safe.
 */
public final class HandRolledToolCalls {

    private final CommandAsyncExecutor commands;
    private final String prefix;
    private final long ttlMillis;
    private final ToolExecutor executor;
    private final Projector projector;
    private final ToolName tool = new ToolName(Payloads.TOOL_NAME);
    private final InvocationKey requestKey = InvocationKey.of(new RunId("peer"), new ToolCallId("peer"));

    HandRolledToolCalls(RedissonClient client, String prefix, Duration ttl, ToolExecutor executor, Projector projector) {
        requireNonNull(client, "client is null");
        this.commands = ((Redisson) client).getCommandExecutor();
        this.prefix = requireNonNull(prefix, "prefix is null");
        this.ttlMillis = requireNonNull(ttl, "ttl is null").toMillis();
        this.executor = requireNonNull(executor, "executor is null");
        this.projector = requireNonNull(projector, "projector is null");
    }

    /**
     * {@return the projection of one tool call, or {@code null} when the tool_call_id was already claimed (the tool
     * did not run)}
     *
     * @throws Exception when the tool or projector fails, or the finishing write found no key
     */
    public Projection call(String runId, String toolCallId, String arguments) throws Exception {
        String key = key(runId, toolCallId);
        if (!claim(key, arguments)) {
            return null;
        }
        ToolRequest request = new ToolRequest(requestKey, tool, arguments);
        String raw = executor.execute(request);
        Projection projection = projector.project(request, raw);
        if (!finish(key, arguments, raw, projection.content())) {
            throw new IllegalStateException("claim expired before the call finished");
        }
        return projection;
    }

    /** The key of a call. */
    String key(String runId, String toolCallId) {
        return prefix + ":{" + runId + "}:call:" + toolCallId;
    }

    /** {@code SET key value NX PX ttl}: true when this call claimed the key. */
    boolean claim(String key, String arguments) {
        Boolean claimed = commands.get(commands.<Boolean, Boolean>writeAsync(key, StringCodec.INSTANCE,
                RedisCommands.SET_BOOLEAN, key, "PENDING\n" + arguments, "NX", "PX", ttlMillis));
        return Boolean.TRUE.equals(claimed);
    }

    /** {@code SET key value XX KEEPTTL}: true when the key still existed. */
    boolean finish(String key, String arguments, String raw, String result) {
        String value = "DONE\n" + arguments + "\n" + raw + "\n" + result;
        Boolean written = commands.get(commands.<Boolean, Boolean>writeAsync(key, StringCodec.INSTANCE,
                RedisCommands.SET_BOOLEAN, key, value, "XX", "KEEPTTL"));
        return Boolean.TRUE.equals(written);
    }
}
