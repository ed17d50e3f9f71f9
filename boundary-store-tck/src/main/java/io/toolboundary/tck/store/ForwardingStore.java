package io.toolboundary.tck.store;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.application.RunToken;
import io.toolboundary.application.ToolCallIdPage;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.Outcome;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * A store that passes every call to a real one unchanged. A test that needs one call to behave
 * otherwise (refuse, interrupt, time itself) extends it and overrides just that call, so that
 * whatever the boundary does next (ending a record, reading it) still reaches the real store.
 */
public abstract class ForwardingStore implements CanonicalInvocationStore {

    private final CanonicalInvocationStore store;

    /**
     * A store forwarding to {@code store}.
     *
     * @param store the real store
     */
    protected ForwardingStore(CanonicalInvocationStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    /**
     * The real store.
     *
     * @return the store every call goes to unless overridden
     */
    protected final CanonicalInvocationStore delegate() {
        return store;
    }

    @Override
    public Either<BoundaryError, RunToken> openRun(RunId runId, RunToken offered, Duration ttl, Duration timeout) {
        return store.openRun(runId, offered, ttl, timeout);
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        return store.begin(start, timeout);
    }

    @Override
    public Either<BoundaryError, Outcome> complete(InvocationKey key, AttemptToken token, Outcome outcome,
                Duration timeout) {
        return store.complete(key, token, outcome, timeout);
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout) {
        return store.end(key, token, code, now, timeout);
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
        return store.abandon(key, now, timeout);
    }

    @Override
    public Either<BoundaryError, ToolCallIdPage> toolCallIds(RunId runId, Option<ToolCallId> after, int limit,
            Duration timeout) {
        return store.toolCallIds(runId, after, limit, timeout);
    }

    @Override
    public Either<BoundaryError, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
        return store.find(key, timeout);
    }

    @Override
    public OptionalLong recordCapBytes() {
        return store.recordCapBytes();
    }
}
