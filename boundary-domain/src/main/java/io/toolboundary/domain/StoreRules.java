package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;
import java.time.Instant;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The decisions every store of canonical records makes, as pure functions over a snapshot of one key
 * taken inside the store's atomic step: a begin {@link Begin creates, retries or is refused}; a
 * completion, an end or an abandonment {@link Change writes, finds the record final already or is
 * refused}. A store carries out the decision; the Redis store's scripts mirror these rules, and the
 * contract suites check both. Size limits, expiry and store bounds are the store's own checks.
 */
public final class StoreRules {

    /** The decision to create: it carries nothing, so one instance serves every begin. */
    private static final Begin CREATE = new Begin.Create();

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
     * What the store holds of a run, opened with the caller's run token and no older than the caller saw it.
     *
     * @param begun the fingerprint the run's ledger holds for this call, if the run began it before (the
     *     ledger outlives the call's record)
     * @param runCalls records the run has created so far
     * @param toolCalls records the run has created for this tool so far
     */
    public record RunLedger(Option<String> begun, long runCalls, long toolCalls) {
    }

    /**
     * What a begin is decided on.
     *
     * @param run the run as the caller knows it, or none when the store does not hold it so (never
     *     opened here, its state lost, or an older copy of it): then every call of it is refused
     * @param held what is stored under the key, if anything
     * @param fingerprint the new record's request fingerprint
     * @param runBudget records the run may create in all
     * @param toolBudget records the run may create for this tool
     */
    public record BeginFacts(Option<RunLedger> run, Option<Held> held, String fingerprint, int runBudget,
            int toolBudget) {
    }

    /** The decision on a begin. */
    public sealed interface Begin {

        /**
         * Carries the decision out by applying exactly one function.
         *
         * @param <R> the result type
         * @param create create the record, enter it in the run's ledger, reserve one call of each budget
         * @param retry answer the stored PROJECTING record of the same attempt, writing nothing
         * @param refuse answer the refusal, writing nothing
         * @return what the applied function returns
         */
        <R> R fold(Supplier<R> create, Function<CanonicalRecord.Projecting, R> retry, Function<Refusal, R> refuse);

        /** Create the record. */
        record Create() implements Begin {
            @Override
            public <R> R fold(Supplier<R> create, Function<CanonicalRecord.Projecting, R> retry,
                    Function<Refusal, R> refuse) {
                return create.get();
            }
        }

        /**
         * A retry of the same attempt while the record is PROJECTING.
         *
         * @param record the stored record
         */
        record Retry(CanonicalRecord.Projecting record) implements Begin {
            @Override
            public <R> R fold(Supplier<R> create, Function<CanonicalRecord.Projecting, R> retry,
                    Function<Refusal, R> refuse) {
                return retry.apply(record);
            }
        }

        /**
         * A refused begin.
         *
         * @param reason why
         */
        record Refuse(Refusal reason) implements Begin {
            @Override
            public <R> R fold(Supplier<R> create, Function<CanonicalRecord.Projecting, R> retry,
                    Function<Refusal, R> refuse) {
                return refuse.apply(reason);
            }
        }
    }

    /**
     * The decision on a completion, an end or an abandonment.
     *
     * @param <F> the final record's type
     */
    public sealed interface Change<F extends CanonicalRecord.Final> {

        /**
         * Carries the decision out by applying exactly one function.
         *
         * @param <R> the result type
         * @param write store the final record, keeping the record's remaining TTL
         * @param alreadyFinal answer the stored final record, writing nothing (a retry)
         * @param refuse answer the refusal, writing nothing
         * @return what the applied function returns
         */
        <R> R fold(Function<F, R> write, Function<F, R> alreadyFinal, Function<Refusal, R> refuse);

        /**
         * Store the final record.
         *
         * @param <F> the final record's type
         * @param record the final record to store
         */
        record Write<F extends CanonicalRecord.Final>(F record) implements Change<F> {
            @Override
            public <R> R fold(Function<F, R> write, Function<F, R> alreadyFinal, Function<Refusal, R> refuse) {
                return write.apply(record);
            }
        }

