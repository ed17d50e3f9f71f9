package io.toolboundary.adapter.inmemory;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.domain.spi.StoreRules;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The records the in-memory store holds, each with its attempt's token, expiry, lease and counted size.
 * Writers hold the record's run stripe lock (the store takes it), except the expiry sweep, which takes
 * none; readers take none. An entry is one object for its record's whole life, the final state written
 * into it, so that the sweep drops the very entry it scheduled at the begin; whoever removes an entry
 * from the table gives its room back, once ({@link Entry#retire()}).
 */
final class RecordTable {

    private final Map<Slot, Entry> records = new ConcurrentHashMap<>();
    private final Room room;

    RecordTable(Room room) {
        this.room = room;
    }

    /** The entry when it is held and live at {@code now}; null otherwise (an expired one is dropped). */
    Entry live(InvocationKey key, Instant now) {
        return live(new Slot(key), now);
    }

    /** {@link #live(InvocationKey, Instant)} under a slot the caller made, to hold the entry it may create. */
    Entry live(Slot slot, Instant now) {
        Entry entry = records.get(slot);
        if (entry != null && entry.expiredAt(now)) {
            drop(entry);
            return null;
        }
        return entry;
    }

    /** The entry when it is live at {@code now}, without dropping anything. */
    Option<Entry> peek(InvocationKey key, Instant now) {
        return Option.of(records.get(new Slot(key))).filter(entry -> !entry.expiredAt(now));
    }

    /** Holds a new entry, whose room was taken; gives back the room of one it replaces. */
    void put(Entry entry) {
        Entry previous = records.put(entry.slot, entry);
        if (previous != null) {
            release(previous);
        }
    }

    /**
     * Writes {@code done} into {@code current}, counting the difference in bytes, and then answers it;
     * refused as expired when a sweep dropped the entry meanwhile, and as full when the room cannot hold
     * the difference even after {@code reclaim}.
     */
    <F extends CanonicalRecord.Final> Either<StoreFailure, F> complete(Entry current, F done, Runnable reclaim) {
        long was = current.bytes;
        if (was == Entry.DROPPED) {
            return Either.left(StoreFailure.refused(Refusal.EXPIRED));
        }
        long growth = done.byteSize() - was;
        if (!room.grow(growth)) {
            reclaim.run();
            if (!room.grow(growth)) {
                return Either.left(StoreFailure.full());
            }
        }
        if (!current.finish(was, done)) {
            // Dropped by a sweep since it was read: it expired meanwhile.
            room.ungrow(growth);
            return Either.left(StoreFailure.refused(Refusal.EXPIRED));
        }
        return Either.right(done);
    }

    /** Drops {@code entry} when it has expired at {@code now} and is still held. */
    void dropIfExpired(Entry entry, Instant now) {
        if (entry.expiredAt(now)) {
            drop(entry);
        }
    }

    /** Drops every expired entry now. */
    void dropExpired(Instant now) {
        records.values().forEach(entry -> dropIfExpired(entry, now));
    }

    private void drop(Entry entry) {
        if (records.remove(entry.slot, entry)) {
            release(entry);
        }
    }

    private void release(Entry removed) {
        long bytes = removed.retire();
        if (bytes != Entry.DROPPED) {
            room.releaseRecord(bytes);
        }
    }

    /** The first {@code limit} live tool_call_ids of the run after {@code after}, in order; looks at every entry. */
    ToolCallIdPage toolCallIds(ToolCallIdPage.Request request, Instant now) {
        RunId runId = request.runId();
        Option<ToolCallId> after = request.after();
        int limit = request.limit();
        TreeMap<String, ToolCallId> ids = new TreeMap<>();
        boolean more = false;
        for (Map.Entry<Slot, Entry> held : records.entrySet()) {
            ToolCallId id = held.getKey().key.toolCallId();
            if (!held.getKey().key.runId().equals(runId) || held.getValue().expiredAt(now)
                    || after.exists(last -> id.value().compareTo(last.value()) <= 0)) {
                continue;
            }
            ids.put(id.value(), id);
            if (ids.size() > limit) {
                ids.pollLastEntry();
                more = true;
            }
        }
        return new ToolCallIdPage(List.copyOf(ids.values()), more);
    }

    /** How many entries are held, live or not yet dropped. */
    int size() {
        return records.size();
    }

    /** What the rules see of an entry: its record, and whether {@code token} began it. */
    static Option<StoreRules.Held> held(Entry entry, AttemptToken token) {
        return entry == null ? Option.none() : Option.some(new StoreRules.Held(entry.record(), entry.token().equals(token)));
    }

    /**
     * A record's key as the table holds it, with its hash computed once: the sweep drops an entry long after
     * its begin, when the key's ids have left the processor's caches, and rehashing them would read each
     * of them from memory again.
     */
    static final class Slot {
        private final InvocationKey key;
        private final int hash;

        /** The slot of {@code key}, its hash computed now. */
        Slot(InvocationKey key) {
            this.key = key;
            this.hash = key.hashCode();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Slot slot && hash == slot.hash && key.equals(slot.key);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * A record as held under its key: its attempt's token, expiry and lease (kept as plain numbers, so a begin
     * makes no instant), and its size as counted toward {@code maxBytes}. A drop marks the size
     * {@link #DROPPED}, so a completion racing the sweep either lands before the drop (which gives back the
     * grown size) or is refused.
     */
    static final class Entry {

        /** The size of an entry that was dropped from the table. */
        static final long DROPPED = -1;
        private static final int NANOS_PER_SECOND = 1_000_000_000;
        private static final VarHandle BYTES;

        static {
            try {
                BYTES = MethodHandles.lookup().findVarHandle(Entry.class, "bytes", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Slot slot;
        private final AttemptToken token;
        private final long expirySecond;
        private final int expiryNano;
        private final Instant begunAt;
        private final Duration lease;
        private volatile CanonicalRecord record;
        private volatile long bytes;

        /**
         * The entry of a record begun at {@code begunAt}, living {@code ttl} from then, held under
         * {@code slot}, the slot of the record's key that its begin looked up.
         *
         * @throws IllegalArgumentException when the slot is another key's
         * @throws DateTimeException when the expiry is beyond the instants, as {@link Instant#plus} throws
         */
        Entry(Slot slot, CanonicalRecord.Projecting record, AttemptToken token, Instant begunAt, Duration ttl,
                Duration lease) {
            if (!slot.key.equals(record.key())) {
                throw new IllegalArgumentException("the slot is another key's");
            }
            // begunAt.plus(ttl), without making the instant: its second and nanosecond, checked as it checks them.
            long second = Math.addExact(begunAt.getEpochSecond(), ttl.getSeconds());
            int nano = begunAt.getNano() + ttl.getNano();
            if (nano >= NANOS_PER_SECOND) {
                second = Math.addExact(second, 1);
                nano -= NANOS_PER_SECOND;
            }
            if (second > Instant.MAX.getEpochSecond() || second < Instant.MIN.getEpochSecond()) {
                throw new DateTimeException("Instant exceeds minimum or maximum instant");
            }
            this.slot = slot;
            this.token = token;
            this.expirySecond = second;
            this.expiryNano = nano;
            this.begunAt = begunAt;
            this.lease = lease;
            this.record = record;
            this.bytes = record.byteSize();
        }

        CanonicalRecord record() {
            return record;
        }

        AttemptToken token() {
            return token;
        }

        /** The expiry, as an instant made now: for reads, not for the sweep. */
        Instant expiresAt() {
            return Instant.ofEpochSecond(expirySecond, expiryNano);
        }

        boolean expiredAt(Instant now) {
            long second = now.getEpochSecond();
            return second > expirySecond || second == expirySecond && now.getNano() >= expiryNano;
        }

        /** Orders this entry's expiry against {@code other}'s, as their instants compare. */
        int compareExpiry(Entry other) {
            return expirySecond != other.expirySecond ? Long.compare(expirySecond, other.expirySecond)
                    : Integer.compare(expiryNano, other.expiryNano);
        }

        /** Whether the execution lease, from the begin by the store's clock, has run out at {@code now}. */
        boolean leasePassedAt(Instant now) {
            return !now.isBefore(begunAt.plus(lease));
        }

        /**
         * The size of this entry's record completed as {@code done}: its PROJECTING self's, plus what the
         * completion adds to a record.
         */
        long bytesAs(CanonicalRecord.Final done) {
            CanonicalRecord held = record;
            long begun = held instanceof CanonicalRecord.Final ended ? ended.begun().byteSize() : held.byteSize();
            return begun + done.byteSize() - done.begun().byteSize();
        }

        /** Holds {@code done} in place of the record of {@code was} bytes; false when the entry was dropped. */
        private boolean finish(long was, CanonicalRecord.Final done) {
            if (!BYTES.compareAndSet(this, was, done.byteSize())) {
                return false;
            }
            record = done;
            return true;
        }

        /** Marks the entry dropped; answers the size to give back, or {@link #DROPPED} if it was already. */
        private long retire() {
            while (true) {
                long held = bytes;
                if (held == DROPPED || BYTES.compareAndSet(this, held, DROPPED)) {
                    return held;
                }
            }
        }
    }
}
