package io.toolboundary.application;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.OptionalLong;

/**
 * Every store call the boundary makes, and the one place that compensates for a failed store by what the
 * {@link StoreFailure} says may have happened: an unknown begin is ended by token at once; an unanswered
 * completion is sent once more, then ended small by token; a conflict answers the stored record's code; what
 * stays unconfirmed goes to {@link BoundaryListener#onUnfinished} and the agent gets {@code STORE_OUTCOME_UNKNOWN}.
 */
final class StoreSteps {

    /** Why a begin admitted no call: the agent's error, and whether the store refused the call as a duplicate. */
    record NotBegun(BoundaryError error, boolean duplicate) {
    }

    /** The longest a run's state is kept: 100 years, for deadlines that are practically never. */
    private static final Duration MAX_RUN_TTL = Duration.ofDays(36_500);

    private final CanonicalInvocationStore store;
    private final Clock clock;
    private final ToolBoundaryConfig config;
    private final Diagnostics diagnostics;
    private final BoundaryListener listener;
    /** The terms of every call's store budget: the store timeout, begin's half of it, {@link System#nanoTime()}. */
    private final StoreBudget.Terms budgetTerms;
    /** The configured execution lease in nanoseconds, at most {@link #MAX_RUN_TTL}'s. */
    private final long leaseNanos;

    StoreSteps(CanonicalInvocationStore store, Clock clock, ToolBoundaryConfig config, Diagnostics diagnostics) {
        this.store = store;
        this.clock = clock;
        this.config = config;
        this.diagnostics = diagnostics;
        this.listener = diagnostics.listener();
        this.budgetTerms = StoreBudget.Terms.of(config.storeTimeout(), System::nanoTime);
        // A lease as long as the longest run is cut at a deadline that far away, like any other.
        this.leaseNanos = config.executionLease().compareTo(MAX_RUN_TTL) >= 0 ? MAX_RUN_TTL.toNanos()
                : config.executionLease().toNanos();
    }

    /** A fresh budget of store time for one call, starting now: {@link ToolBoundaryConfig#storeTimeout()}. */
    StoreBudget budget() {
        return budgetTerms.startNow();
    }

    /** The harness-side query over the store. */
    InvocationQuery records() {
        return InvocationQuery.of(store, config.storeTimeout());
    }

    /** Refuses a store whose own record cap is below the configured limit: no record is refused by size after its tool ran. */
    static void requireRoomForRecords(CanonicalInvocationStore store, ToolBoundaryConfig config) {
        OptionalLong cap = store.recordCapBytes();
        if (cap.isPresent() && cap.getAsLong() < config.limits().recordBytes()) {
            throw new IllegalArgumentException("the store holds records of at most " + cap.getAsLong()
                    + " bytes, below the configured recordLimitBytes of " + config.limits().recordBytes()
                    + ": lower the config's limit or raise the store's cap");
        }
    }

    /**
     * Step 2: creates the call's PROJECTING record within half the store budget, never waiting past the
     * deadline; answers the record as the store holds it.
     */
    Either<NotBegun, CanonicalRecord.Projecting> begin(RunContext run, AdmittedCall call, StoreBudget budget) {
        // The time left to the deadline, measured from the record's creation, the last step of preflight.
        long untilDeadline = nanosUntilDeadline(call.record().createdAt(), run.deadline());
        if (untilDeadline <= 0) {
            // The deadline passed while preflight ran.
            return Either.left(new NotBegun(BoundaryError.of(ErrorCode.RUN_DEADLINE_EXCEEDED), false));
        }
        Duration lease = lease(untilDeadline);
        // The store measures the lease from the record's creation by its own clock, never by this one.
        InvocationStart start = new InvocationStart(call.record(), call.token(), run.runToken().get(), config.recordTtl(),
                lease, run.callBudget(), call.binding().callBudgetPerRun(), config.limits().recordBytes());
        // Before the tool runs, no store call waits past the run's deadline, the clean-up included.
        StoreBudget beforeDeadline = budget.withinNanos(untilDeadline);
        long started = budget.now();
        Either<StoreFailure, CanonicalRecord.Projecting> begun = store.begin(start, beforeDeadline.forBegin());
        budget.spentSince(started);
        if (begun.isLeft() && begun.getLeft().kind() == StoreFailure.Kind.OUTCOME_UNKNOWN) {
            // The record may exist; end it by token so that it never stays PROJECTING unattended, or hand
            // it over at once when the deadline leaves no time for that.
            endOrHandOver(call, ErrorCode.STORE_OUTCOME_UNKNOWN, beforeDeadline);
        }
        return begun.mapLeft(failure -> new NotBegun(refusal(failure, run, call),
                failure.refusal().contains(Refusal.DUPLICATE)));
    }

