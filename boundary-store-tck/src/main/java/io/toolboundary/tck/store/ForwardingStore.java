package io.toolboundary.tck.store;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RecordOutbox;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A store that passes every call to a real one unchanged; a test overrides the one call that should behave
 * otherwise, so whatever the boundary does next still reaches the real store.
 */
public abstract class ForwardingStore implements CanonicalInvocationStore {

    private final CanonicalInvocationStore store;

    /** A store forwarding to {@code store}. */
    protected ForwardingStore(CanonicalInvocationStore store) {
        this.store = requireNonNull(store, "store is null");
    }

    /** The real store. */
    protected final CanonicalInvocationStore delegate() {
        return store;
    }

    @Override
    public Either<StoreFailure, RunToken> openRun(RunOpening opening, Duration timeout) {
        return store.openRun(opening, timeout);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        return store.begin(start, timeout);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
            Duration timeout) {
        return store.complete(token, record, timeout);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout) {
        return store.end(key, token, code, now, timeout);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
        return store.abandon(key, now, timeout);
    }

    @Override
    public Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, Duration timeout) {
        return store.toolCallIds(request, timeout);
    }

    @Override
    public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
        return store.find(key, timeout);
    }

    @Override
    public Either<StoreFailure, Map<ToolCallId, CanonicalRecord>> findAll(RunId runId, Set<ToolCallId> toolCallIds,
            Duration timeout) {
        return store.findAll(runId, toolCallIds, timeout);
    }

    @Override
    public Either<StoreFailure, Map<ToolCallId, Referencability>> referencabilities(RunId runId,
            Set<ToolCallId> toolCallIds, Duration timeout) {
        return store.referencabilities(runId, toolCallIds, timeout);
    }

    @Override
    public OptionalLong recordCapBytes() {
        return store.recordCapBytes();
    }

    @Override
    public Option<RecordOutbox> outbox() {
        return store.outbox();
    }
}
