package io.toolboundary.adapter.inmemory;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Lifecycle;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Map;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The embedded store: the same semantics as the Redis store, in this JVM's memory.
 *
 * <p>{@code begin}, {@code complete} and {@code abandon} are atomic per run (one lock stripe per run id); {@code find}
 * takes no lock. Expiry follows the injected clock: a record lives exactly its TTL from creation;
 * completion and abandonment keep the remaining TTL; reads never extend it. Execution leases run on
 * the same clock, from the record's creation, and are compared with it exactly, to the nanosecond. Expired entries are dropped when touched,
 * and each {@code begin} first drops those whose time has come, in order of expiry (a queue, so the
 * cost is per expired entry, not per stored one); no background thread needs managing. Records are
 * lost when the JVM stops.
 */
public final class InMemoryCanonicalInvocationStore implements CanonicalInvocationStore {

    private static final int STRIPES = 64;

    private final Clock clock;
    private final long maxRecordBytes;
    private final Map<InvocationKey, Entry> records = new ConcurrentHashMap<>();
    private final Map<Counter, Count> counters = new ConcurrentHashMap<>();
    private final Object[] stripes = new Object[STRIPES];
    /**
     * Every record and counter, by expiry, in two queues: those scheduled in order (nearly all: the clock
     * moves forward and the TTL rarely changes), appended at the end; and the few that expire before the
     * last one queued (a shorter TTL, a clock set back), in a heap. Entries are dropped from the maps as
     * their time comes.
     */
    private final ArrayDeque<Expiry> inOrder = new ArrayDeque<>();
    private final PriorityQueue<Expiry> outOfOrder = new PriorityQueue<>(Comparator.comparing(Expiry::at));
    private final ReentrantLock sweeping = new ReentrantLock();

