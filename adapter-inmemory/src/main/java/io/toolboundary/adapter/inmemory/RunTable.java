package io.toolboundary.adapter.inmemory;

import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.spi.StoreRules;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runs the in-memory store holds: each one's token, expiry and budget counters. A run's state is
 * read and changed only under its run's stripe lock, which the store holds; dropping an expired run
 * needs no lock of its own (a compare-and-remove). Thread-safe in that use.
 */
final class RunTable {

    private final Map<RunId, RunState> runs = new ConcurrentHashMap<>();

    /** The run's state when it is held and live at {@code now}; null otherwise (an expired one is dropped). */
    RunState live(RunId runId, Instant now, Room room) {
        RunState state = runs.get(runId);
        if (state != null && state.expiredAt(now)) {
            if (runs.remove(runId, state)) {
                room.releaseRun();
            }
            return null;
        }
        return state;
    }

    /** The run's state when it is live at {@code now}, without dropping anything. */
    Option<RunState> peek(RunId runId, Instant now) {
        return Option.of(runs.get(runId)).filter(state -> !state.expiredAt(now));
    }

    /**
     * Opens the run as {@link StoreRules#openRun} decides: a run held live keeps its token and state; a
     * new one is held with {@code offered}, when there is room for it (after {@code reclaim}), and
     * nothing written (the store full) otherwise; a new run's expiry is scheduled. The caller holds the run's stripe lock.
     */
    Either<StoreFailure, RunToken> open(RunId runId, RunToken offered, Instant expiresAt, Instant now, Room room,
            Runnable reclaim, Expiries expiries) {
        RunState held = live(runId, now, room);
        RunToken token = StoreRules.openRun(Option.of(held).map(RunState::token), offered);
        if (held != null) {
            return Either.right(token);
        }
        if (!room.admitRun()) {
            reclaim.run();
            if (!room.admitRun()) {
                return Either.left(StoreFailure.full());
            }
        }
        RunState opened = new RunState(runId, token, expiresAt);
        runs.put(runId, opened);
        expiries.schedule(opened);
        return Either.right(token);
    }

    /** Drops the run's state when it has expired at {@code now}. */
    void dropIfExpired(RunId runId, Instant now, Room room) {
        RunState state = runs.get(runId);
        if (state != null && state.expiredAt(now) && runs.remove(runId, state)) {
            room.releaseRun();
        }
    }

    /** Drops every expired run now. */
    void dropExpired(Instant now, Room room) {
        runs.keySet().forEach(runId -> dropIfExpired(runId, now, room));
    }

    /** How many runs are held, live or not yet dropped. */
    int size() {
        return runs.size();
    }

    /**
     * One run: the token it was opened with, its expiry, its budget counters and its ledger of the calls
     * it began, each with its request fingerprint (under its stripe lock). The ledger lives as long as
     * the run, past the records.
     */
    static final class RunState {
        private final RunId runId;
        private final RunToken token;
        private final Instant expiresAt;
        private long calls;
        /** Each tool's calls, in a one-element array so that a reservation boxes nothing. */
        private final Map<ToolName, long[]> toolCalls = new HashMap<>();
        private final Map<ToolCallId, String> begun = new HashMap<>();

        RunState(RunId runId, RunToken token, Instant expiresAt) {
            this.runId = runId;
            this.token = token;
            this.expiresAt = expiresAt;
        }

        RunId runId() {
            return runId;
        }

        RunToken token() {
            return token;
        }

        Instant expiresAt() {
            return expiresAt;
        }

        boolean expiredAt(Instant now) {
            return !now.isBefore(expiresAt);
        }

        long calls() {
            return calls;
        }

        long calls(ToolName tool) {
            long[] counted = toolCalls.get(tool);
            return counted == null ? 0L : counted[0];
        }

        /** The fingerprint of the call when the run began it. */
        Option<String> begun(ToolCallId toolCallId) {
            return Option.of(begun.get(toolCallId));
        }

        /** Counts one call of {@code tool} and enters it in the ledger. */
        void reserve(ToolName tool, ToolCallId toolCallId, String fingerprint) {
            calls++;
            toolCalls.computeIfAbsent(tool, first -> new long[1])[0]++;
            begun.put(toolCallId, fingerprint);
        }
    }
}
