package io.toolboundary.adapter.inmemory;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.OutboxBacklog;
import io.toolboundary.application.spi.OutboxEntry;
import io.toolboundary.application.spi.RecordOutbox;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The in-memory store's outbox: a bounded queue in the store's heap, appended under the run's lock in the
 * step that makes a record final. When full, the oldest entry not yet delivered (else the oldest
 * delivered) is dropped and counted as lost: the store's calls never wait for an exporter. Lost with the
 * process, as the records are.
 */
final class InMemoryOutbox implements RecordOutbox {

    private static final Pattern CONSUMER = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    private final long capacity;
    private final boolean carryRecords;
    private final Clock clock;
    /** Entries never delivered, oldest first. */
    private final LinkedHashMap<String, OutboxEntry> fresh = new LinkedHashMap<>();
    /** Entries delivered and not acknowledged, by their last delivery, oldest first. */
    private final LinkedHashMap<String, Delivered> delivered = new LinkedHashMap<>();
    private long nextId = 1;
    private long lost;

    InMemoryOutbox(long capacity, boolean carryRecords, Clock clock) {
        this.capacity = capacity;
        this.carryRecords = carryRecords;
        this.clock = clock;
    }

    /** Appends the record that just became final; the caller holds its run's lock. */
    synchronized void append(CanonicalRecord.Final record) {
        if (fresh.size() + delivered.size() >= capacity) {
            Iterator<String> oldest = (fresh.isEmpty() ? delivered : fresh).keySet().iterator();
            oldest.next();
            oldest.remove();
            lost++;
        }
        String id = Long.toString(nextId++);
        fresh.put(id, new OutboxEntry(id, record.key(), clock.instant(),
                carryRecords ? Option.of(record) : Option.none()));
    }

    @Override
    public synchronized Either<StoreFailure, List<OutboxEntry>> poll(String consumer, int max, Duration claimIdle,
            Duration timeout) {
        requireNonNull(consumer, "consumer is null");
        requireNonNull(claimIdle, "claimIdle is null");
        if (!CONSUMER.matcher(consumer).matches()) {
            throw new IllegalArgumentException("consumer must be 1 to 64 of [A-Za-z0-9_.:-], was " + consumer);
        }
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive, was " + max);
        }
        Instant now = clock.instant();
        List<OutboxEntry> taken = new ArrayList<>();
        Iterator<Delivered> idle = delivered.values().iterator();
        while (taken.size() < max && idle.hasNext()) {
            Delivered next = idle.next();
            if (Duration.between(next.at, now).compareTo(claimIdle) < 0) {
                break;
            }
            idle.remove();
            taken.add(next.entry);
        }
        Iterator<OutboxEntry> unread = fresh.values().iterator();
        while (taken.size() < max && unread.hasNext()) {
            taken.add(unread.next());
            unread.remove();
        }
        for (OutboxEntry entry : taken) {
            delivered.put(entry.id(), new Delivered(entry, now));
        }
        return Either.right(List.copyOf(taken));
    }

    @Override
    public synchronized Either<StoreFailure, Integer> acknowledge(List<OutboxEntry> entries, List<OutboxEntry> lost,
            Duration timeout) {
        requireNonNull(entries, "entries is null");
        requireNonNull(lost, "lost is null");
        Set<String> lostIds = new HashSet<>();
        lost.forEach(entry -> lostIds.add(entry.id()));
        int removed = 0;
        for (OutboxEntry entry : entries) {
            if (delivered.remove(entry.id()) != null || fresh.remove(entry.id()) != null) {
                removed++;
                if (lostIds.contains(entry.id())) {
                    this.lost++;
                }
            }
        }
        return Either.right(removed);
    }

    @Override
    public synchronized Either<StoreFailure, OutboxBacklog> backlog(Duration timeout) {
        // Fresh entries are in append order; a delivered one moves to the end each time it is delivered.
        Option<Instant> oldest = Option.ofOptional(fresh.values().stream().findFirst().map(OutboxEntry::appendedAt));
        for (Delivered held : delivered.values()) {
            Instant at = held.entry.appendedAt();
            if (oldest.isEmpty() || at.isBefore(oldest.get())) {
                oldest = Option.of(at);
            }
        }
        return Either.right(new OutboxBacklog(fresh.size() + delivered.size(), oldest, lost));
    }

    private record Delivered(OutboxEntry entry, Instant at) {
    }
}
