package io.toolboundary.domain.spi;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;

/**
 * The decisions every store of canonical records makes, as pure functions over a snapshot of one key taken
 * inside the store's atomic step. A store carries the decision out; the Redis store's scripts mirror these
 * rules and the store TCK checks both. Size limits, expiry and the store's own bounds are its own checks.
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
         */
        public Held {
            requireNonNull(record, "record is null");
        }
    }

    /**
     * A decided change of a record: write it, or answer it as it is stored (a retry).
     *
     * @param <F> the final record's type
     * @param record the final record to write, or the stored one
     * @param write true to store {@code record}, keeping the remaining TTL; false when it is stored already
     */
    public record Change<F extends CanonicalRecord.Final>(F record, boolean write) {
        /**
         * A decided change.
         *
         * @param record the final record
         * @param write whether to store it
         */
        public Change {
            requireNonNull(record, "record is null");
        }
    }

    /**
     * What the store holds of a run, opened with the caller's run token and no older than the caller saw it.
     *
     * @param begun the fingerprint the run's ledger holds for this call, if the run began it before (the
     *     ledger outlives the call's record)
     * @param runCalls records the run has created so far
     * @param toolCalls records the run has created for this tool so far
     */
    public record RunLedger(Option<String> begun, long runCalls, long toolCalls) {
        /**
         * A snapshot of the run.
         *
         * @param begun the fingerprint the ledger holds for this call, if any
         * @param runCalls records the run has created
         * @param toolCalls records the run has created for this tool
         */
        public RunLedger {
            requireNonNull(begun, "begun is null");
        }
    }

    /**
     * Decides a begin, after the record's size was found within its limit. Checked in this order: the run,
     * the key (the record held, else the run's ledger), the run's budget, the tool's budget.
     *
     * @param run the run as the caller knows it, or none when the store does not hold it so (never opened
     *     here, its state lost, or an older copy of it): then every call of it is refused
     * @param held what is stored under the key, if anything
     * @param fingerprint the new record's request fingerprint
     * @param runBudget records the run may create in all
     * @param toolBudget records the run may create for this tool
     * @return right and empty: create the record, enter it in the ledger, reserve one call of each budget;
     *     right with the stored PROJECTING record: a retry of the same attempt, write nothing; left: refused
     *     ({@link Refusal#RUN_STATE_LOST}, {@link Refusal#DUPLICATE}, {@link Refusal#ID_REUSED},
     *     {@link Refusal#RUN_BUDGET_EXHAUSTED}, {@link Refusal#TOOL_BUDGET_EXHAUSTED}), write nothing
     */
    public static Either<Refusal, Option<CanonicalRecord.Projecting>> begin(Option<RunLedger> run,
            Option<Held> held, String fingerprint, int runBudget, int toolBudget) {
        requireNonNull(run, "run is null");
        requireNonNull(held, "held is null");
        requireNonNull(fingerprint, "fingerprint is null");
        if (run.isEmpty()) {
            // Without the run's state the store cannot know what ran: whatever the key holds, refuse.
            return Either.left(Refusal.RUN_STATE_LOST);
        }
        if (held.isDefined()) {
            Held stored = held.get();
            if (stored.sameAttempt() && stored.record() instanceof CanonicalRecord.Projecting own) {
                return Either.right(Option.some(own));
            }
            return Either.left(sameOrReused(stored.record().requestFingerprint(), fingerprint));
        }
        RunLedger ledger = run.get();
        if (ledger.begun().isDefined()) {
            // The record is gone (expired, or lost on its own): the call ran, and never runs again.
            return Either.left(sameOrReused(ledger.begun().get(), fingerprint));
        }
        if (ledger.runCalls() >= runBudget) {
            return Either.left(Refusal.RUN_BUDGET_EXHAUSTED);
        }
        if (ledger.toolCalls() >= toolBudget) {
            return Either.left(Refusal.TOOL_BUDGET_EXHAUSTED);
        }
        return Either.right(Option.none());
    }

    private static Refusal sameOrReused(String stored, String fingerprint) {
        return stored.equals(fingerprint) ? Refusal.DUPLICATE : Refusal.ID_REUSED;
    }

    /**
     * Decides the opening of a run: the token it was opened with stays, so that opening it again changes
     * nothing; a run the store does not hold is opened with the offered token.
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
     * Decides a completion by the attempt that began the record.
     *
     * @param held what is stored under the key, if anything
     * @param completed the record as the attempt completed it from its PROJECTING record
     * @return write {@code completed}; the stored record when it is final as {@code completed} already (a
     *     retry); refused {@link Refusal#EXPIRED} when nothing is held, {@link Refusal#CONFLICT} when
     *     another attempt began it, it ended otherwise, or {@code completed} began as another record
     */
    public static Either<Refusal, Change<CanonicalRecord.Final>> complete(Option<Held> held,
            CanonicalRecord.Final completed) {
        requireNonNull(held, "held is null");
        requireNonNull(completed, "completed is null");
        Option<Refusal> notOwn = notOwn(held);
        if (notOwn.isDefined()) {
            return Either.left(notOwn.get());
        }
        CanonicalRecord own = held.get().record();
        if (own instanceof CanonicalRecord.Final done) {
            return done.equals(completed) ? Either.right(new Change<>(done, false)) : Either.left(Refusal.CONFLICT);
        }
        return own.equals(completed.begun()) ? Either.right(new Change<>(completed, true))
                : Either.left(Refusal.CONFLICT);
    }

    /**
     * Decides the end of an attempt's record by its token alone, for a begin or complete that got no
     * definite answer.
     *
     * @param held what is stored under the key, if anything
     * @param code the error code to end the record with
     * @param now becomes the ended record's {@code updatedAt}
     * @return write the ERROR record (no raw response) when PROJECTING; the stored record when the
     *     attempt's own completion landed; refused {@link Refusal#EXPIRED} when nothing is held,
     *     {@link Refusal#CONFLICT} when another attempt began it
     */
    public static Either<Refusal, Change<CanonicalRecord.Final>> end(Option<Held> held, ErrorCode code,
            Instant now) {
        requireNonNull(held, "held is null");
        requireNonNull(code, "code is null");
        requireNonNull(now, "now is null");
        Option<Refusal> notOwn = notOwn(held);
        if (notOwn.isDefined()) {
            return Either.left(notOwn.get());
        }
        CanonicalRecord own = held.get().record();
        return Either.right(own instanceof CanonicalRecord.Final done
                ? new Change<>(done, false)
                : new Change<>(((CanonicalRecord.Projecting) own).failed(code, Option.none(), now), true));
    }

    /**
     * Decides an abandonment of a record left PROJECTING past its execution lease.
     *
     * @param held the record stored under the key, if any
     * @param leasePassed whether the store's own clock is at or after the record's lease
     * @param now the caller's instant; becomes the abandoned record's {@code updatedAt}
     * @return write the ERROR/{@code EXECUTION_ABANDONED} record; the stored record when it was abandoned
     *     before (a retry); refused {@link Refusal#EXPIRED} when nothing is held, {@link Refusal#CONFLICT}
     *     when it is final otherwise, {@link Refusal#LEASE_NOT_EXPIRED} while the lease runs
     */
    public static Either<Refusal, Change<CanonicalRecord.Failed>> abandon(Option<CanonicalRecord> held,
            boolean leasePassed, Instant now) {
        requireNonNull(held, "held is null");
        requireNonNull(now, "now is null");
        if (held.isEmpty()) {
            return Either.left(Refusal.EXPIRED);
        }
        CanonicalRecord record = held.get();
        if (record instanceof CanonicalRecord.Failed failed && failed.code() == ErrorCode.EXECUTION_ABANDONED) {
            return Either.right(new Change<>(failed, false));
        }
        if (!(record instanceof CanonicalRecord.Projecting projecting)) {
            return Either.left(Refusal.CONFLICT);
        }
        if (!leasePassed) {
            return Either.left(Refusal.LEASE_NOT_EXPIRED);
        }
        return Either.right(new Change<>(projecting.failed(ErrorCode.EXECUTION_ABANDONED, Option.none(), now), true));
    }

    private static Option<Refusal> notOwn(Option<Held> held) {
        if (held.isEmpty()) {
            return Option.some(Refusal.EXPIRED);
        }
        return held.get().sameAttempt() ? Option.none() : Option.some(Refusal.CONFLICT);
    }
}
