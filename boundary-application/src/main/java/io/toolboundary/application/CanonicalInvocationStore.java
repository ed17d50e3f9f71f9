package io.toolboundary.application;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Outcome;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * Where canonical records live: one record per {@link InvocationKey}, with a time to live set once at
 * creation. Implementations must keep every promise below under concurrency; the testkit's
 * {@code CanonicalInvocationStoreContract} proves them.
 *
 * <p>No method throws for an infrastructure failure: each maps it to a safe {@link BoundaryError}
 * whose text carries no key, payload or exception message. The store codes say what may have
 * happened: {@code STORE_UNAVAILABLE} and {@code STORE_FULL} mean that nothing was written, provably
 * (no connection was had, or the server refused before running anything); {@code STORE_OUTCOME_UNKNOWN}
 * means that the operation may or may not have taken effect (it was sent and no answer came, or the
 * answer was lost); {@code STORE_DATA_INVALID} means that the store holds something that is not a
 * record of this library.
 *
 * <p>Every method takes a {@code timeout}: it returns within it (plus scheduling noise) whatever the
 * store's server does, its own retries included, and it is never cut short by the calling thread's
 * interrupt flag, which it leaves as it found it (an interrupt that arrives meanwhile is kept for the
 * caller). The forms without a timeout use {@link #DEFAULT_TIMEOUT}.
 */
public interface CanonicalInvocationStore {

    /** The timeout of the methods that take none: 5 seconds. */
    Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Opens a run: unless the store holds the run already, creates its state (the token it is opened
     * with, and the run's and its tools' budget counters, at zero) with a TTL set once, here, and never
     * refreshed. Opening a run the store holds changes nothing and answers the token it was opened with,
     * so a retry, or a second process of the same run, gets the same token. Every {@link #begin} of the
     * run requires this state with this token in the same atomic step: when it is gone (the store was
     * restarted without persistence, flushed, evicted it, or failed over to a copy that never had it),
     * every later begin of the run is refused with {@code RUN_STATE_LOST}, whatever is stored under its
     * key, so no tool of the run runs again.
     *
     * @param runId the run
     * @param offered the token to open the run with when the store does not hold it
     * @param ttl how long the run's state lives: at least the time to the run's deadline plus the
     *     record TTL, so that it outlives every record of the run
     * @param timeout the longest this call may take
     * @return the run's token: the offered one, or the one it was opened with before
     */
    Either<BoundaryError, RunToken> openRun(RunId runId, RunToken offered, Duration ttl, Duration timeout);

    /**
     * {@link #openRun(RunId, RunToken, Duration, Duration)} with {@link #DEFAULT_TIMEOUT}.
     *
     * @param runId the run
     * @param offered the token to open the run with when the store does not hold it
     * @param ttl how long the run's state lives
     * @return the run's token
     */
    default Either<BoundaryError, RunToken> openRun(RunId runId, RunToken offered, Duration ttl) {
        return openRun(runId, offered, ttl, DEFAULT_TIMEOUT);
    }

    /**
     * Atomically creates a PROJECTING record and reserves one call of the run's and the tool's
     * budget, in the run's state.
     *
     * <p>Refuses, reserving nothing and changing nothing: {@code RUN_STATE_LOST} when the store does not
     * hold the run opened with {@link InvocationStart#runToken()} (see {@link #openRun}),
     * {@code DUPLICATE_TOOL_CALL} when a record
     * with this key exists with the same request fingerprint, {@code TOOL_CALL_ID_REUSED} when it exists
     * with another, {@code RUN_BUDGET_EXHAUSTED} or {@code TOOL_BUDGET_EXHAUSTED} when a budget is
     * used up, {@code RESULT_TOO_LARGE} when the record is over {@link InvocationStart#recordLimitBytes()}
     * (or a hard cap of the store's own, see {@link #recordCapBytes()}). A begin
     * repeated with the same token while the record is still PROJECTING (a client retry) returns the
     * stored record and reserves nothing more; once the record is final it is a duplicate like any
     * other. Refusals are checked in this order: record size (the record's own count,
     * {@link CanonicalRecord#byteSize()}), run, existing key, run budget, tool budget. The record's TTL is set here and nowhere else; so is its execution lease, kept beside it.
     * The budget counters live in the run's state, whose TTL was set when the run was opened.
     *
     * @param start the record, tokens, TTL, execution lease, budgets and record limit
     * @param timeout the longest this call may take
     * @return the stored PROJECTING record
     */
    Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout);

    /**
     * {@link #begin(InvocationStart, Duration)} with {@link #DEFAULT_TIMEOUT}.
     *
     * @param start the record, token, TTL, execution lease, budgets and record limit
     * @return the stored PROJECTING record
     */
    default Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start) {
        return begin(start, DEFAULT_TIMEOUT);
    }

    /**
     * Compare-and-set from PROJECTING to a final record, by token, keeping the remaining TTL: the record
     * becomes its PROJECTING self completed with {@code outcome}
     * ({@link CanonicalRecord.Projecting#complete(Outcome)}). The token proves which record the outcome
     * completes, so only what the completion adds is passed (never the request again), and the store
     * answers only with the stored outcome: the caller, which holds the PROJECTING record its begin
     * returned, builds the final record from the two. {@code StoreRules.complete} decides.
     *
     * <p>Returns {@code RECORD_EXPIRED} when the record is gone (it is never re-created),
     * {@code RECORD_CONFLICT} when the token is another attempt's or the record is already final with
     * another outcome and {@code RESULT_TOO_LARGE} when the final record would be over the store's hard cap
     * (nothing is written). The outcome's texts are Unicode and counted ({@link Outcome#byteSize()}) when
     * it is made: a store uses that count and never scans them again. Repeating the same completion with the same token returns the stored outcome.
     *
     * @param key the canonical key of the record the attempt began
     * @param token the token given to {@link #begin}
     * @param outcome what the completion adds: the raw response, agent result or error code, and time
     * @param timeout the longest this call may take
     * @return the stored outcome, equal to {@code outcome}
     */
    Either<BoundaryError, Outcome> complete(InvocationKey key, AttemptToken token, Outcome outcome, Duration timeout);

    /**
     * {@link #complete(InvocationKey, AttemptToken, Outcome, Duration)} with {@link #DEFAULT_TIMEOUT}.
     *
     * @param key the canonical key of the record the attempt began
     * @param token the token given to {@link #begin}
     * @param outcome what the completion adds
     * @return the stored outcome
     */
    default Either<BoundaryError, Outcome> complete(InvocationKey key, AttemptToken token, Outcome outcome) {
        return complete(key, token, outcome, DEFAULT_TIMEOUT);
    }

    /**
     * Ends the record an attempt began, by its token alone, in ERROR with {@code code} and no raw
     * response: a compare-and-set from PROJECTING that keeps the remaining TTL. For an attempt whose
     * begin or complete got no definite answer, so that its record never stays PROJECTING; safe to
     * repeat, and harmless when no record exists.
     *
     * <p>Returns the stored final record when the record is final already with this token (the
     * attempt's own completion landed; it is left as it is), {@code RECORD_EXPIRED} when there is no
     * record (it is never created), and {@code RECORD_CONFLICT} when the record belongs to another
     * attempt.
     *
     * @param key the canonical key
     * @param token the attempt's token
     * @param code the record's error code
     * @param now becomes the record's {@code updatedAt}
     * @param timeout the longest this call may take
     * @return the stored final record
     */
    Either<BoundaryError, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout);

    /**
     * Ends a record left PROJECTING past its execution lease in ERROR with
     * {@code EXECUTION_ABANDONED}: a compare-and-set that keeps the remaining TTL and the raw response
     * absent. Whatever the attempt that began the record does later, its completion is refused with
     * {@code RECORD_CONFLICT}.
     *
     * <p>Returns {@code RECORD_EXPIRED} when the record is gone (it is never re-created),
     * {@code LEASE_NOT_EXPIRED} when it is PROJECTING and {@code now} is before its lease (a record
     * stored without a lease is leased for its whole life) and {@code RECORD_CONFLICT} when it is final
     * already, except that abandoning an abandoned record again returns the stored record unchanged (a
     * retry is safe). The lease has passed when the store's own clock (for Redis, the server's
     * {@code TIME}) is at or after it; the caller's {@code now} only becomes the record's
     * {@code updatedAt}, so a caller whose clock steps forward cannot end a call that is still running.
     *
     * @param key the canonical key
     * @param now the caller's current instant; becomes the record's {@code updatedAt}, and is not
     *     compared with the lease
     * @param timeout the longest this call may take
     * @return the stored ERROR record
     */
    Either<BoundaryError, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout);

    /**
     * {@link #abandon(InvocationKey, Instant, Duration)} with {@link #DEFAULT_TIMEOUT}.
     *
     * @param key the canonical key
     * @param now the caller's current instant; becomes the record's {@code updatedAt}
     * @return the stored ERROR record
     */
    default Either<BoundaryError, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now) {
        return abandon(key, now, DEFAULT_TIMEOUT);
    }

    /**
     * Reads a record. Never extends or otherwise changes its time to live.
     *
     * @param key the canonical key
     * @param timeout the longest this call may take
     * @return the record, or none when there is none or it has expired
     */
    Either<BoundaryError, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout);

    /**
     * {@link #find(InvocationKey, Duration)} with {@link #DEFAULT_TIMEOUT}.
     *
     * @param key the canonical key
     * @return the record, or none when there is none or it has expired
     */
    default Either<BoundaryError, Option<CanonicalRecord>> find(InvocationKey key) {
        return find(key, DEFAULT_TIMEOUT);
    }

    /**
     * Lists the tool_call_ids of the records a run has in this store, a page at a time, for the harness's
     * sweeps (such as {@code ToolBoundary.abandonExpired(RunId)}); never for the agent. Reads only: it
     * never changes a record or its time to live.
     *
     * <p>The ids are ordered by their text ({@link String#compareTo}); a page holds the first {@code limit}
     * of those strictly after {@code after} (all of them when it is none), each once, and says whether
     * further ones exist, so that pages asked for with the last id of the previous one as {@code after}
     * list every record of the run once. A record that exists for the whole listing is listed; one
     * created or expiring meanwhile may or may not be. An expired record is never listed, nor is a budget
     * counter.
     *
     * @param runId the run
     * @param after the last id of the previous page, or none for the first page
     * @param limit the most ids to list, at least 1
     * @param timeout the longest this call may take
     * @return the page, or a store error (nothing is ever written, so a failure is
     *     {@code STORE_UNAVAILABLE} or {@code STORE_DATA_INVALID})
     * @throws IllegalArgumentException when {@code limit} is below 1
     */
    Either<BoundaryError, ToolCallIdPage> toolCallIds(RunId runId, Option<ToolCallId> after, int limit,
            Duration timeout);

    /**
     * The store's own hard cap on a record's size, in UTF-8 bytes as {@code CanonicalRecord.byteSize()}
     * counts them, if it has one. {@code ToolBoundaryBuilder.build()} refuses a store whose cap is below
     * the configured record limit, so that no record can be refused by size after its tool ran.
     *
     * @return the cap, or none (the default) when the store takes whatever the configured limit allows
     */
    default OptionalLong recordCapBytes() {
        return OptionalLong.empty();
    }
}
