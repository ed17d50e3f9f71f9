package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.testsupport.redis.RedisServerProcess;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * The tool of the fault tests. On entry it reads Redis from outside the store to check that its
 * record exists, is PROJECTING and has a TTL (the boundary's promise: no execution without a confirmed
 * record); it counts executions per tool call id; it may wait at a gate so that a fault can be injected
 * while it runs; it notes how long the calling thread spent inside it, so that the store's share of a
 * call can be measured.
 */
final class FaultTool implements ToolExecutor {

    /** The start of every raw response: the agent must never see it. */
    static final String RAW_MARKER = "RAW-HARNESS-ONLY-";
    private static final Duration GATE_TIMEOUT = Duration.ofSeconds(30);

    private final RedisServerProcess redis;
    private final Function<InvocationKey, String> recordKeys;
    private final Map<String, AtomicInteger> executionsByCall = new ConcurrentHashMap<>();
    private final AtomicInteger entered = new AtomicInteger();
    private final AtomicInteger unconfirmed = new AtomicInteger();
    private final ThreadLocal<long[]> nanosInside = ThreadLocal.withInitial(() -> new long[1]);
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile IntConsumer onEntry = executions -> { };
    private volatile String raw = "";

    FaultTool(RedisServerProcess redis, Function<InvocationKey, String> recordKeys) {
        this.redis = requireNonNull(redis, "redis is null");
        this.recordKeys = requireNonNull(recordKeys, "recordKeys is null");
    }

    @Override
    public String execute(ToolRequest request) throws InterruptedException {
        long started = System.nanoTime();
        try {
            String toolCallId = request.key().toolCallId().value();
            executionsByCall.computeIfAbsent(toolCallId, id -> new AtomicInteger()).incrementAndGet();
            if (!hasConfirmedProjectingRecord(request.key())) {
                unconfirmed.incrementAndGet();
            }
            onEntry.accept(entered.incrementAndGet());
            if (!gate.await(GATE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the gate was never opened");
            }
            return RAW_MARKER + toolCallId + raw;
        } finally {
            nanosInside.get()[0] += System.nanoTime() - started;
        }
    }

    /** Calls from now on wait inside the tool until {@link #openGate()}. */
    void closeGate() {
        gate = new CountDownLatch(1);
    }

    /** Lets every waiting and later call through. */
    void openGate() {
        gate.countDown();
    }

    /** Runs {@code action} with the running number of the execution, inside the tool, before the gate. */
    void onEntry(IntConsumer action) {
        this.onEntry = requireNonNull(action, "action is null");
    }

    /** Appends {@code padding} to every raw response from now on. */
    void padRawWith(String padding) {
        this.raw = requireNonNull(padding, "padding is null");
    }

    /** How many executions have begun. */
    int entered() {
        return entered.get();
    }

    /** How many times the tool ran for {@code toolCallId}. */
    int executions(String toolCallId) {
        AtomicInteger count = executionsByCall.get(toolCallId);
        return count == null ? 0 : count.get();
    }

    /** The tool call ids the tool ran for, with their counts. */
    Map<String, Integer> executionsByCall() {
        Map<String, Integer> copy = new ConcurrentHashMap<>();
        executionsByCall.forEach((id, count) -> copy.put(id, count.get()));
        return copy;
    }

    /** Executions that found no PROJECTING record with a TTL in Redis. */
    int unconfirmedExecutions() {
        return unconfirmed.get();
    }

    /** Nanoseconds the current thread has spent inside the tool, then resets the count. */
    long takeNanosInside() {
        long[] inside = nanosInside.get();
        long nanos = inside[0];
        inside[0] = 0;
        return nanos;
    }

    private boolean hasConfirmedProjectingRecord(InvocationKey key) {
        String recordKey = recordKeys.apply(key);
        try {
            return "PROJECTING".equals(StoredRecord.status(redis.call("GET", recordKey)))
                    && redis.callLong("PTTL", recordKey) > 0;
        } catch (RuntimeException unreachable) {
            return false;
        }
    }
}