        /**
         * The record is final already as asked.
         *
         * @param <F> the final record's type
         * @param record the stored final record
         */
        record AlreadyFinal<F extends CanonicalRecord.Final>(F record) implements Change<F> {
            @Override
            public <R> R fold(Function<F, R> write, Function<F, R> alreadyFinal, Function<Refusal, R> refuse) {
                return alreadyFinal.apply(record);
            }
        }

        /**
         * A refused change.
         *
         * @param <F> the final record's type
         * @param reason why
         */
        record Refuse<F extends CanonicalRecord.Final>(Refusal reason) implements Change<F> {
            @Override
            public <R> R fold(Function<F, R> write, Function<F, R> alreadyFinal, Function<Refusal, R> refuse) {
                return refuse.apply(reason);
            }
        }
    }

    /**
     * Decides a begin, after the record's size was found within its limit. Checked in this order: the
     * run, the key (the record held, else the run's ledger), the run's budget, the tool's budget.
     *
     * @param facts what the store holds of the run and the key, and the budgets; no part of it null
     * @return create; retry (the same attempt while PROJECTING); or refuse ({@link Refusal.RunStateLost},
     *     {@link Refusal.Duplicate}, {@link Refusal.IdReused}, {@link Refusal.BudgetExhausted})
     */
    public static Begin begin(BeginFacts facts) {
        requireNonNull(facts, "facts is null");
        requireNonNull(facts.held(), "held is null");
        requireNonNull(facts.fingerprint(), "fingerprint is null");
        if (requireNonNull(facts.run(), "run is null").isEmpty()) {
            // Without the run's state the store cannot know what ran: whatever the key holds, refuse.
            return new Begin.Refuse(new Refusal.RunStateLost());
        }
        RunLedger run = facts.run().get();
        return beginInHeldRun(run.begun(), run.runCalls(), run.toolCalls(), facts.held(), facts.fingerprint(),
                facts.runBudget(), facts.toolBudget());
    }

    /**
     * {@link #begin(BeginFacts)} for a run the store holds as the caller knows it, its ledger given by its
     * parts: the same decision, for a store that would otherwise build the facts only to pass them here.
     *
     * @param begun the fingerprint the run's ledger holds for this call, if the run began it before
     * @param runCalls records the run has created so far
     * @param toolCalls records the run has created for this tool so far
     * @param held what is stored under the key, if anything
     * @param fingerprint the new record's request fingerprint
     * @param runBudget records the run may create in all
     * @param toolBudget records the run may create for this tool
     * @return create; retry (the same attempt while PROJECTING); or refuse ({@link Refusal.Duplicate},
     *     {@link Refusal.IdReused}, {@link Refusal.BudgetExhausted})
     */
    public static Begin beginInHeldRun(Option<String> begun, long runCalls, long toolCalls, Option<Held> held,
            String fingerprint, int runBudget, int toolBudget) {
        requireNonNull(begun, "begun is null");
        requireNonNull(held, "held is null");
        requireNonNull(fingerprint, "fingerprint is null");
        if (held.isDefined()) {
            Held stored = held.get();
            if (stored.sameAttempt() && stored.record() instanceof CanonicalRecord.Projecting own) {
                return new Begin.Retry(own);
            }
            return new Begin.Refuse(sameOrReused(stored.record().requestFingerprint(), fingerprint));
        }
        if (begun.isDefined()) {
            // The record is gone (expired, or lost on its own): the call ran, and never runs again.
            return new Begin.Refuse(sameOrReused(begun.get(), fingerprint));
        }
        if (runCalls >= runBudget) {
            return new Begin.Refuse(new Refusal.BudgetExhausted(Refusal.Scope.RUN));
        }
        if (toolCalls >= toolBudget) {
            return new Begin.Refuse(new Refusal.BudgetExhausted(Refusal.Scope.TOOL));
        }
        return CREATE;
    }

