package io.toolboundary.adapter.inmemory;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.StoreFailure;
import io.toolboundary.application.ToolCallIdPage;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.Completion;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Refusal;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.StoreRules;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The records the in-memory store holds, each with its attempt's token, expiry, lease and counted size.
 * Writers hold the record's run stripe lock (the store takes it); readers take none.
 */
final class RecordTable {

    private final Map<InvocationKey, Entry> records = new ConcurrentHashMap<>();
    private final Room room;

    RecordTable(Room room) {
        this.room = room;
    }

    /** The entry when it is held and live at {@code now}; null otherwise (an expired one is dropped). */
    Entry live(InvocationKey key, Instant now) {
        Entry entry = records.get(key);
        if (entry != null && entry.expiredAt(now)) {
            if (records.remove(key, entry)) {
                room.releaseRecord(entry.bytes());
            }
            return null;
        }
        return entry;
    }

    /** The entry when it is live at {@code now}, without dropping anything. */
    Option<Entry> peek(InvocationKey key, Instant now) {
        return Option.of(records.get(key)).filter(entry -> !entry.expiredAt(now));
    }

    /** Holds a new entry, whose room was taken; gives back the room of one it replaces. */
    void put(InvocationKey key, Entry entry) {
        Entry previous = records.put(key, entry);
        if (previous != null) {
            room.releaseRecord(previous.bytes());
        }
    }

    /**
     * Replaces {@code current} by an entry holding {@code done}, counting the difference in bytes, and then
     * answers {@code written}; nothing written (the store full) when the growth does not fit even after
     * {@code reclaim}.
     */
    <T> Either<StoreFailure, T> replace(InvocationKey key, Entry current, CanonicalRecord.Final done, T written,
            Runnable reclaim) {
        long growth = done.byteSize() - current.bytes();
        if (!room.grow(growth)) {
            reclaim.run();
            if (!room.grow(growth)) {
                return Either.left(StoreFailure.full());
            }
        }
        if (!records.replace(key, current, current.with(done))) {
            // Reclaimed by a sweep since it was read: it expired meanwhile.
            room.ungrow(growth);
            return Either.left(StoreFailure.refused(new Refusal.Expired()));
        }
        return Either.right(written);
    }

    /** Drops the entry when it has expired at {@code now}. */
    void dropIfExpired(InvocationKey key, Instant now) {
        Entry entry = records.get(key);
        if (entry != null && entry.expiredAt(now) && records.remove(key, entry)) {
            room.releaseRecord(entry.bytes());
        }
    }

    /** Drops every expired entry now. */
    void dropExpired(Instant now) {
        records.keySet().forEach(key -> dropIfExpired(key, now));
    }

    /** The first {@code limit} live tool_call_ids of the run after {@code after}, in order; looks at every entry. */
    ToolCallIdPage toolCallIds(ToolCallIdPage.Request request, Instant now) {
        RunId runId = request.runId();
        Option<ToolCallId> after = request.after();
        int limit = request.limit();
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
     * A record as held: its attempt's token, expiry and lease, the lease kept as the begin's time and its
     * length, so that a begin computes no instant it may never need.
     */
    record Entry(CanonicalRecord record, AttemptToken token, Instant expiresAt, Instant begunAt, Duration lease) {

        /** The entry's size as counted toward {@code maxBytes}: its record's, counted when it was made. */
        long bytes() {
            return record.byteSize();
        }

        boolean expiredAt(Instant now) {
            return !now.isBefore(expiresAt);
        }

        /** Whether the execution lease, from the begin by the store's clock, has run out at {@code now}. */
        boolean leasePassedAt(Instant now) {
            return !now.isBefore(begunAt.plus(lease));
        }

        /** The size of this entry's record completed with {@code completion}: its PROJECTING self's, plus the completion's. */
        long bytesWith(Completion completion) {
            long begun = record.byteSize()
                    - (record instanceof CanonicalRecord.Final done ? done.completion().byteSize() : 0);
            return begun + completion.byteSize();
        }

        /** The same entry holding the record's final state; token, expiry and lease unchanged. */
        Entry with(CanonicalRecord.Final done) {
            return new Entry(done, token, expiresAt, begunAt, lease);
        }
    }
}
