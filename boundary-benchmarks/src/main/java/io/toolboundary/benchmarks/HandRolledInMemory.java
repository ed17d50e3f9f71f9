package io.toolboundary.benchmarks;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.application.json.JsonArguments;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.internal.Utf8;
import io.vavr.control.Either;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory peer: the idempotent tool call a team without this library writes around a
 * {@link ConcurrentHashMap}, deciding only what the record needs (the JSON check and fingerprint, one run per
 * tool_call_id, a run budget, the raw response's byte limit, expiry in order). None of the boundary's other
 * checks, tokens, leases, typed answers or memory bound. Thread-safe.
 */
final class HandRolledInMemory {

    private final JsonArguments json = new JsonArguments(ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH,
            ToolBoundaryConfig.DEFAULT_MAX_NUMBER_LENGTH, ToolBoundaryConfig.DEFAULT_ARGUMENTS_BYTES);
    private final ToolName tool = new ToolName(Payloads.TOOL_NAME);
    private final InvocationKey requestKey = InvocationKey.of(new RunId("hand-rolled"), new ToolCallId("hand-rolled"));
    private final ConcurrentHashMap<Key, Entry> records = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicLong> runCalls = new ConcurrentHashMap<>();
    private final ArrayDeque<Entry> expiries = new ArrayDeque<>();
    private final Clock clock;
    private final long ttlMillis;
    private final long maxCallsPerRun;
    private final ToolExecutor executor;
    private final Projector projector;

    HandRolledInMemory(Clock clock, long ttlMillis, long maxCallsPerRun, ToolExecutor executor, Projector projector) {
        this.clock = requireNonNull(clock, "clock is null");
        this.ttlMillis = ttlMillis;
        this.maxCallsPerRun = maxCallsPerRun;
        this.executor = requireNonNull(executor, "executor is null");
        this.projector = requireNonNull(projector, "projector is null");
    }

    /** Opens a run with no calls made. */
    void openRun(String runId) {
        runCalls.put(runId, new AtomicLong());
    }

    /**
     * {@return the projection of one tool call, or {@code null} when the call was refused (the tool did not run) or
     * the raw response was over the limit} A failing tool or projector throws.
     */
    Projection call(String runId, String toolCallId, String arguments) throws Exception {
        Either<BoundaryError, String> fingerprint = json.fingerprint(tool, arguments);
        if (fingerprint.isLeft()) {
            return null;
        }
        long now = clock.millis();
        dropExpired(now);
        AtomicLong calls = runCalls.get(runId);
        if (calls == null || calls.incrementAndGet() > maxCallsPerRun) {
            return null;
        }
        Key key = new Key(runId, toolCallId);
        Entry entry = new Entry(key, fingerprint.get(), arguments, now + ttlMillis);
        if (records.putIfAbsent(key, entry) != null) {
            return null;
        }
        synchronized (expiries) {
            expiries.addLast(entry);
        }
        ToolRequest request = new ToolRequest(requestKey, tool, arguments);
        String raw = executor.execute(request);
        long rawBytes = Utf8.wellFormedByteLength(raw);
        if (rawBytes < 0 || rawBytes > ToolBoundaryConfig.DEFAULT_RAW_RESPONSE_BYTES) {
            return null;
        }
        Projection result = projector.project(request, raw);
        entry.finish(raw, result);
        return result;
    }

    private void dropExpired(long now) {
        synchronized (expiries) {
            for (Entry due = expiries.peekFirst(); due != null && due.expiresAtMillis <= now; due = expiries.peekFirst()) {
                expiries.pollFirst();
                records.remove(due.key, due);
            }
        }
    }

    private record Key(String runId, String toolCallId) {
    }

    private static final class Entry {
        private final Key key;
        private final String fingerprint;
        private final String arguments;
        private final long expiresAtMillis;
        private String raw;
        private Projection result;

        Entry(Key key, String fingerprint, String arguments, long expiresAtMillis) {
            this.key = key;
            this.fingerprint = fingerprint;
            this.arguments = arguments;
            this.expiresAtMillis = expiresAtMillis;
        }

        synchronized void finish(String raw, Projection result) {
            this.raw = raw;
            this.result = result;
        }
    }
}
