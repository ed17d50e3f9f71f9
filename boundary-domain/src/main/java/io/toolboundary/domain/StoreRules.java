package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;

/**
 * The decisions every store of canonical records makes, as pure functions over what it holds under one
 * key: whether a begin creates a record, returns the one a retry of the same attempt made, or is
 * refused; whether a completion, an end by token or an abandonment is applied. A store supplies a
 * snapshot ({@link Held}) taken inside its own atomic step and writes what the rule answers; the
 * in-memory store and the testkit's reference model call these functions, and the Redis store's Lua
 * scripts are their one mirror, which the contract suites run against the same cases.
 *
 * <p>Size limits, expiry and the store's bounds are not decided here: a store checks them before or
 * around these rules, as the port's Javadoc orders.
 */
public final class StoreRules {

    private StoreRules() {
    }

    /**
     * What a store holds under a key, seen by one caller.
     *
     * @param record the live record (an expired one is not held)
     * @param sameAttempt whether the caller's attempt token is the one that began it
     */
    public record Held(CanonicalRecord record, boolean sameAttempt) {
        /**
         * A snapshot of one key.
         *
         * @param record the live record
         * @param sameAttempt whether the caller's attempt token began it
         * @throws NullPointerException when the record is null
         */
        public Held {
            requireNonNull(record, "record is null");
        }
    }

    /**
     * Decides a begin, after the record's size was found within its limit. Checked in this order: the
     * run, the key (the record held, else the run's ledger of the calls it began), the run's budget, the
     * tool's budget.
     *
     * @param runOpen whether the store holds the run as the caller knows it: opened with the token the
     *     caller's run context carries, and no older than what the caller saw of it; when it does not
     *     (never opened here, its state lost, or an older copy of it), every call of it is refused
     * @param held what is stored under the key, if anything
     * @param begun the fingerprint the run's ledger holds for this call, if the run began it before:
     *     the ledger outlives the call's record, so a call whose record expired or was lost is still
     *     known as begun
     * @param fingerprint the new record's request fingerprint
     * @param runUsed records the run has created so far (live budget counter)
     * @param runBudget records the run may create in all
     * @param toolUsed records the run has created for this tool so far
     * @param toolBudget records the run may create for this tool
     * @return none: create the record, enter it in the ledger and reserve one call of each budget; the
     *     stored record: a retry of the same attempt while it is PROJECTING, nothing to write; or the
     *     refusal ({@code RUN_STATE_LOST}, {@code DUPLICATE_TOOL_CALL}, {@code TOOL_CALL_ID_REUSED},
     *     {@code RUN_BUDGET_EXHAUSTED}, {@code TOOL_BUDGET_EXHAUSTED}), nothing to write
     */
    public static Either<BoundaryError, Option<CanonicalRecord.Projecting>> begin(boolean runOpen, Option<Held> held,
            Option<String> begun, String fingerprint, long runUsed, int runBudget, long toolUsed, int toolBudget) {
        requireNonNull(held, "held is null");
        requireNonNull(begun, "begun is null");
        requireNonNull(fingerprint, "fingerprint is null");
        if (!runOpen) {
            // Without the run's state the store cannot know what ran: whatever the key holds, refuse.
            return refuse(ErrorCode.RUN_STATE_LOST);
        }
        if (held.isDefined()) {
            Held stored = held.get();
            if (stored.sameAttempt() && stored.record() instanceof CanonicalRecord.Projecting own) {
                return Either.right(Option.some(own));
            }
            return refuse(stored.record().requestFingerprint().equals(fingerprint)
                    ? ErrorCode.DUPLICATE_TOOL_CALL
                    : ErrorCode.TOOL_CALL_ID_REUSED);
        }
        if (begun.isDefined()) {
            // The record is gone (expired, or lost on its own): the call ran, and never runs again.
            return refuse(begun.get().equals(fingerprint) ? ErrorCode.DUPLICATE_TOOL_CALL : ErrorCode.TOOL_CALL_ID_REUSED);
        }
        if (runUsed >= runBudget) {
            return refuse(ErrorCode.RUN_BUDGET_EXHAUSTED);
        }
        if (toolUsed >= toolBudget) {
            return refuse(ErrorCode.TOOL_BUDGET_EXHAUSTED);
        }
        return Either.right(Option.none());
    }

