package io.toolboundary.tck.reliability.history;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.reliability.history.RecordModel.Answer;
import io.toolboundary.tck.reliability.history.RecordModel.Call;
import io.toolboundary.tck.store.ForwardingStore;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A store that records every begin, complete, end, abandon and find it passes on as an {@link Operation} of the
 * {@link RecordModel}: process, thread, {@link System#nanoTime()} at invoke and at return, the arguments and the
 * answer. An answer of {@link StoreFailure.Kind#OUTCOME_UNKNOWN} is recorded undetermined (open return);
 * unavailable and full as {@link RecordModel.Reply#NOT_WRITTEN}; data invalid as
 * {@link RecordModel.Reply#INVALID}. Opening runs and listing ids pass unrecorded.
 *
 * <p>A record names its attempt by {@code attemptOf}, by default its {@code createdAt}: the caller gives each
 * attempt its own creation instant, so that a record read back, by any process, tells which attempt began it.
 */
public final class RecordingStore extends ForwardingStore {

    private final History<Call, Answer> history;
    private final int process;
    private final Function<CanonicalRecord, String> attemptOf;
    private final Map<AttemptToken, String> attempts = new ConcurrentHashMap<>();

    /**
     * A recorder naming attempts by their records' {@code createdAt}.
     *
     * @param store the real store
     * @param history where operations are recorded
     * @param process this process's number in the merged history
     */
    public RecordingStore(CanonicalInvocationStore store, History<Call, Answer> history, int process) {
        this(store, history, process, record -> record.createdAt().toString());
    }

    /**
     * A recorder.
     *
     * @param store the real store
     * @param history where operations are recorded
     * @param process this process's number in the merged history
     * @param attemptOf the attempt a record belongs to, as text without spaces
     */
    public RecordingStore(CanonicalInvocationStore store, History<Call, Answer> history, int process,
            Function<CanonicalRecord, String> attemptOf) {
        super(store);
        this.history = requireNonNull(history, "history is null");
        this.process = process;
        this.attemptOf = requireNonNull(attemptOf, "attemptOf is null");
    }

    /**
     * {@return a key as the model names it: run id, a slash, tool_call_id}
     *
     * @param key the canonical key
     */
    public static String key(InvocationKey key) {
        return key.runId().value() + "/" + key.toolCallId().value();
    }

    /**
     * {@return a final record's outcome as the model names it: {@code READY} or {@code ERROR:<code>}}
     *
     * @param record a final record
     */
    public static String outcome(CanonicalRecord.Final record) {
        return record instanceof CanonicalRecord.Failed failed ? "ERROR:" + failed.code().name() : "READY";
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        String attempt = attemptOf.apply(start.record());
        attempts.put(start.token(), attempt);
        return record(Call.begin(key(start.record().key()), attempt), () -> delegate().begin(start, timeout),
                projecting -> Answer.created(attemptOf.apply(projecting)));
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
            Duration timeout) {
        return record(Call.complete(key(record.key()), attemptOf.apply(record), outcome(record)),
                () -> delegate().complete(token, record, timeout), this::ended);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout) {
        return record(Call.end(key(key), attempts.getOrDefault(token, token.value()), "ERROR:" + code.name()),
                () -> delegate().end(key, token, code, now, timeout), this::ended);
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
        return record(Call.abandon(key(key)), () -> delegate().abandon(key, now, timeout), this::ended);
    }

    @Override
    public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
        return record(Call.find(key(key)), () -> delegate().find(key, timeout),
                found -> found.map(this::read).getOrElse(Answer::none));
    }

    private Answer ended(CanonicalRecord.Final record) {
        return Answer.ended(attemptOf.apply(record), outcome(record));
    }

    private Answer read(CanonicalRecord record) {
        return record instanceof CanonicalRecord.Final done ? ended(done) : Answer.projecting(attemptOf.apply(record));
    }

    private <T> Either<StoreFailure, T> record(Call call, Supplier<Either<StoreFailure, T>> operation,
            Function<T, Answer> answer) {
        String thread = Thread.currentThread().getName().replace('\t', ' ');
        long invokedAt = System.nanoTime();
        Either<StoreFailure, T> result;
        try {
            result = operation.get();
        } catch (RuntimeException | Error e) {
            history.add(new Operation<>(process, thread, invokedAt, Operation.OPEN, call, null));
            throw e;
        }
        long returnedAt = System.nanoTime();
        if (result.isLeft() && result.getLeft().kind() == StoreFailure.Kind.OUTCOME_UNKNOWN) {
            history.add(new Operation<>(process, thread, invokedAt, Operation.OPEN, call, null));
        } else {
            history.add(new Operation<>(process, thread, invokedAt, returnedAt, call,
                    result.fold(RecordingStore::failure, answer)));
        }
        return result;
    }

    private static Answer failure(StoreFailure failure) {
        return switch (failure.kind()) {
            case REFUSED -> Answer.refused(failure.refusal().get().name());
            case UNAVAILABLE, FULL -> Answer.notWritten();
            case DATA_INVALID -> Answer.invalid();
            case OUTCOME_UNKNOWN -> throw new IllegalStateException("recorded as undetermined");
        };
    }
}
