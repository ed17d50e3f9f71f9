package io.toolboundary.adapter.inmemory;

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
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.domain.spi.StoreRules;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.function.BiConsumer;

/**
 * The embedded store: the same semantics as the Redis store, in this JVM's memory, within a bound; records are
 * lost when the JVM stops.
 *
 * <p>Writes are atomic per run (one lock stripe per run id); {@code find} takes no lock. Expiry and leases
 * follow the injected clock: a record lives exactly its TTL from creation, and reads never extend it. Expired
 * entries are dropped when touched and, in order of expiry, at each {@code begin}; no background thread.
 *
 * <p><b>The bound.</b> At most {@link #maxRecords()} records and {@link #maxBytes()} bytes of them (as
 * {@link CanonicalRecord#byteSize()} counts), and at most {@link #maxRecords()} open runs (whose bytes are
 * not counted). Once expired entries are reclaimed, a {@code begin} or {@code openRun} beyond the bound, or a
 * {@code complete} whose final record would exceed it (the record stays PROJECTING; {@code end} always
 * fits), is answered that the store is full; duplicates, reused ids and spent budgets are answered first.
 * Room is reserved atomically before writing, so racing threads never overshoot.
 *
 * <p>{@code byteSize()} approximates the heap held (up to twice for non-Latin-1 text, plus about 400 bytes of
 * objects per record). By default {@code maxBytes} is the smaller of {@link #DEFAULT_MAX_BYTES} and a quarter
 * of the maximum heap, and {@code maxRecords} the smaller of {@link #DEFAULT_MAX_RECORDS} and one per
 * {@value #HEAP_BYTES_PER_DEFAULT_RECORD} bytes of heap (16 MiB and 16,384 records with {@code -Xmx64m}).
 */
public final class InMemoryCanonicalInvocationStore implements CanonicalInvocationStore {

    /** The most records a store holds by default, however large the heap: 100,000. */
    public static final long DEFAULT_MAX_RECORDS = 100_000;

    /** The most bytes a store holds by default, however large the heap: 256 MiB. */
    public static final long DEFAULT_MAX_BYTES = 256L * 1024 * 1024;

    /** Heap bytes per record allowed by the default {@link #maxRecords()}: 4 KiB. */
    public static final long HEAP_BYTES_PER_DEFAULT_RECORD = 4096;

    private static final int STRIPES = 64;

    private final Clock clock;
    private final long maxRecordBytes;
    private final long maxRecords;
    private final long maxBytes;
    private final Room room;
    private final RecordTable records;
    private final RunTable runs = new RunTable();
    /** Where records are appended as they become final; none when export is off. */
    private final Option<InMemoryOutbox> outbox;
    private final Object[] stripes = new Object[STRIPES];
    /** Every record and run, by expiry: dropped as their time comes. */
    private final Expiries expiries = new Expiries();
    /** What a sweep does with each key whose time has come; one instance, so that a sweep allocates nothing. */
    private final BiConsumer<Object, Instant> dropIfExpired = this::dropIfExpired;
    /** What a store that finds no room does first; one instance, made once. */
    private final Runnable reclaim = this::reclaimExpired;

