package io.toolboundary.application.spi;

import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Where canonical records live: one record per {@link InvocationKey}, with a time to live set once at
 * creation. Implementations keep every promise below under concurrency; the store TCK proves them.
 *
 * <p>No method throws for an infrastructure failure: each answers a {@link StoreFailure} that says what
 * may have happened (nothing written, outcome unknown, data invalid) or why the store refused
 * ({@link Refusal}). Every method returns within its {@code timeout} (plus scheduling noise), whatever
 * the server does, its own retries included; it is never cut short by the calling thread's interrupt
 * flag, which it leaves as it found it (an interrupt that arrives meanwhile is kept for the caller).
 */
public interface CanonicalInvocationStore {

    /**
     * Opens a run: unless the store holds it already, creates its state (the offered token and the
     * budget counters at zero) with a TTL set once, here. Opening a held run changes nothing and answers
     * the token it was opened with. Every {@link #begin} requires this state with this token in the same
     * atomic step: once it is gone (restart without persistence, flush, eviction, failover), every begin
     * of the run is refused with {@link Refusal#RUN_STATE_LOST}, so no tool of the run runs again.
     *
     * @param opening the run, the token to offer and the state's TTL
     * @param timeout the longest this call may take
     * @return the run's token: the offered one, or the one it was opened with before
     */
    Either<StoreFailure, RunToken> openRun(RunOpening opening, Duration timeout);