    /**
     * Decides the opening of a run: the token it was opened with stays, so that opening it again (a
     * retry, or a second process of the same run) changes nothing; a run the store does not hold is
     * opened with the offered token.
     *
     * @param <T> the token type
     * @param held the token the store holds for the run, if it holds the run
     * @param offered the token to open the run with when it is not held
     * @return the run's token after the opening: the held one, else the offered one (to store)
     */
    public static <T> T openRun(Option<T> held, T offered) {
        requireNonNull(held, "held is null");
        requireNonNull(offered, "offered is null");
        return held.getOrElse(offered);
    }

    /**
     * Decides a completion by the attempt that began the record. The attempt's token proves that the
     * outcome completes that record; the outcome carries only what the completion adds.
     *
     * @param held what is stored under the key, if anything
     * @param outcome what the attempt's completion adds: raw response, agent result or error code, time
     * @return the record to store (the held PROJECTING record completed with the outcome, see
     *     {@link CanonicalRecord.Projecting#complete(Outcome)}) when the held record is PROJECTING; the held
     *     record unchanged when it is already final with exactly this outcome (a retry);
     *     {@code RECORD_EXPIRED} when nothing is held; {@code RECORD_CONFLICT} when another attempt began it
     *     or it is final with another outcome
     */
    public static Either<BoundaryError, CanonicalRecord.Final> complete(Option<Held> held, Outcome outcome) {
        requireNonNull(held, "held is null");
        requireNonNull(outcome, "outcome is null");
        return ownRecord(held).flatMap(own -> own instanceof CanonicalRecord.Final done
                ? done.outcome().equals(outcome) ? Either.right(done) : refuse(ErrorCode.RECORD_CONFLICT)
                : Either.right(((CanonicalRecord.Projecting) own).complete(outcome)));
    }

    /**
     * Decides the end of an attempt's record by its token alone, for a begin or complete that got no
     * definite answer.
     *
     * @param held what is stored under the key, if anything
     * @param code the error code to end the record with
     * @param now becomes the ended record's {@code updatedAt}
     * @return the ERROR record to store (no raw response) when the held record is PROJECTING; the held
     *     record unchanged when it is final already (the attempt's own completion landed);
     *     {@code RECORD_EXPIRED} when nothing is held; {@code RECORD_CONFLICT} when another attempt began it
     */
    public static Either<BoundaryError, CanonicalRecord.Final> end(Option<Held> held, ErrorCode code, Instant now) {
        requireNonNull(held, "held is null");
        requireNonNull(code, "code is null");
        requireNonNull(now, "now is null");
        return ownRecord(held).map(own -> own instanceof CanonicalRecord.Final done
                ? done
                : ((CanonicalRecord.Projecting) own).failed(code, Option.none(), now));
    }

    /**
     * Decides an abandonment of a record left PROJECTING past its execution lease.
     *
     * @param held the record stored under the key, if any
     * @param leasePassed whether the store's own clock is at or after the record's lease
     * @param now the caller's instant; becomes the abandoned record's {@code updatedAt}
     * @return the ERROR/{@code EXECUTION_ABANDONED} record to store; the held record unchanged when it was
     *     abandoned before (a retry); {@code RECORD_EXPIRED} when nothing is held; {@code RECORD_CONFLICT}
     *     when it is final otherwise; {@code LEASE_NOT_EXPIRED} while the lease runs
     */
    public static Either<BoundaryError, CanonicalRecord.Failed> abandon(Option<CanonicalRecord> held,
            boolean leasePassed, Instant now) {
        requireNonNull(held, "held is null");
        requireNonNull(now, "now is null");
        if (held.isEmpty()) {
            return refuse(ErrorCode.RECORD_EXPIRED);
        }
        CanonicalRecord record = held.get();
        if (record instanceof CanonicalRecord.Failed failed && failed.code() == ErrorCode.EXECUTION_ABANDONED) {
            return Either.right(failed);
        }
        if (!(record instanceof CanonicalRecord.Projecting projecting)) {
            return refuse(ErrorCode.RECORD_CONFLICT);
        }
        if (!leasePassed) {
            return refuse(ErrorCode.LEASE_NOT_EXPIRED);
        }
        return Either.right(projecting.failed(ErrorCode.EXECUTION_ABANDONED, Option.none(), now));
    }

    /** The held record when the caller's attempt began it; {@code RECORD_EXPIRED} or {@code RECORD_CONFLICT} otherwise. */
    private static Either<BoundaryError, CanonicalRecord> ownRecord(Option<Held> held) {
        if (held.isEmpty()) {
            return refuse(ErrorCode.RECORD_EXPIRED);
        }
        return held.get().sameAttempt() ? Either.right(held.get().record()) : refuse(ErrorCode.RECORD_CONFLICT);
    }

    private static <T> Either<BoundaryError, T> refuse(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }
}
