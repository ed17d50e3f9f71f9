package io.toolboundary.benchmarks;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.redisson.Redisson;
import org.redisson.api.BatchOptions;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.RedisCommand;
import org.redisson.client.protocol.RedisCommands;
import org.redisson.command.CommandAsyncExecutor;
import org.redisson.command.CommandBatchService;

/**
 * The floor of the client path: the commands one boundary call sent, captured and sent again on the same
 * client as the store sends them, each call on its own tool_call_id, with none of the boundary's work between.
 * Refuses a reply other than a successful call's. Thread-safe.
 */
final class StoreCommands {

    /** {@code EVALSHA}, its reply read as a list. */
    private static final RedisCommand<List<Object>> EVALSHA = new RedisCommand<>(RedisCommands.EVAL_LIST, "EVALSHA");

    private final CommandAsyncExecutor commands;
    private final List<String> begin;
    private final List<String> set;
    private final List<String> complete;
    private final String capturedId;

    /**
     * @param sent a successful boundary call's commands: begin's {@code EVALSHA}, the {@code SET}, complete's
     * @param capturedId the tool_call_id the captured call used, replaced by each call's own
     */
    StoreCommands(RedissonClient client, List<List<String>> sent, String capturedId) {
        this.commands = ((Redisson) requireNonNull(client, "client is null")).getCommandExecutor();
        if (sent.size() != 3 || !sent.get(0).get(0).equalsIgnoreCase("EVALSHA")
                || !sent.get(1).get(0).equalsIgnoreCase("SET") || !sent.get(2).get(0).equalsIgnoreCase("EVALSHA")) {
            throw new IllegalStateException("not a successful boundary call: " + sent.stream().map(c -> c.get(0)).toList());
        }
        this.begin = sent.get(0);
        this.set = sent.get(1);
        this.complete = sent.get(2);
        this.capturedId = requireNonNull(capturedId, "capturedId is null");
    }

    /** The captured call's commands as the server received them: begin's {@code EVALSHA}, the {@code SET}, complete's. */
    List<List<String>> sent() {
        return List.of(begin, set, complete);
    }

    /** Sends one call's commands on {@code toolCallId}; fails unless begin created the record and complete applied. */
    void call(String toolCallId) {
        List<Object> begun = commands.get(commands.<List<Object>, List<Object>>writeAsync(key(begin, toolCallId),
                StringCodec.INSTANCE, EVALSHA, parameters(begin, toolCallId)));
        if (!"CREATED".equals(String.valueOf(begun.get(0)))) {
            throw new IllegalStateException("begin answered " + begun.get(0));
        }
        CommandBatchService batch = new CommandBatchService(commands,
                BatchOptions.defaults().executionMode(BatchOptions.ExecutionMode.IN_MEMORY));
        String pending = set.get(1).replace(capturedId, toolCallId);
        // The raw response as the store sends it: encoded to UTF-8 once per call, the bytes copied into the command.
        batch.writeAsync(pending, StringCodec.INSTANCE, RedisCommands.SET_BOOLEAN, pending,
                set.get(2).getBytes(StandardCharsets.UTF_8), "XX", "KEEPTTL");
        batch.writeAsync(key(complete, toolCallId), StringCodec.INSTANCE, EVALSHA, parameters(complete, toolCallId));
        List<?> replies = batch.execute().getResponses();
        Object applied = ((List<?>) replies.get(replies.size() - 1)).get(0);
        if (!"APPLIED".equals(String.valueOf(applied))) {
            throw new IllegalStateException("complete answered " + applied);
        }
    }

    /** The script's first key, which routes the command. */
    private String key(List<String> evalsha, String toolCallId) {
        return evalsha.get(3).replace(capturedId, toolCallId);
    }

    /** {@code EVALSHA}'s arguments after its name, with the call's own id. */
    private Object[] parameters(List<String> evalsha, String toolCallId) {
        Object[] parameters = new Object[evalsha.size() - 1];
        for (int i = 1; i < evalsha.size(); i++) {
            parameters[i - 1] = evalsha.get(i).replace(capturedId, toolCallId);
        }
        return parameters;
    }
}