    /** The agent's error for a begin the store did not make: a spent budget names the budget. */
    private static BoundaryError refusal(StoreFailure failure, RunContext run, AdmittedCall call) {
        if (failure.is(Refusal.RUN_BUDGET_EXHAUSTED)) {
            return BoundaryError.overLimit(ErrorCode.RUN_BUDGET_EXHAUSTED, run.callBudget());
        }
        if (failure.is(Refusal.TOOL_BUDGET_EXHAUSTED)) {
            return BoundaryError.overLimit(ErrorCode.TOOL_BUDGET_EXHAUSTED, call.binding().callBudgetPerRun());
        }
        return BoundaryError.of(failure.code());
    }

    /** When {@link ToolBoundaryConfig#replayReadyDuplicates()}, the READY record (same tool and fingerprint) a duplicate may be answered from. */
    Option<CanonicalRecord.Ready> replayable(AdmittedCall call, NotBegun refused, StoreBudget budget) {
        if (!config.replayReadyDuplicates() || !refused.duplicate() || !budget.hasTimeLeft()) {
            return Option.none();
        }
        long started = budget.now();
        Option<CanonicalRecord> found = store.find(call.key(), budget.remaining()).toOption().flatMap(held -> held);
        budget.spentSince(started);
        return found.filter(CanonicalRecord.Ready.class::isInstance)
                .map(CanonicalRecord.Ready.class::cast)
                .filter(ready -> ready.tool().equals(call.record().tool())
                        && ready.requestFingerprint().equals(call.record().requestFingerprint()));
    }

    /** Opens the run for a TTL from now to its deadline plus the record TTL, outliving every record of the run. */
    Either<BoundaryError, RunContext> openRun(RunContext run, RunToken offered) {
        Instant now = clock.instant();
        if (!run.active()) {
            return Either.left(BoundaryError.of(ErrorCode.RUN_INACTIVE));
        }
        if (!now.isBefore(run.deadline())) {
            return Either.left(BoundaryError.of(ErrorCode.RUN_DEADLINE_EXCEEDED));
        }
        Duration untilDeadline = Duration.ofNanos(nanosUntilDeadline(now, run.deadline()));
        Duration ttl = untilDeadline.compareTo(MAX_RUN_TTL) >= 0 ? MAX_RUN_TTL : untilDeadline.plus(config.recordTtl());
        return store.openRun(new RunOpening(run.runId(), offered, ttl), config.storeTimeout()).map(run::opened)
                .mapLeft(failure -> BoundaryError.of(failure.code()));
    }

    /**
     * The time to the deadline in nanoseconds, at most {@link #MAX_RUN_TTL}'s: whole seconds between two
     * instants never overflow, nanoseconds do past 292 years (and a Duration.between that far makes the
     * JDK throw inside).
     */
    private static long nanosUntilDeadline(Instant now, Instant deadline) {
        if (now.until(deadline, ChronoUnit.SECONDS) >= MAX_RUN_TTL.getSeconds()) {
            return MAX_RUN_TTL.toNanos();
        }
        return (deadline.getEpochSecond() - now.getEpochSecond()) * 1_000_000_000L + deadline.getNano() - now.getNano();
    }

    /**
     * The execution lease from creation: the configured lease (the same instance every call), or the time
     * left to the run's deadline, {@code untilDeadline} nanoseconds (positive, at most {@link #MAX_RUN_TTL}'s),
     * if shorter.
     */
    private Duration lease(long untilDeadline) {
        return leaseNanos < untilDeadline ? config.executionLease() : Duration.ofNanos(untilDeadline);
    }

    /** Step 6: completes the record and says what the agent may be told, matching what the store holds. */
    Either<BoundaryError, AgentResult> complete(AdmittedCall call, CanonicalRecord.Final outcome, StoreBudget budget) {
        Option<BoundaryError> refused = storeCompletion(call, outcome, budget);
        if (refused.isDefined()) {
            return Either.left(refused.get());
        }
        return outcome instanceof CanonicalRecord.Ready ready
                ? Either.right(ready.result())
                : Either.left(BoundaryError.of(((CanonicalRecord.Failed) outcome).code()));
    }

