package io.toolboundary.adapter.inmemory;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A deliberately broken store, for proving that the Lincheck test catches a begin that is not atomic. Its
 * begin is a find and then a create: the record is created under one token of its own (so creating it
 * again is a harmless retry), and the key's owner is the attempt that found the key free. Sequentially it
 * answers as the store does; two attempts that both find the key free are both told their record was
 * created, and both would run the tool.
 */
final class NonAtomicBeginStore implements CanonicalInvocationStore {

    private static final AttemptToken CREATOR = new AttemptToken("creator");

    private final CanonicalInvocationStore store;
    /** The attempt that created each key's record, as this wrapper saw it. */
    private final Map<InvocationKey, AttemptToken> owners = new ConcurrentHashMap<>();

    NonAtomicBeginStore(CanonicalInvocationStore store) {
        this.store = store;
    }

    @Override
    public Either<StoreFailure, RunToken> openRun(RunOpening opening, Duration timeout) {
        return store.openRun(opening, timeout);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        InvocationKey key = start.record().key();
        // The look: the key's state as it is now, which the create below trusts.
        boolean free = store.find(key, timeout).fold(failure -> false, Option::isEmpty);
        AttemptToken as = free ? CREATOR : stored(key, start.token());
        Either<StoreFailure, CanonicalRecord.Projecting> begun = store.begin(new InvocationStart(start.record(), as,
                start.runToken(), start.ttl(), start.lease(), start.runCallBudget(), start.toolCallBudget(),
                start.recordLimitBytes()), timeout);
        if (free && begun.isRight()) {
            owners.put(key, start.token());
        }
        return begun;
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
            Duration timeout) {
        return store.complete(stored(record.key(), token), record, timeout);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout) {
        return store.end(key, stored(key, token), code, now, timeout);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
        return store.abandon(key, now, timeout);
    }

    @Override
    public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
        return store.find(key, timeout);
    }

    @Override
    public Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, Duration timeout) {
        return store.toolCallIds(request, timeout);
    }

    /** The token the store holds for {@code token}'s records of {@code key}: its own when it owns the key. */
    private AttemptToken stored(InvocationKey key, AttemptToken token) {
        return token.equals(owners.get(key)) ? CREATOR : token;
    }
}
