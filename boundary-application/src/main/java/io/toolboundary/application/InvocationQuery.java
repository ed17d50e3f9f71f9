package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The harness-side reading of canonical records: find one, and say how it may be cited. Never for
 * the agent: a record holds the complete request and raw response. Reading never extends a record's
 * life.
 */
final class InvocationQuery {

    private final CanonicalInvocationStore store;
    private final Duration timeout;

    private InvocationQuery(CanonicalInvocationStore store, Duration timeout) {
        this.store = store;
        this.timeout = timeout;
    }

    /** {@return a query over a store whose reads wait at most {@code timeout} (positive) each} */
    static InvocationQuery of(CanonicalInvocationStore store, Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        return new InvocationQuery(requireNonNull(store, "store is null"), timeout);
    }

    /** The record of a call, none when there is none (or it expired), or a store error. */
    Either<BoundaryError, Option<CanonicalRecord>> find(RunId runId, ToolCallId toolCallId) {
        return store.find(InvocationKey.of(runId, toolCallId), timeout).mapLeft(failure -> BoundaryError.of(failure.code()));
    }

    /** The live records of a run's named calls, in one store read, or a store error. */
    Either<BoundaryError, Map<ToolCallId, CanonicalRecord>> findAll(RunId runId,
            Set<ToolCallId> toolCallIds) {
        CanonicalInvocationStore.requireFindAll(runId, toolCallIds, timeout);
        return store.findAll(runId, Set.copyOf(toolCallIds), timeout)
                .mapLeft(failure -> BoundaryError.of(failure.code()));
    }

    /** How each of a run's named calls may be cited (absent: no live record), in one store read, or a store error. */
    Either<BoundaryError, Map<ToolCallId, Referencability>> referencabilities(RunId runId, Set<ToolCallId> toolCallIds) {
        CanonicalInvocationStore.requireFindAll(runId, toolCallIds, timeout);
        return store.referencabilities(runId, Set.copyOf(toolCallIds), timeout)
                .mapLeft(failure -> BoundaryError.of(failure.code()));
    }

    /** How the record of a call may be cited ({@code NOT_REFERENCABLE} when there is none), or a store error. */
    Either<BoundaryError, Referencability> referencability(RunId runId, ToolCallId toolCallId) {
        return find(runId, toolCallId).map(found -> found.map(CanonicalRecord::referencability)
                .getOrElse(Referencability.NOT_REFERENCABLE));
    }
}