    /** Stores the outcome's completion: none when the store holds it, else what the agent is told instead. */
    private Option<BoundaryError> storeCompletion(AdmittedCall call, CanonicalRecord.Final outcome, StoreBudget budget) {
        long started = budget.now();
        Either<StoreFailure, CanonicalRecord.Final> first = store.complete(call.token(), outcome, budget.remaining());
        Either<StoreFailure, CanonicalRecord.Final> stored =
                first.isLeft() && unconfirmed(first.getLeft()) && budget.hasTimeLeft()
                        ? store.complete(call.token(), outcome, budget.remaining())
                        : first;
        budget.spentSince(started);
        if (stored.isRight()) {
            listener.onCompleted(stored.get());
            return Option.none();
        }
        StoreFailure failed = stored.getLeft();
        BoundaryError refused = BoundaryError.of(failed.code());
        listener.onStoreFailed(call.key(), refused);
        if (unconfirmed(failed)) {
            return Option.some(handOver(call));
        }
        Option<Refusal> refusal = failed.refusal();
        if (refusal.contains(Refusal.CONFLICT)) {
            return Option.some(storedCode(call, budget).getOrElse(refused));
        }
        if (refusal.contains(Refusal.EXPIRED)) {
            return Option.some(refused);
        }
        // Nothing was written (the store is full, the record too large or its text not Unicode, or the
        // store holds something else): end the record small, by token.
        return Option.some(endOrHandOver(call, refused.code(), budget));
    }

    /** The error code of the record as stored, when it is an ERROR record this attempt no longer owns. */
    private Option<BoundaryError> storedCode(AdmittedCall call, StoreBudget budget) {
        if (!budget.hasTimeLeft()) {
            return Option.none();
        }
        long started = budget.now();
        Option<CanonicalRecord> found = store.find(call.key(), budget.remaining()).toOption().flatMap(held -> held);
        budget.spentSince(started);
        return found.filter(CanonicalRecord.Failed.class::isInstance)
                .map(record -> BoundaryError.of(((CanonicalRecord.Failed) record).code()));
    }

    /** Ends the attempt's record with {@code code} by token, else hands it over; tells the agent what the record holds. */
    private BoundaryError endOrHandOver(AdmittedCall call, ErrorCode code, StoreBudget budget) {
        long started = budget.now();
        Either<StoreFailure, CanonicalRecord.Final> ended = budget.hasTimeLeft()
                ? store.end(call.key(), call.token(), code, clock.instant(), budget.remaining())
                : Either.left(StoreFailure.outcomeUnknown());
        budget.spentSince(started);
        if (ended.isRight()) {
            // The call's one terminal event (onRejected or onStoreFailed) reports this record's end.
            ErrorCode told = ended.get() instanceof CanonicalRecord.Failed failed
                    ? failed.code() : ErrorCode.STORE_OUTCOME_UNKNOWN;
            return BoundaryError.of(told);
        }
        if (ended.getLeft().refusal().exists(refusal -> refusal == Refusal.EXPIRED
                || refusal == Refusal.CONFLICT)) {
            // No record of this attempt exists (or it is gone): nothing is left PROJECTING by it.
            return BoundaryError.of(code);
        }
        return handOver(call);
    }

    /** The record may be left PROJECTING: the harness ends it later ({@link ToolBoundary#endUnfinished}). */
    private BoundaryError handOver(AdmittedCall call) {
        listener.onUnfinished(call.key(), call.token());
        return BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN);
    }

    /** Whether the store may not have seen the completion: no answer came, or it could not be reached. */
    private static boolean unconfirmed(StoreFailure failure) {
        return failure.kind() == StoreFailure.Kind.UNAVAILABLE || failure.kind() == StoreFailure.Kind.OUTCOME_UNKNOWN;
    }

    /** The harness's repair of an unfinished call: see {@link ToolBoundary#endUnfinished}. */
    Either<BoundaryError, CanonicalRecord.Final> endUnfinished(InvocationKey key, AttemptToken token) {
        try {
            return store.end(key, token, ErrorCode.STORE_OUTCOME_UNKNOWN, clock.instant(), config.storeTimeout())
                    .peek(listener::onCompleted).mapLeft(failure -> BoundaryError.of(failure.code()));
        } catch (RuntimeException unexpected) {
            return Either.left(diagnostics.unexpected(unexpected));
        }
    }

    /** The harness's repair of an abandoned call: see {@link ToolBoundary#abandonExpired}. */
    Either<BoundaryError, CanonicalRecord.Failed> abandonExpired(InvocationKey key) {
        try {
            return store.abandon(key, clock.instant(), config.storeTimeout()).peek(listener::onCompleted)
                    .mapLeft(failure -> BoundaryError.of(failure.code()));
        } catch (RuntimeException unexpected) {
            return Either.left(diagnostics.unexpected(unexpected));
        }
    }

    /** The harness's sweep of a run: see {@link ToolBoundary#abandonExpired(io.toolboundary.domain.RunId)}. */
    Either<BoundaryError, SweepSummary> abandonExpired(io.toolboundary.domain.RunId runId) {
        return new RunSweep(store, clock, config.storeTimeout(), diagnostics).sweep(runId);
    }
}