    private InMemoryCanonicalInvocationStore(InMemoryStoreBuilder builder) {
        this.clock = builder.clock;
        this.maxRecordBytes = builder.recordCapBytes;
        this.maxRecords = builder.maxRecords;
        this.maxBytes = builder.maxBytes;
        this.room = new Room(builder.maxRecords, builder.maxBytes, builder.maxRecords);
        this.records = new RecordTable(room);
        this.outbox = builder.outboxCapacity > 0
                ? Option.of(new InMemoryOutbox(builder.outboxCapacity, builder.outboxCarriesRecords, builder.clock))
                : Option.none();
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Object();
        }
    }

    /** {@return a store on the system UTC clock with the default bound and no record cap of its own} */
    public static InMemoryCanonicalInvocationStore create() {
        return custom().build();
    }

    /**
     * {@return a store whose expiry follows {@code clock}, with the default bound and no record cap of its own}
     *
     * @param clock the clock that expiry follows
     */
    public static InMemoryCanonicalInvocationStore create(Clock clock) {
        return custom().clock(clock).build();
    }

    /**
     * A store whose expiry follows {@code clock}, with the default bound, and which never holds a record over
     * {@code recordCapBytes} UTF-8 bytes, whatever the boundary's configured limit; a boundary configured
     * with a larger limit refuses this store when it is built.
     *
     * @param clock the clock that expiry follows
     * @param recordCapBytes the store's own cap on one record, in UTF-8 bytes; positive
     * @return the store
     */
    public static InMemoryCanonicalInvocationStore create(Clock clock, long recordCapBytes) {
        return custom().clock(clock).recordCapBytes(recordCapBytes).build();
    }

    /** {@return a builder starting from the defaults: the system UTC clock, the default bound, no record cap} */
    public static InMemoryStoreBuilder custom() {
        return new InMemoryStoreBuilder();
    }

    /** The store {@code builder} describes. */
    static InMemoryCanonicalInvocationStore of(InMemoryStoreBuilder builder) {
        return new InMemoryCanonicalInvocationStore(builder);
    }

    /** {@return the most records this store holds, expired ones not yet reclaimed included} */
    public long maxRecords() {
        return maxRecords;
    }

    /** {@return the most bytes of records this store holds, as {@link CanonicalRecord#byteSize()} counts them} */
    public long maxBytes() {
        return maxBytes;
    }

    /**
     * {@return the bytes of the records held now (expired ones not yet reclaimed included), counted toward
     * {@link #maxBytes()}}
     */
    public long heldBytes() {
        return room.heldBytes();
    }

    @Override
    public OptionalLong recordCapBytes() {
        return maxRecordBytes == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(maxRecordBytes);
    }

    /**
     * {@inheritDoc} No I/O: the timeout is never reached. Nothing written (the store full) when a new run
     * would exceed the store's bound of runs ({@link #maxRecords()}) once expired entries are reclaimed.
     */
    @Override
    public Either<StoreFailure, RunToken> openRun(RunOpening opening, Duration timeout) {
        RunId runId = opening.runId();
        synchronized (stripe(runId)) {
            Instant now = clock.instant();
            return runs.open(runId, opening.offered(), now.plus(opening.ttl()), now, room, reclaim,
                    expiries);
        }
    }

    /**
     * {@inheritDoc} No I/O: the timeout is never reached. Nothing written (the store full) when the record
     * would exceed the store's bound once expired entries are reclaimed; checked after the run, the
     * existing key and the budgets.
     */
    @Override
    public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        CanonicalRecord.Projecting record = start.record();
        long bytes = record.byteSize();
        if (bytes > Math.min(start.recordLimitBytes(), maxRecordBytes)) {
            return Either.left(StoreFailure.refused(Refusal.TOO_LARGE));
        }
        // One reading of the clock: the begin's time, for the sweep and the record alike.
        Instant now = clock.instant();
        expiries.sweepNowAndThen(now, dropIfExpired);
        InvocationKey key = record.key();
        // One slot for the key: looked up now, and the new entry's if the rules admit the record.
        RecordTable.Slot slot = new RecordTable.Slot(key);
        synchronized (stripe(key.runId())) {
            RunTable.RunState live = runs.live(key.runId(), now, room);
            RunTable.RunState run = live != null && live.token().equals(start.runToken()) ? live : null;
            Option<StoreRules.Held> held = RecordTable.held(records.live(slot, now), start.token());
            Option<StoreRules.RunLedger> ledger = run == null ? Option.none()
                    : Option.some(new StoreRules.RunLedger(run.begun(key.toolCallId()), run.calls(),
                            run.calls(record.tool())));
            // The rules answer a retry or a refusal themselves; the record they admit is created here.
            Either<Refusal, Option<CanonicalRecord.Projecting>> decided = StoreRules.begin(ledger, held,
                    record.requestFingerprint(), start.runCallBudget(), start.toolCallBudget());
            if (decided.isLeft()) {
                return Either.left(StoreFailure.refused(decided.getLeft()));
            }
            if (decided.get().isDefined()) {
                return Either.right(decided.get().get());
            }
            return create(start, run, now, slot);
        }
    }

    /** Creates the record the rules admitted, when there is room for it; the caller holds the run's stripe. */
    private Either<StoreFailure, CanonicalRecord.Projecting> create(InvocationStart start, RunTable.RunState run,
            Instant now, RecordTable.Slot slot) {
        CanonicalRecord.Projecting record = start.record();
        if (!room.admit(record.byteSize())) {
            reclaimExpired();
            if (!room.admit(record.byteSize())) {
                return Either.left(StoreFailure.full());
            }
        }
        InvocationKey key = record.key();
        run.reserve(record.tool(), key.toolCallId(), record.requestFingerprint());
        RecordTable.Entry begun =
                new RecordTable.Entry(slot, record, start.token(), now, start.ttl(), start.lease());
        records.put(begun);
        expiries.schedule(begun);
        return Either.right(record);
    }

    /**
     * {@inheritDoc} No I/O: the timeout is never reached. Nothing written (the store full) when the final
     * record would take the store over {@link #maxBytes()} once expired entries are reclaimed; the record
     * is then left as it was.
     */
    @Override
    public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
            Duration timeout) {
        requireNonNull(token, "token is null");
        requireNonNull(record, "record is null");
        InvocationKey key = record.key();
        synchronized (stripe(key.runId())) {
            RecordTable.Entry current = records.live(key, clock.instant());
            if (current != null && current.token().equals(token) && current.bytesAs(record) > maxRecordBytes) {
                return Either.left(StoreFailure.refused(Refusal.TOO_LARGE));
            }
            return carryOut(current, StoreRules.complete(RecordTable.held(current, token), record));
        }
    }

    /** {@inheritDoc} No I/O: the timeout is never reached. */
    @Override
    public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout) {
        requireNonNull(token, "token is null");
        synchronized (stripe(key.runId())) {
            RecordTable.Entry current = records.live(key, clock.instant());
            return carryOut(current, StoreRules.end(RecordTable.held(current, token), code, now));
        }
    }

    /** {@inheritDoc} No I/O: the timeout is never reached. */
    @Override
    public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
        requireNonNull(now, "now is null");
        synchronized (stripe(key.runId())) {
            Instant storeNow = clock.instant();
            RecordTable.Entry current = records.live(key, storeNow);
            boolean leasePassed = current != null && current.leasePassedAt(storeNow);
            return carryOut(current,
                    StoreRules.abandon(Option.of(current).map(RecordTable.Entry::record), leasePassed, now));
        }
    }

    /**
     * Carries out what the rules decided on {@code current}: a refusal, the stored final record (a retry),
     * or a write of the final record into it; the caller holds the run's stripe.
     */
    private <F extends CanonicalRecord.Final> Either<StoreFailure, F> carryOut(RecordTable.Entry current,
            Either<Refusal, StoreRules.Change<F>> decided) {
        if (decided.isLeft()) {
            return Either.left(StoreFailure.refused(decided.getLeft()));
        }
        StoreRules.Change<F> change = decided.get();
        if (!change.write()) {
            return Either.right(change.record());
        }
        Either<StoreFailure, F> written = records.complete(current, change.record(), reclaim);
        if (written.isRight()) {
            outbox.forEach(queue -> queue.append(written.get()));
        }
        return written;
    }

    /** {@inheritDoc} A bounded queue in this store's heap, when {@code custom().outbox(capacity)} turned export on. */
    @Override
    public Option<RecordOutbox> outbox() {
        return outbox.map(RecordOutbox.class::cast);
    }

    /** {@inheritDoc} No I/O: the timeout is never reached. */
    @Override
    public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
        return Either.right(records.peek(key, clock.instant()).map(RecordTable.Entry::record));
    }

    /**
     * {@inheritDoc} No I/O: the timeout is never reached. Looks at every record held, of every run (at most
     * {@link #maxRecords()}), and takes no lock.
     */
    @Override
    public Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, Duration timeout) {
        return Either.right(records.toolCallIds(request, clock.instant()));
    }

    /**
     * The time the record has left, by this store's clock; none when there is no live record. Never
     * changes it.
     *
     * @param key the canonical key
     * @return the record's remaining time to live, or none
     */
    public Option<Duration> remainingTtl(InvocationKey key) {
        requireNonNull(key, "key is null");
        Instant now = clock.instant();
        return records.peek(key, now).map(entry -> Duration.between(now, entry.expiresAt()));
    }

    /**
     * The time the run's state has left, by this store's clock; none when the store holds no live state
     * of the run. Never changes it.
     *
     * @param runId the run
     * @return the run's remaining time to live, or none
     */
    public Option<Duration> remainingRunTtl(RunId runId) {
        requireNonNull(runId, "runId is null");
        Instant now = clock.instant();
        return runs.peek(runId, now).map(state -> Duration.between(now, state.expiresAt()));
    }

    /** {@return how many records and runs are held, live or not yet swept} */
    public int size() {
        return records.size() + runs.size();
    }

    /** Drops every expired record and run now. */
    public void purgeExpired() {
        Instant now = clock.instant();
        records.dropExpired(now);
        runs.dropExpired(now, room);
    }

    /** Drops the records and runs whose time has come, waiting for a sweep under way to finish. */
    private void reclaimExpired() {
        Instant sweptAt = clock.instant();
        expiries.sweep(sweptAt, dropIfExpired);
    }

    /** Drops the record or run a schedule handed over, unless it lives on (a run is looked up by its id). */
    private void dropIfExpired(Object due, Instant now) {
        if (due instanceof RecordTable.Entry entry) {
            records.dropIfExpired(entry, now);
        } else if (due instanceof RunTable.RunState run) {
            runs.dropIfExpired(run.runId(), now, room);
        }
    }

    private Object stripe(RunId runId) {
        return stripes[Math.floorMod(runId.hashCode(), STRIPES)];
    }
}
