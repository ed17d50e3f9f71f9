package io.toolboundary.application;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;

/**
 * Where canonical records live: one record per {@link InvocationKey}, with a time to live set once at
 * creation. Implementations must keep every promise below under concurrency; the testkit's
 * {@code CanonicalInvocationStoreContract} proves them.
 *
 * <p>No method throws for an infrastructure failure: each maps it to a safe {@link BoundaryError}
 * ({@code STORE_UNAVAILABLE}, {@code STORE_OUTCOME_UNKNOWN}, {@code STORE_FULL},
 * {@code STORE_DATA_INVALID}) whose text carries no key, payload or exception message.
 */
public interface CanonicalInvocationStore {

    /**
     * Atomically creates a PROJECTING record and reserves one call of the run's and the tool's
     * budget.
     *
     * <p>Refuses, reserving nothing and changing nothing: {@code DUPLICATE_TOOL_CALL} when a record
     * with this key exists with the same request fingerprint, {@code TOOL_CALL_ID_REUSED} when it exists
     * with another, {@code RUN_BUDGET_EXHAUSTED} or {@code TOOL_BUDGET_EXHAUSTED} when a budget is
     * used up, {@code RESULT_TOO_LARGE} when the record is over the store's record limit. A begin
     * repeated with the same token while the record is still PROJECTING (a client retry) returns the
     * stored record and reserves nothing more; once the record is final it is a duplicate like any
     * other. Refusals are checked in this order: record size, existing key, run budget, tool budget. The record's TTL is set here and nowhere else; so is its execution lease, kept beside it. A budget counter gets the TTL of the record
     * that creates it, once, so a run's budget holds for one TTL from its first call.
     *
     * @param start the record, token, TTL, execution lease and budgets
     * @return the stored PROJECTING record
     */
    Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start);

    /**
     * Compare-and-set from PROJECTING to a final record, by token, keeping the remaining TTL.
     *
     * <p>Returns {@code RECORD_EXPIRED} when the record is gone (it is never re-created),
     * {@code RECORD_CONFLICT} when the token is another attempt's or the record is already final with
     * other content, {@code RESULT_TOO_LARGE} when the final record is over the store's record limit
     * (nothing is written). Repeating the same completion with the same token returns the stored record.
     *
     * @param token the token given to {@link #begin}
     * @param outcome the READY or ERROR record
     * @return the stored final record
     */
    Either<BoundaryError, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final outcome);

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
     * retry is safe). The lease has passed when {@code now} is at or after it; {@code now} is the
     * caller's clock, never the store's.
     *
     * @param key the canonical key
     * @param now the caller's current instant; becomes the record's {@code updatedAt}
     * @return the stored ERROR record
     */
    Either<BoundaryError, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now);

    /**
     * Reads a record. Never extends or otherwise changes its time to live.
     *
     * @param key the canonical key
     * @return the record, or none when there is none or it has expired
     */
    Either<BoundaryError, Option<CanonicalRecord>> find(InvocationKey key);
}
