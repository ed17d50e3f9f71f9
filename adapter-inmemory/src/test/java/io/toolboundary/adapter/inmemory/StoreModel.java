package io.toolboundary.adapter.inmemory;

import static io.toolboundary.adapter.inmemory.StoreOperations.BEGIN_RUN_TOKEN;
import static io.toolboundary.adapter.inmemory.StoreOperations.END_CODE;
import static io.toolboundary.adapter.inmemory.StoreOperations.LEASE_TICKS;
import static io.toolboundary.adapter.inmemory.StoreOperations.NONE;
import static io.toolboundary.adapter.inmemory.StoreOperations.RECORD_TTL_TICKS;
import static io.toolboundary.adapter.inmemory.StoreOperations.RUN_BUDGET;
import static io.toolboundary.adapter.inmemory.StoreOperations.RUN_TTL_TICKS;
import static io.toolboundary.adapter.inmemory.StoreOperations.TOOLS;
import static io.toolboundary.adapter.inmemory.StoreOperations.TOOL_BUDGET;

import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.spi.Refusal;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a store does, one operation at a time, on the key space of {@link StoreOperations}: the sequential
 * specification Lincheck checks every concurrent history against. Written from the store's contract and the
 * domain's rules (its own small state in ticks, not the store and not {@code StoreRules}): a begin is decided
 * by the run, then the key (the live record, else the run's ledger), then the run's budget, then the tool's;
 * a record lives {@value StoreOperations#RECORD_TTL_TICKS} ticks from its begin, its lease
 * {@value StoreOperations#LEASE_TICKS}; the run's state {@value StoreOperations#RUN_TTL_TICKS} ticks from its
 * opening, with its token, budget counters and ledger.
 */
public final class StoreModel {

    private static final String PROJECTING = "PROJECTING";
    private static final String READY = "READY";

    /** The store clock, in ticks since the start. */
    private long now;
    /** The token the run is held with; 0 when the store does not hold it. */
    private int runToken;
    private long runExpiresAt;
    private int runCalls;
    private final int[] toolCalls = new int[TOOLS.length];
    /** The tool each call was begun with in this opening of the run, -1 for none: the ledger. */
    private final int[] begun = new int[StoreOperations.CALLS.length];
    /** The live record of each call, or null. */
    private final Held[] records = new Held[StoreOperations.CALLS.length];

    /** The state before the operations: the run opened with token 1 at the start. */
    public StoreModel() {
        Arrays.fill(begun, -1);
        openRun(BEGIN_RUN_TOKEN);
    }

    /**
     * A live record.
     *
     * @param tool the tool it was begun for (its request)
     * @param attempt the attempt that began it
     * @param status PROJECTING, READY, or ERROR with its code
     * @param begunAt the tick of its begin
     */
    private record Held(int tool, int attempt, String status, long begunAt) {

        private static final String ERROR_PREFIX = "ERROR:";

        static String error(ErrorCode code) {
            return ERROR_PREFIX + code.name();
        }

        Held ended(String ending) {
            return new Held(tool, attempt, ending, begunAt);
        }

        boolean projecting() {
            return status.equals(PROJECTING);
        }

        String described() {
            return status.startsWith(ERROR_PREFIX)
                    ? "ERROR:" + TOOLS[tool] + ":" + status.substring(ERROR_PREFIX.length())
                    : status + ":" + TOOLS[tool];
        }
    }

    /**
     * A run the store holds answers its token; one it does not is opened afresh with {@code token}.
     *
     * @param token the offered token
     * @return the run's token
     */
    public String openRun(int token) {
        if (runToken == 0) {
            runToken = token;
            runExpiresAt = now + RUN_TTL_TICKS;
            runCalls = 0;
            Arrays.fill(toolCalls, 0);
            Arrays.fill(begun, -1);
        }
        return String.valueOf(runToken);
    }

    /**
     * Refused unless the run is held with the begin's token; the live record answers a retry of its own
     * PROJECTING attempt and refuses any other; a call the run's ledger holds is refused; then the budgets;
     * else a PROJECTING record is created, entered in the ledger and counted.
     *
     * @param call the call
     * @param tool the tool (the request)
     * @param attempt the attempt
     * @return the PROJECTING record, or the refusal
     */
    public String begin(int call, int tool, int attempt) {
        if (runToken != BEGIN_RUN_TOKEN) {
            return Refusal.RUN_STATE_LOST.name();
        }
        Held held = records[call];
        if (held != null) {
            if (held.attempt() == attempt && held.projecting()) {
                return held.described();
            }
            return sameOrReused(held.tool(), tool);
        }
        if (begun[call] >= 0) {
            return sameOrReused(begun[call], tool);
        }
        if (runCalls >= RUN_BUDGET) {
            return Refusal.RUN_BUDGET_EXHAUSTED.name();
        }
        if (toolCalls[tool] >= TOOL_BUDGET) {
            return Refusal.TOOL_BUDGET_EXHAUSTED.name();
        }
        records[call] = new Held(tool, attempt, PROJECTING, now);
        begun[call] = tool;
        runCalls++;
        toolCalls[tool]++;
        return records[call].described();
    }

    /**
     * By the attempt that began the record: PROJECTING of the same request becomes READY; READY of the same
     * request is answered as it is; anything else is a conflict; nothing live has expired.
     *
     * @param call the call
     * @param tool the tool (the request) completed
     * @param attempt the attempt
     * @return the READY record, or the refusal
     */
    public String complete(int call, int tool, int attempt) {
        Held held = records[call];
        if (held == null) {
            return Refusal.EXPIRED.name();
        }
        if (held.attempt() != attempt || held.tool() != tool) {
            return Refusal.CONFLICT.name();
        }
        if (held.projecting()) {
            records[call] = held.ended(READY);
            return records[call].described();
        }
        return held.status().equals(READY) ? held.described() : Refusal.CONFLICT.name();
    }

    /**
     * By the attempt that began the record: PROJECTING becomes ERROR with the end's code; a final record is
     * answered as it is.
     *
     * @param call the call
     * @param attempt the attempt
     * @return the final record, or the refusal
     */
    public String end(int call, int attempt) {
        Held held = records[call];
        if (held == null) {
            return Refusal.EXPIRED.name();
        }
        if (held.attempt() != attempt) {
            return Refusal.CONFLICT.name();
        }
        if (held.projecting()) {
            records[call] = held.ended(Held.error(END_CODE));
        }
        return records[call].described();
    }

    /**
     * A PROJECTING record whose lease has passed becomes ERROR/EXECUTION_ABANDONED, which is answered as it is
     * after; any other final record is a conflict.
     *
     * @param call the call
     * @return the abandoned record, or the refusal
     */
    public String abandon(int call) {
        Held held = records[call];
        String abandoned = Held.error(ErrorCode.EXECUTION_ABANDONED);
        if (held == null) {
            return Refusal.EXPIRED.name();
        }
        if (held.status().equals(abandoned)) {
            return held.described();
        }
        if (!held.projecting()) {
            return Refusal.CONFLICT.name();
        }
        if (now < held.begunAt() + LEASE_TICKS) {
            return Refusal.LEASE_NOT_EXPIRED.name();
        }
        records[call] = held.ended(abandoned);
        return records[call].described();
    }

    /**
     * {@return the live record, or none}
     *
     * @param call the call
     */
    public String find(int call) {
        Held held = records[call];
        return held == null ? NONE : held.described();
    }

    /** One tick passes: records and the run whose time has come are gone (the run with its ledger). */
    public void advance() {
        now++;
        for (int call = 0; call < records.length; call++) {
            if (records[call] != null && now >= records[call].begunAt() + RECORD_TTL_TICKS) {
                records[call] = null;
            }
        }
        if (runToken != 0 && now >= runExpiresAt) {
            runToken = 0;
            runExpiresAt = 0;
            runCalls = 0;
            Arrays.fill(toolCalls, 0);
            Arrays.fill(begun, -1);
        }
    }

    private static String sameOrReused(int stored, int tool) {
        return (stored == tool ? Refusal.DUPLICATE : Refusal.ID_REUSED).name();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StoreModel that && now == that.now && runToken == that.runToken
                && runExpiresAt == that.runExpiresAt && runCalls == that.runCalls
                && Arrays.equals(toolCalls, that.toolCalls) && Arrays.equals(begun, that.begun)
                && Arrays.equals(records, that.records);
    }

    @Override
    public int hashCode() {
        return Objects.hash(now, runToken, runExpiresAt, runCalls, Arrays.hashCode(toolCalls),
                Arrays.hashCode(begun), Arrays.hashCode(records));
    }
}
