package io.toolboundary.adapter.inmemory;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.application.ToolCallIdPage;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.StoreRules;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedded store: the same semantics as the Redis store, in this JVM's memory, within a bound.
 *
 * <p>{@code begin}, {@code complete}, {@code end} and {@code abandon} are atomic per run (one lock stripe per run id);
 * {@code find} takes no lock. Expiry follows the injected clock: a record lives exactly its TTL from creation;
 * completion and abandonment keep the remaining TTL; reads never extend it. Execution leases run on the
 * same clock, from the record's creation, and are compared with it exactly, to the nanosecond. Expired
 * entries are dropped when touched,
 * and each {@code begin} first drops those whose time has come, in order of expiry (a queue, so the
 * cost is per expired entry, not per stored one); no background thread needs managing. Records are
 * lost when the JVM stops.
 *
 * <p><b>The bound.</b> The store holds at most {@link #maxRecords()} records and at most
 * {@link #maxBytes()} bytes of them, counted as {@link CanonicalRecord#byteSize()} counts them (the UTF-8
 * bytes of the ids, tool name, request, fingerprint, raw response and agent result). Records are counted
 * from the {@code begin} that creates them until they are dropped (expired records count until they are
 * reclaimed). A record grows when it is completed with its raw response and agent result; the difference
 * is counted then. Beyond either bound the store answers {@code STORE_FULL} and changes nothing, after
 * first reclaiming every expired record and counter: a {@code begin} that would exceed them, and a
 * {@code complete} whose final record would exceed {@link #maxBytes()} (the record stays PROJECTING as it
 * was; {@code end} then always fits, an ERROR record without raw response being no larger). Duplicates,
 * reused ids and spent budgets are answered as such before the bound is consulted. Each budget counter
 * (one per run and one per tool and run, created by the {@code begin} that first needs it) is bounded
 * too: at most twice {@link #maxRecords()} of them, {@code STORE_FULL} beyond; their bytes (a run id
 * and a tool name, each at most 128 ASCII characters) are not counted in {@link #maxBytes()}. Counting
 * is atomic and reserved before anything is written, so threads racing for the last room never
 * overshoot.
 *
 * <p>{@code byteSize()} approximates the memory held. A string of Latin-1 text takes one byte per
 * character in the heap, any other two (so up to twice its UTF-8 bytes: ASCII text with a single
 * character beyond Latin-1; less for most non-Latin text). Each record also takes objects beyond its
 * strings (the record, its entry, map node, expiry-queue entry and timestamps): about 400 bytes, and
 * about 750 for the first record of a run, which creates its two budget counters (measured on JDK 17
 * with compressed pointers). The defaults leave most of the heap to the application:
 * {@code maxBytes} is {@link #DEFAULT_MAX_BYTES} or a quarter of the JVM's maximum heap
 * ({@code Runtime.maxMemory()} when the store is built), whichever is smaller, and {@code maxRecords}
 * is {@link #DEFAULT_MAX_RECORDS} or one record per {@value #HEAP_BYTES_PER_DEFAULT_RECORD} bytes of
 * the maximum heap, whichever is smaller: 16 MiB and 16,384 records with {@code -Xmx64m}, 64 MiB and
 * 65,536 with {@code -Xmx256m}. A full store then holds about a quarter of the heap in Latin-1 text (half
 * in other text) and under a fifth in the objects around its records.
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
    private final Map<InvocationKey, Entry> records = new ConcurrentHashMap<>();
    private final Map<Counter, Count> counters = new ConcurrentHashMap<>();
    private final Object[] stripes = new Object[STRIPES];
    /** Every record and counter, by expiry: dropped from the maps as their time comes. */
    private final ExpirySchedule<Object> expiries = new ExpirySchedule<>();

    private InMemoryCanonicalInvocationStore(Builder builder) {
        this.clock = builder.clock;
        this.maxRecordBytes = builder.recordCapBytes;
        this.maxRecords = builder.maxRecords;
        this.maxBytes = builder.maxBytes;
        this.room = new Room(builder.maxRecords, builder.maxBytes,
                builder.maxRecords > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * builder.maxRecords);
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Object();
        }
    }

    /**
     * A store on the system UTC clock with the default bound and without a record cap of its own (the
     * boundary's limit applies); the same as {@link #ofDefaults()}.
     *
     * @return the store
     */
    public static InMemoryCanonicalInvocationStore create() {
        return custom().build();
    }

    /**
     * A store on the system UTC clock with the default bound and without a record cap of its own.
     *
     * @return the store
     */
    public static InMemoryCanonicalInvocationStore ofDefaults() {
        return custom().build();
    }

    /**
     * A store whose expiry follows {@code clock}, with the default bound, without a record cap of its own.
     *
     * @param clock the clock that expiry follows
     * @return the store
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

    /**
     * A builder starting from the defaults: the system UTC clock, the default bound, no record cap.
     *
     * @return the builder
     */
    public static Builder custom() {
        return new Builder();
    }

    /**
     * The most records this store holds, expired ones not yet reclaimed included.
     *
     * @return the record bound
     */
    public long maxRecords() {
        return maxRecords;
    }

    /**
     * The most bytes of records this store holds, as {@link CanonicalRecord#byteSize()} counts them.
     *
     * @return the byte bound
     */
    public long maxBytes() {
        return maxBytes;
    }

    /**
     * The bytes of the records held now (expired ones not yet reclaimed included), counted toward {@link #maxBytes()}.
     *
     * @return the bytes held now
     */
    public long heldBytes() {
        return room.heldBytes();
    }

    @Override
    public OptionalLong recordCapBytes() {
        return maxRecordBytes == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(maxRecordBytes);
    }

    /**
     * {@inheritDoc} No I/O: the timeout is never reached. {@code STORE_FULL} when the record, or a budget
     * counter it needs, would exceed the store's bound once expired entries are reclaimed; checked after
     * the existing key and the budgets.
     */
    @Override
    public Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        requireNonNull(start, "start is null");
        requireNonNull(timeout, "timeout is null");
        CanonicalRecord.Projecting record = start.record();
        long bytes = record.byteSize();
        if (bytes > Math.min(start.recordLimitBytes(), maxRecordBytes)) {
            return refuse(ErrorCode.RESULT_TOO_LARGE);
        }
        Instant sweptAt = clock.instant();
        expiries.sweepNowAndThen(sweptAt, due -> dropIfExpired(due, sweptAt));
        InvocationKey key = record.key();
        synchronized (stripe(key.runId())) {
            Instant now = clock.instant();
            Entry existing = live(key, now);
            Counter runCounter = new Counter(key.runId(), Option.none());
            Counter toolCounter = new Counter(key.runId(), Option.of(record.tool()));
            Either<BoundaryError, Option<CanonicalRecord.Projecting>> decided = StoreRules.begin(
                    held(existing, start.token()), record.requestFingerprint(),
                    used(runCounter, now), start.runCallBudget(), used(toolCounter, now), start.toolCallBudget());
            if (decided.isLeft() || decided.get().isDefined()) {
                return decided.map(Option::get);
            }
            // Counters that may have to be created: absent, or expired (a sweep may drop it meanwhile).
            long newCounters = (used(runCounter, now) == 0 ? 1 : 0) + (used(toolCounter, now) == 0 ? 1 : 0);
            if (!room.admit(bytes, newCounters)) {
                reclaimExpired();
                if (!room.admit(bytes, newCounters)) {
                    return refuse(ErrorCode.STORE_FULL);
                }
            }
            Instant expiresAt = now.plus(start.ttl());
            long created = reserve(runCounter, expiresAt, now) + reserve(toolCounter, expiresAt, now);
            room.settleCounters(created, newCounters);
            Entry previous = records.put(key, new Entry(record, start.token(), expiresAt, now.plus(start.lease()), bytes));
            if (previous != null) {
                release(previous);
            }
            expiries.schedule(expiresAt, key);
            return Either.right(record);
        }
    }

    /**
     * {@inheritDoc} No I/O: the timeout is never reached. {@code STORE_FULL} when the final record would
     * take the store over {@link #maxBytes()} once expired entries are reclaimed; the record is then
     * left as it was.
     */
    @Override
    public Either<BoundaryError, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final outcome,
            Duration timeout) {
        requireNonNull(token, "token is null");
        requireNonNull(outcome, "outcome is null");
        requireNonNull(timeout, "timeout is null");
        InvocationKey key = outcome.key();
        synchronized (stripe(key.runId())) {
            Entry current = live(key, clock.instant());
            long bytes = outcome.byteSize();
            if (current != null && current.token().equals(token) && bytes > maxRecordBytes) {
                return refuse(ErrorCode.RESULT_TOO_LARGE);
            }
            Either<BoundaryError, CanonicalRecord.Final> next = StoreRules.complete(held(current, token), outcome);
            if (next.isLeft() || current.record() instanceof CanonicalRecord.Final) {
                return next;
            }
            return replace(key, current, next.get(), bytes);
        }
    }

    /** {@inheritDoc} No I/O: the timeout is never reached. */
    @Override
    public Either<BoundaryError, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout) {
        requireNonNull(key, "key is null");
        requireNonNull(token, "token is null");
        requireNonNull(code, "code is null");
        requireNonNull(now, "now is null");
        requireNonNull(timeout, "timeout is null");
        synchronized (stripe(key.runId())) {
            Entry current = live(key, clock.instant());
            Either<BoundaryError, CanonicalRecord.Final> ended = StoreRules.end(held(current, token), code, now);
            if (ended.isLeft() || current.record() instanceof CanonicalRecord.Final) {
                return ended;
            }
            return replace(key, current, ended.get(), ended.get().byteSize());
        }
    }

    /** {@inheritDoc} No I/O: the timeout is never reached. */
    @Override
    public Either<BoundaryError, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
        requireNonNull(key, "key is null");
        requireNonNull(now, "now is null");
        requireNonNull(timeout, "timeout is null");
        synchronized (stripe(key.runId())) {
            Instant storeNow = clock.instant();
            Entry current = live(key, storeNow);
            boolean leasePassed = current != null && !storeNow.isBefore(current.leaseUntil());
            Either<BoundaryError, CanonicalRecord.Failed> abandoned =
                    StoreRules.abandon(Option.of(current).map(Entry::record), leasePassed, now);
            if (abandoned.isLeft() || !(current.record() instanceof CanonicalRecord.Projecting)) {
                return abandoned;
            }
            return replace(key, current, abandoned.get(), abandoned.get().byteSize());
        }
    }

    /** {@inheritDoc} No I/O: the timeout is never reached. */
    @Override
    public Either<BoundaryError, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
        requireNonNull(key, "key is null");
        requireNonNull(timeout, "timeout is null");
        Entry entry = records.get(key);
        if (entry == null || entry.expiredAt(clock.instant())) {
            return Either.right(Option.none());
        }
        return Either.right(Option.of(entry.record()));
    }

    /**
     * {@inheritDoc} No I/O: the timeout is never reached. Looks at every record held, of every run (at most
     * {@link #maxRecords()}), and takes no lock.
     */
    @Override
    public Either<BoundaryError, ToolCallIdPage> toolCallIds(RunId runId, Option<ToolCallId> after, int limit,
            Duration timeout) {
        requireNonNull(runId, "runId is null");
        requireNonNull(after, "after is null");
        requireNonNull(timeout, "timeout is null");
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        Instant now = clock.instant();
        TreeMap<String, ToolCallId> ids = new TreeMap<>();
        boolean more = false;
        for (Map.Entry<InvocationKey, Entry> held : records.entrySet()) {
            ToolCallId id = held.getKey().toolCallId();
            if (!held.getKey().runId().equals(runId) || held.getValue().expiredAt(now)
                    || after.exists(last -> id.value().compareTo(last.value()) <= 0)) {
                continue;
            }
            ids.put(id.value(), id);
            if (ids.size() > limit) {
                ids.pollLastEntry();
                more = true;
            }
        }
        return Either.right(new ToolCallIdPage(List.copyOf(ids.values()), more));
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
        Entry entry = records.get(key);
        Instant now = clock.instant();
        if (entry == null || entry.expiredAt(now)) {
            return Option.none();
        }
        return Option.of(Duration.between(now, entry.expiresAt()));
    }

    /**
     * How many records and budget counters are held, live or not yet swept.
     *
     * @return the number of records and budget counters held
     */
    public int size() {
        return records.size() + counters.size();
    }

    /** Drops every expired record and counter now. */
    public void purgeExpired() {
        Instant now = clock.instant();
        records.keySet().forEach(key -> dropIfExpired(key, now));
        counters.keySet().forEach(counter -> dropIfExpired(counter, now));
    }

    /**
     * Replaces the stripe's current entry by one holding {@code done}, counting the difference in bytes;
     * {@code STORE_FULL} (nothing changed) when the growth does not fit. Holds the key's stripe.
     */
    private <T extends CanonicalRecord.Final> Either<BoundaryError, T> replace(InvocationKey key, Entry current, T done,
            long bytes) {
        long growth = bytes - current.bytes();
        if (!room.grow(growth)) {
            reclaimExpired();
            if (!room.grow(growth)) {
                return refuse(ErrorCode.STORE_FULL);
            }
        }
        if (!records.replace(key, current, current.with(done, bytes))) {
            // Reclaimed by a sweep since it was read: it expired meanwhile.
            room.ungrow(growth);
            return refuse(ErrorCode.RECORD_EXPIRED);
        }
        return Either.right(done);
    }

    private void release(Entry dropped) {
        room.releaseRecord(dropped.bytes());
    }

    private Entry live(InvocationKey key, Instant now) {
        Entry entry = records.get(key);
        if (entry != null && entry.expiredAt(now)) {
            if (records.remove(key, entry)) {
                release(entry);
            }
            return null;
        }
        return entry;
    }

    private void dropIfExpired(InvocationKey key, Instant now) {
        Entry entry = records.get(key);
        if (entry != null && entry.expiredAt(now) && records.remove(key, entry)) {
            release(entry);
        }
    }

    private void dropIfExpired(Counter counter, Instant now) {
        Count count = counters.get(counter);
        if (count != null && count.expiredAt(now) && counters.remove(counter, count)) {
            room.releaseCounter();
        }
    }

    private long used(Counter counter, Instant now) {
        Count count = counters.get(counter);
        if (count == null || count.expiredAt(now)) {
            return 0;
        }
        return count.used();
    }

    /** Counts one call on the counter; returns 1 when the counter was created (absent before), else 0. */
    private long reserve(Counter counter, Instant expiresAt, Instant now) {
        boolean[] created = {false};
        Count reserved = counters.compute(counter, (c, count) -> {
            if (count == null) {
                created[0] = true;
                return new Count(1, expiresAt);
            }
            return count.expiredAt(now) ? new Count(1, expiresAt) : new Count(count.used() + 1, count.expiresAt());
        });
        if (reserved.used() == 1) {
            expiries.schedule(expiresAt, counter);
        }
        return created[0] ? 1 : 0;
    }

    /** Drops the records and counters whose time has come, waiting for a sweep under way to finish. */
    private void reclaimExpired() {
        Instant sweptAt = clock.instant();
        expiries.sweep(sweptAt, due -> dropIfExpired(due, sweptAt));
    }

    private void dropIfExpired(Object key, Instant now) {
        if (key instanceof InvocationKey record) {
            dropIfExpired(record, now);
        } else if (key instanceof Counter counter) {
            dropIfExpired(counter, now);
        }
    }

    /** What the rules see of an entry: its record, and whether {@code token} began it. */
    private static Option<StoreRules.Held> held(Entry entry, AttemptToken token) {
        return entry == null ? Option.none() : Option.some(new StoreRules.Held(entry.record(), entry.token().equals(token)));
    }

    private Object stripe(RunId runId) {
        return stripes[Math.floorMod(runId.hashCode(), STRIPES)];
    }

    private static <T> Either<BoundaryError, T> refuse(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }

    /** A record as held: its attempt's token, expiry, lease, and its size as counted toward {@code maxBytes}. */
    private record Entry(CanonicalRecord record, AttemptToken token, Instant expiresAt, Instant leaseUntil, long bytes) {
        boolean expiredAt(Instant now) {
            return !now.isBefore(expiresAt);
        }

        /** The same entry holding the record's final state; token, expiry and lease unchanged. */
        Entry with(CanonicalRecord.Final done, long doneBytes) {
            return new Entry(done, token, expiresAt, leaseUntil, doneBytes);
        }
    }

    /** A budget counter: the whole run's (no tool) or one tool's within the run. */
    private record Counter(RunId runId, Option<ToolName> tool) {
    }

    private record Count(long used, Instant expiresAt) {
        boolean expiredAt(Instant now) {
            return !now.isBefore(expiresAt);
        }
    }

    /**
     * Builds a store; each setter rejects an invalid value at once, naming the field. Starts from the
     * system UTC clock, the default bound (see the class comment) and no record cap of the store's own.
     */
    public static final class Builder {
        private Clock clock = Clock.systemUTC();
        private long maxRecords = defaultMaxRecords(Runtime.getRuntime().maxMemory());
        private long maxBytes = defaultMaxBytes(Runtime.getRuntime().maxMemory());
        private long recordCapBytes = Long.MAX_VALUE;

        private Builder() {
        }

        /**
         * The clock that expiry follows.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = requireNonNull(clock, "clock is null");
            return this;
        }

        /**
         * The most records held, expired ones not yet reclaimed included; 1 or more.
         *
         * @param records the record bound
         * @return this builder
         */
        public Builder maxRecords(long records) {
            this.maxRecords = positive(records, "maxRecords");
            return this;
        }

        /**
         * The most bytes of records held, as {@code CanonicalRecord.byteSize()} counts them; 1 or more.
         *
         * @param bytes the byte bound
         * @return this builder
         */
        public Builder maxBytes(long bytes) {
            this.maxBytes = positive(bytes, "maxBytes");
            return this;
        }

        /**
         * The store's own hard cap on one record, in UTF-8 bytes; 1 or more. A boundary configured with a
         * larger record limit refuses the store when it is built. None by default.
         *
         * @param bytes the cap on one record
         * @return this builder
         */
        public Builder recordCapBytes(long bytes) {
            this.recordCapBytes = positive(bytes, "recordCapBytes");
            return this;
        }

        /**
         * The store.
         *
         * @return the store
         */
        public InMemoryCanonicalInvocationStore build() {
            return new InMemoryCanonicalInvocationStore(this);
        }

        private static long positive(long value, String field) {
            if (value <= 0) {
                throw new IllegalArgumentException(field + " must be positive, was " + value);
            }
            return value;
        }
    }

    /** The default {@code maxBytes} for a JVM whose maximum heap is {@code maxHeap}: a quarter of it, at most 256 MiB. */
    static long defaultMaxBytes(long maxHeap) {
        return Math.max(1, Math.min(DEFAULT_MAX_BYTES, maxHeap / 4));
    }

    /** The default {@code maxRecords} for a JVM whose maximum heap is {@code maxHeap}: one per 4 KiB, at most 100,000. */
    static long defaultMaxRecords(long maxHeap) {
        return Math.max(1, Math.min(DEFAULT_MAX_RECORDS, maxHeap / HEAP_BYTES_PER_DEFAULT_RECORD));
    }
}