    private static Refusal sameOrReused(String stored, String fingerprint) {
        return stored.equals(fingerprint) ? new Refusal.Duplicate() : new Refusal.IdReused();
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
     * @param completion how the call ended
     * @return write the PROJECTING record completed with it; already final when it is final with exactly
     *     this completion (a retry); refuse {@link Refusal.Expired} when nothing is held,
     *     {@link Refusal.Conflict} when another attempt began it or it ended otherwise
     */
    public static Change<CanonicalRecord.Final> complete(Option<Held> held, Completion completion) {
        requireNonNull(held, "held is null");
        requireNonNull(completion, "completion is null");
        Option<Refusal> notOwn = notOwn(held);
        if (notOwn.isDefined()) {
            return new Change.Refuse<>(notOwn.get());
        }
        CanonicalRecord own = held.get().record();
        if (own instanceof CanonicalRecord.Final done) {
            return done.completion().equals(completion)
                    ? new Change.AlreadyFinal<>(done)
                    : new Change.Refuse<>(new Refusal.Conflict());
        }
        return new Change.Write<>(((CanonicalRecord.Projecting) own).complete(completion));
    }

    /**
     * Decides the end of an attempt's record by its token alone, for a begin or complete that got no
     * definite answer.
     *
     * @param held what is stored under the key, if anything
     * @param code the error code to end the record with
     * @param now becomes the ended record's {@code updatedAt}
     * @return write the ERROR record (no raw response) when PROJECTING; already final when the attempt's
     *     own completion landed; refuse {@link Refusal.Expired} when nothing is held,
     *     {@link Refusal.Conflict} when another attempt began it
     */
    public static Change<CanonicalRecord.Final> end(Option<Held> held, ErrorCode code, Instant now) {
        requireNonNull(held, "held is null");
        requireNonNull(code, "code is null");
        requireNonNull(now, "now is null");
        Option<Refusal> notOwn = notOwn(held);
        if (notOwn.isDefined()) {
            return new Change.Refuse<>(notOwn.get());
        }
        CanonicalRecord own = held.get().record();
        return own instanceof CanonicalRecord.Final done
                ? new Change.AlreadyFinal<>(done)
                : new Change.Write<>(((CanonicalRecord.Projecting) own).failed(code, Option.none(), now));
    }

    /**
     * Decides an abandonment of a record left PROJECTING past its execution lease.
     *
     * @param held the record stored under the key, if any
     * @param leasePassed whether the store's own clock is at or after the record's lease
     * @param now the caller's instant; becomes the abandoned record's {@code updatedAt}
     * @return write the ERROR/{@code EXECUTION_ABANDONED} record; already final when it was abandoned
     *     before (a retry); refuse {@link Refusal.Expired} when nothing is held, {@link Refusal.Conflict}
     *     when it is final otherwise, {@link Refusal.LeaseNotExpired} while the lease runs
     */
    public static Change<CanonicalRecord.Failed> abandon(Option<CanonicalRecord> held, boolean leasePassed,
            Instant now) {
        requireNonNull(held, "held is null");
        requireNonNull(now, "now is null");
        if (held.isEmpty()) {
            return new Change.Refuse<>(new Refusal.Expired());
        }
        CanonicalRecord record = held.get();
        if (record instanceof CanonicalRecord.Failed failed && failed.code() == ErrorCode.EXECUTION_ABANDONED) {
            return new Change.AlreadyFinal<>(failed);
        }
        if (!(record instanceof CanonicalRecord.Projecting projecting)) {
            return new Change.Refuse<>(new Refusal.Conflict());
        }
        if (!leasePassed) {
            return new Change.Refuse<>(new Refusal.LeaseNotExpired());
        }
        return new Change.Write<>(projecting.failed(ErrorCode.EXECUTION_ABANDONED, Option.none(), now));
    }

    /** {@link Refusal.Expired} when nothing is held, {@link Refusal.Conflict} when another attempt began it. */
    private static Option<Refusal> notOwn(Option<Held> held) {
        if (held.isEmpty()) {
            return Option.some(new Refusal.Expired());
        }
        return held.get().sameAttempt() ? Option.none() : Option.some(new Refusal.Conflict());
    }
}
