package io.toolboundary.adapter.inmemory;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * When each record and counter of the in-memory store expires, so that expired entries are dropped in
 * order of expiry, at a cost per expired entry and not per stored one. Two queues: the entries scheduled
 * in order (nearly all: the clock moves forward and the TTL rarely changes), appended at the end; and
 * the few that expire before the last one queued (a shorter TTL, a clock set back), in a heap.
 * Thread-safe.
 *
 * @param <K> the key type of what is scheduled
 */
final class ExpirySchedule<K> {

    private final ArrayDeque<Due<K>> inOrder = new ArrayDeque<>();
    private final PriorityQueue<Due<K>> outOfOrder = new PriorityQueue<>(Comparator.comparing(Due::at));
    private final ReentrantLock sweeping = new ReentrantLock();

    /** Schedules {@code key} to be handed to a sweep from {@code at} on. */
    void schedule(Instant at, K key) {
        sweeping.lock();
        try {
            Due<K> last = inOrder.peekLast();
            if (last == null || !at.isBefore(last.at())) {
                inOrder.addLast(new Due<>(at, key));
            } else {
                outOfOrder.add(new Due<>(at, key));
            }
        } finally {
            sweeping.unlock();
        }
    }

    /** Hands every key whose time has come by {@code now} to {@code drop}; skipped when another thread is at it. */
    void sweepNowAndThen(Instant now, BiConsumer<K, Instant> drop) {
        if (sweeping.tryLock()) {
            try {
                sweep(now, drop);
            } finally {
                sweeping.unlock();
            }
        }
    }

    /** Hands every key whose time has come by {@code now} to {@code drop}, waiting for a sweep under way. */
    void sweep(Instant now, BiConsumer<K, Instant> drop) {
        sweeping.lock();
        try {
            for (Due<K> due = takeDue(now); due != null; due = takeDue(now)) {
                drop.accept(due.key(), now);
            }
        } finally {
            sweeping.unlock();
        }
    }

    /** Removes and returns the earliest entry if its time has come; else null. Holds {@code sweeping}. */
    private Due<K> takeDue(Instant now) {
        Due<K> ordered = inOrder.peekFirst();
        Due<K> straggler = outOfOrder.peek();
        boolean fromHeap = straggler != null && (ordered == null || straggler.at().isBefore(ordered.at()));
        Due<K> earliest = fromHeap ? straggler : ordered;
        if (earliest == null || now.isBefore(earliest.at())) {
            return null;
        }
        return fromHeap ? outOfOrder.poll() : inOrder.pollFirst();
    }

    /** When a key expires. */
    private record Due<K>(Instant at, K key) {
    }
}
