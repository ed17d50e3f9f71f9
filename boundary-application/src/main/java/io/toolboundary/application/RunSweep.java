package io.toolboundary.application;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The sweep of {@link ToolBoundary#abandonExpired(RunId)}: lists a run's records a page at a time, reads
 * each, and ends each PROJECTING one with the store's own {@code abandon}, whose compare-and-set judges the
 * lease by the store's clock. Every store call gets the configured store timeout.
 */
final class RunSweep {

    /** How many ids one listing asks for. */
    static final int PAGE = 500;

    private final CanonicalInvocationStore store;
    private final Clock clock;
    private final Duration timeout;
    private final Diagnostics diagnostics;

    RunSweep(CanonicalInvocationStore store, Clock clock, Duration timeout, Diagnostics diagnostics) {
        this.store = store;
        this.clock = clock;
        this.timeout = timeout;
        this.diagnostics = diagnostics;
    }

    /** Sweeps the run; a failure of the first listing is the answer, later failures are counted. */
    Either<BoundaryError, SweepSummary> sweep(RunId runId) {
        int lookedAt = 0;
        int errors = 0;
        List<ToolCallId> abandoned = new ArrayList<>();
        List<ToolCallId> stillLeased = new ArrayList<>();
        Option<ToolCallId> after = Option.none();
        boolean more = true;
        while (more) {
            Either<BoundaryError, ToolCallIdPage> page = list(runId, after);
            if (page.isLeft()) {
                if (after.isEmpty()) {
                    return Either.left(page.getLeft());
                }
                errors++;
                break;
            }
            for (ToolCallId id : page.get().ids()) {
                lookedAt++;
                switch (sweepOne(InvocationKey.of(runId, id))) {
                    case ABANDONED -> abandoned.add(id);
                    case STILL_LEASED -> stillLeased.add(id);
                    case FAILED -> errors++;
                    case LEFT_AS_IT_IS -> { }
                }
            }
            more = page.get().more() && !page.get().ids().isEmpty();
            after = page.get().ids().isEmpty() ? after : Option.of(page.get().ids().get(page.get().ids().size() - 1));
        }
        return Either.right(new SweepSummary(lookedAt, abandoned, stillLeased, errors));
    }

    private Either<BoundaryError, ToolCallIdPage> list(RunId runId, Option<ToolCallId> after) {
        try {
            return store.toolCallIds(new ToolCallIdPage.Request(runId, after, PAGE), timeout).mapLeft(failure -> BoundaryError.of(failure.code()));
        } catch (RuntimeException unexpected) {
            return Either.left(diagnostics.unexpected(unexpected));
        }
    }

    private enum Swept { ABANDONED, STILL_LEASED, LEFT_AS_IT_IS, FAILED }

    private Swept sweepOne(InvocationKey key) {
        try {
            Either<StoreFailure, Option<CanonicalRecord>> found = store.find(key, timeout);
            if (found.isLeft()) {
                return Swept.FAILED;
            }
            if (!found.get().exists(CanonicalRecord.Projecting.class::isInstance)) {
                return Swept.LEFT_AS_IT_IS;
            }
            Either<StoreFailure, CanonicalRecord.Failed> ended = store.abandon(key, clock.instant(), timeout);
            if (ended.isRight()) {
                diagnostics.listener().onCompleted(ended.get());
                return Swept.ABANDONED;
            }
            Option<Refusal> refusal = ended.getLeft().refusal();
            if (refusal.contains(Refusal.LEASE_NOT_EXPIRED)) {
                return Swept.STILL_LEASED;
            }
            // Completed or expired since it was read: nothing is left to end.
            return refusal.exists(r -> r == Refusal.CONFLICT || r == Refusal.EXPIRED)
                    ? Swept.LEFT_AS_IT_IS : Swept.FAILED;
        } catch (RuntimeException unexpected) {
            diagnostics.unexpected(unexpected);
            return Swept.FAILED;
        }
    }
}