    private InMemoryCanonicalInvocationStore(Clock clock, long maxRecordBytes) {
        this.clock = requireNonNull(clock, "clock is null");
        if (maxRecordBytes <= 0) {
            throw new IllegalArgumentException("maxRecordBytes must be positive, was " + maxRecordBytes);
        }
        this.maxRecordBytes = maxRecordBytes;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Object();
        }
    }

    /** A store on the system UTC clock, without a record cap of its own (the boundary's limit applies). */
    public static InMemoryCanonicalInvocationStore create() {
        return create(Clock.systemUTC());
    }

    /** A store whose expiry follows {@code clock}, without a record cap of its own. */
    public static InMemoryCanonicalInvocationStore create(Clock clock) {
        return create(clock, Long.MAX_VALUE);
    }

    /**
     * A store whose expiry follows {@code clock} and which never holds a record over
     * {@code recordCapBytes} UTF-8 bytes, whatever the boundary's configured limit; a boundary configured
     * with a larger limit refuses this store when it is built.
     */
    public static InMemoryCanonicalInvocationStore create(Clock clock, long recordCapBytes) {
        return new InMemoryCanonicalInvocationStore(clock, recordCapBytes);
    }

    @Override
    public OptionalLong recordCapBytes() {
        return maxRecordBytes == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(maxRecordBytes);
    }

    /** {@inheritDoc} No I/O: the timeout is never reached. */
    @Override
    public Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        requireNonNull(start, "start is null");
        requireNonNull(timeout, "timeout is null");
        CanonicalRecord.Projecting record = start.record();
        if (record.byteSize() > Math.min(start.recordLimitBytes(), maxRecordBytes)) {
            return refuse(ErrorCode.RESULT_TOO_LARGE);
        }
        sweepNowAndThen();
        InvocationKey key = record.key();
        synchronized (stripe(key.runId())) {
            Instant now = clock.instant();
            Entry existing = live(key, now);
            if (existing != null) {
                if (existing.token().equals(start.token()) && existing.record() instanceof CanonicalRecord.Projecting own) {
                    return Either.right(own);
                }
                return refuse(existing.record().requestFingerprint().equals(record.requestFingerprint())
                        ? ErrorCode.DUPLICATE_TOOL_CALL
                        : ErrorCode.TOOL_CALL_ID_REUSED);
            }
            Counter runCounter = new Counter(key.runId(), Option.none());
            Counter toolCounter = new Counter(key.runId(), Option.of(record.tool()));
            if (used(runCounter, now) >= start.runCallBudget()) {
                return refuse(ErrorCode.RUN_BUDGET_EXHAUSTED);
            }
            if (used(toolCounter, now) >= start.toolCallBudget()) {
                return refuse(ErrorCode.TOOL_BUDGET_EXHAUSTED);
            }
            Instant expiresAt = now.plus(start.ttl());
            reserve(runCounter, expiresAt, now);
            reserve(toolCounter, expiresAt, now);
            records.put(key, new Entry(record, start.token(), expiresAt, now.plus(start.lease())));
            scheduleExpiry(expiresAt, key);
            return Either.right(record);
        }
    }

    /** {@inheritDoc} No I/O: the timeout is never reached. */
    @Override
    public Either<BoundaryError, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final outcome,
            Duration timeout) {
        requireNonNull(token, "token is null");
        requireNonNull(outcome, "outcome is null");
        requireNonNull(timeout, "timeout is null");
        InvocationKey key = outcome.key();
        synchronized (stripe(key.runId())) {
            Entry current = live(key, clock.instant());
            if (current == null) {
                return refuse(ErrorCode.RECORD_EXPIRED);
            }
            if (!current.token().equals(token)) {
                return refuse(ErrorCode.RECORD_CONFLICT);
            }
            if (outcome.byteSize() > maxRecordBytes) {
                return refuse(ErrorCode.RESULT_TOO_LARGE);
            }
            Either<BoundaryError, CanonicalRecord.Final> next = Lifecycle.complete(current.record(), outcome);
            next.forEach(done -> records.put(key, current.with(done)));
            return next;
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
            if (current == null) {
                return refuse(ErrorCode.RECORD_EXPIRED);
            }
            if (!current.token().equals(token)) {
                return refuse(ErrorCode.RECORD_CONFLICT);
            }
            if (current.record() instanceof CanonicalRecord.Final done) {
                return Either.right(done);
            }
            CanonicalRecord.Failed ended = ((CanonicalRecord.Projecting) current.record()).fail(code, Option.none(), now);
            records.put(key, current.with(ended));
            return Either.right(ended);
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
            if (current == null) {
                return refuse(ErrorCode.RECORD_EXPIRED);
            }
            if (current.record() instanceof CanonicalRecord.Failed failed && failed.code() == ErrorCode.EXECUTION_ABANDONED) {
                return Either.right(failed);
            }
            if (!(current.record() instanceof CanonicalRecord.Projecting projecting)) {
                return refuse(ErrorCode.RECORD_CONFLICT);
            }
            if (storeNow.isBefore(current.leaseUntil())) {
                return refuse(ErrorCode.LEASE_NOT_EXPIRED);
            }
            CanonicalRecord.Failed abandoned = projecting.fail(ErrorCode.EXECUTION_ABANDONED, Option.none(), now);
            records.put(key, current.with(abandoned));
            return Either.right(abandoned);
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
     * The time the record has left, by this store's clock; none when there is no live record. Never
     * changes it.
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

    /** How many records and budget counters are held, live or not yet swept. */
    public int size() {
        return records.size() + counters.size();
    }

    /** Drops every expired record and counter now. */
    public void purgeExpired() {
        Instant now = clock.instant();
        records.values().removeIf(entry -> entry.expiredAt(now));
        counters.values().removeIf(count -> count.expiredAt(now));
    }

    private Entry live(InvocationKey key, Instant now) {
        Entry entry = records.get(key);
        if (entry != null && entry.expiredAt(now)) {
            records.remove(key, entry);
            return null;
        }
        return entry;
    }

    private long used(Counter counter, Instant now) {
        Count count = counters.get(counter);
        if (count == null || count.expiredAt(now)) {
            return 0;
        }
        return count.used();
    }

    private void reserve(Counter counter, Instant expiresAt, Instant now) {
        Count reserved = counters.compute(counter, (c, count) -> count == null || count.expiredAt(now)
                ? new Count(1, expiresAt)
                : new Count(count.used() + 1, count.expiresAt()));
        if (reserved.used() == 1) {
            scheduleExpiry(expiresAt, counter);
        }
    }

    private void scheduleExpiry(Instant at, Object key) {
        sweeping.lock();
        try {
            Expiry last = inOrder.peekLast();
            if (last == null || !at.isBefore(last.at())) {
                inOrder.addLast(new Expiry(at, key));
            } else {
                outOfOrder.add(new Expiry(at, key));
            }
        } finally {
            sweeping.unlock();
        }
    }

    /** Drops the records and counters whose time has come; skipped when another thread is at it. */
    private void sweepNowAndThen() {
        if (!sweeping.tryLock()) {
            return;
        }
        try {
            Instant now = clock.instant();
            for (Expiry due = takeDue(now); due != null; due = takeDue(now)) {
                if (due.key() instanceof InvocationKey key) {
                    records.computeIfPresent(key, (k, entry) -> entry.expiredAt(now) ? null : entry);
                } else if (due.key() instanceof Counter counter) {
                    counters.computeIfPresent(counter, (c, count) -> count.expiredAt(now) ? null : count);
                }
            }
        } finally {
            sweeping.unlock();
        }
    }

    /** Removes and returns the earliest entry if its time has come; else null. Holds {@code sweeping}. */
    private Expiry takeDue(Instant now) {
        Expiry ordered = inOrder.peekFirst();
        Expiry straggler = outOfOrder.peek();
        boolean fromHeap = straggler != null && (ordered == null || straggler.at().isBefore(ordered.at()));
        Expiry earliest = fromHeap ? straggler : ordered;
        if (earliest == null || now.isBefore(earliest.at())) {
            return null;
        }
        return fromHeap ? outOfOrder.poll() : inOrder.pollFirst();
    }

    /** When a record or counter (its key) expires. */
    private record Expiry(Instant at, Object key) {
    }

    private Object stripe(RunId runId) {
        return stripes[Math.floorMod(runId.hashCode(), STRIPES)];
    }

    private static <T> Either<BoundaryError, T> refuse(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }

    private record Entry(CanonicalRecord record, AttemptToken token, Instant expiresAt, Instant leaseUntil) {
        boolean expiredAt(Instant now) {
            return !now.isBefore(expiresAt);
        }

        /** The same entry holding the record's final state; token, expiry and lease unchanged. */
        Entry with(CanonicalRecord.Final done) {
            return new Entry(done, token, expiresAt, leaseUntil);
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
}