    /**
     * Atomically creates a PROJECTING record, with its TTL and execution lease, and reserves one call of the
     * run's and the tool's budget (counters in the run's state). Refuses, changing nothing, in this order:
     * {@link Refusal#TOO_LARGE} (over {@link InvocationStart#recordLimitBytes()} or {@link #recordCapBytes()}),
     * then as {@code StoreRules.begin} decides. A begin repeated with the same token while the record is
     * PROJECTING returns it and reserves nothing more.
     *
     * @param start the record, tokens, TTL, execution lease, budgets and record limit
     * @param timeout the longest this call may take
     * @return the stored PROJECTING record
     */
    Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout);

    /**
     * Compare-and-set from PROJECTING to final, by token, keeping the remaining TTL: the stored PROJECTING
     * record becomes {@code record}, which the attempt built from it, as {@code StoreRules.complete}
     * decides. Only what the completion adds need be sent (the token proves which record it completes).
     * Repeating it returns the stored record. Refuses {@link Refusal#EXPIRED} (never re-created),
     * {@link Refusal#CONFLICT} (another attempt's token, or final otherwise) and {@link Refusal#TOO_LARGE}
     * (over the store's hard cap).
     *
     * @param token the token given to {@link #begin}
     * @param record the final record: the attempt's PROJECTING record completed
     * @param timeout the longest this call may take
     * @return the stored final record, equal to {@code record}
     */
    Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
            Duration timeout);

    /**
     * Ends the record an attempt began, by its token alone, in ERROR with {@code code} and no raw response,
     * keeping the remaining TTL: for an attempt whose begin or complete got no definite answer. Safe to
     * repeat. Returns the stored record unchanged when it is final already with this token; refuses
     * {@link Refusal#EXPIRED} (never created) and {@link Refusal#CONFLICT} (another attempt's).
     *
     * @param key the canonical key
     * @param token the attempt's token
     * @param code the record's error code
     * @param now becomes the record's {@code updatedAt}
     * @param timeout the longest this call may take
     * @return the stored final record
     */
    Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout);

    /**
     * Ends a record left PROJECTING past its execution lease in ERROR with {@code EXECUTION_ABANDONED}, keeping
     * the remaining TTL; a later completion is refused. The lease is judged by the store's own clock
     * ({@code now} only becomes {@code updatedAt}); a record stored without a lease is leased for its whole
     * life. Abandoning again returns the record unchanged; refuses {@link Refusal#EXPIRED},
     * {@link Refusal#LEASE_NOT_EXPIRED} and {@link Refusal#CONFLICT} (final otherwise).
     *
     * @param key the canonical key
     * @param now the caller's instant; becomes the record's {@code updatedAt}
     * @param timeout the longest this call may take
     * @return the stored ERROR record
     */
    Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout);

    /**
     * {@return the record, or none when there is none or it has expired} Never changes its time to live.
     *
     * @param key the canonical key
     * @param timeout the longest this call may take
     */
    Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout);

    /**
     * {@return the live records of a run's named calls, by tool_call_id; a call with no record (or an expired
     * one) is absent} Never changes a time to live; reads no other run. The default reads one record at a
     * time with {@link #find}: a store across a network reads them all in one round trip.
     *
     * @param runId the run
     * @param toolCallIds the calls to read, at most {@value #MAX_FIND_ALL}
     * @param timeout the longest this call may take
     * @throws IllegalArgumentException when more than {@value #MAX_FIND_ALL} calls are named
     */
    default Either<StoreFailure, Map<ToolCallId, CanonicalRecord>> findAll(RunId runId, Set<ToolCallId> toolCallIds,
            Duration timeout) {
        requireFindAll(runId, toolCallIds, timeout);
        Map<ToolCallId, CanonicalRecord> found = new LinkedHashMap<>();
        for (ToolCallId toolCallId : toolCallIds) {
            Either<StoreFailure, Option<CanonicalRecord>> one = find(InvocationKey.of(runId, toolCallId), timeout);
            if (one.isLeft()) {
                return Either.left(one.getLeft());
            }
            one.get().forEach(record -> found.put(toolCallId, record));
        }
        return Either.right(Collections.unmodifiableMap(found));
    }

    /**
     * {@return how each of a run's named calls may be cited, by tool_call_id; a call with no live record is
     * absent} What {@link #findAll} answers, reduced to each record's {@link CanonicalRecord#referencability()}:
     * a store across a network reads only each record's status and evidence, in one round trip, never its
     * request or raw response.
     *
     * @param runId the run
     * @param toolCallIds the calls to read, at most {@value #MAX_FIND_ALL}
     * @param timeout the longest this call may take
     * @throws IllegalArgumentException when more than {@value #MAX_FIND_ALL} calls are named
     */
    default Either<StoreFailure, Map<ToolCallId, Referencability>> referencabilities(RunId runId,
            Set<ToolCallId> toolCallIds, Duration timeout) {
        return findAll(runId, toolCallIds, timeout).map(records -> {
            Map<ToolCallId, Referencability> citable = new LinkedHashMap<>();
            records.forEach((toolCallId, record) -> citable.put(toolCallId, record.referencability()));
            return Collections.unmodifiableMap(citable);
        });
    }

    /** The most calls one {@link #findAll} may name. */
    int MAX_FIND_ALL = 256;

    /**
     * Checks the arguments of {@link #findAll}, for implementations.
     *
     * @param runId the run
     * @param toolCallIds the calls to read
     * @param timeout the longest the call may take
     * @throws IllegalArgumentException when more than {@value #MAX_FIND_ALL} calls are named
     */
    static void requireFindAll(RunId runId, Set<ToolCallId> toolCallIds, Duration timeout) {
        Objects.requireNonNull(runId, "runId is null");
        Objects.requireNonNull(toolCallIds, "toolCallIds is null");
        Objects.requireNonNull(timeout, "timeout is null");
        if (toolCallIds.size() > MAX_FIND_ALL) {
            throw new IllegalArgumentException("at most " + MAX_FIND_ALL + " calls may be read at once, not "
                    + toolCallIds.size());
        }
    }

    /**
     * Lists the tool_call_ids of a run's live records, in {@link String#compareTo} order, a page at a time, for
     * the harness's sweeps: the first {@code limit} ids after {@code after}, and whether more exist. A record
     * that lives through the listing is listed once; one created or expiring meanwhile may or may not be.
     *
     * @param request the run, the last id of the previous page and the most ids to list
     * @param timeout the longest this call may take
     * @return the page, or a failure ({@link StoreFailure#unavailable() unavailable} or {@link StoreFailure#dataInvalid() data invalid})
     */
    Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, Duration timeout);

    /**
     * {@return the store's own hard cap on a record's size in UTF-8 bytes, or none (the default)}
     * {@code ToolBoundaryBuilder.build()} refuses a store whose cap is below the configured record limit.
     */
    default OptionalLong recordCapBytes() {
        return OptionalLong.empty();
    }

    /**
     * {@return the outbox this store appends each record to as it becomes final, or none (the default:
     * export is off)} Configured when the store is built; the same outbox on every call.
     */
    default Option<RecordOutbox> outbox() {
        return Option.none();
    }
}
