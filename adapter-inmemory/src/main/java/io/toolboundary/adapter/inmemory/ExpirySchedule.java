package io.toolboundary.adapter.inmemory;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;

/**
 * When each record and counter of the in-memory store expires, so expired entries are dropped in order at a cost
 * per expired entry: entries scheduled in order (nearly all) go to a queue, the few expiring earlier (a shorter
 * TTL, a clock set back) to a heap. Not thread-safe: {@link Expiries} holds one lock over its schedules.
 *
 * @param <E> the type of what is scheduled
 */
final class ExpirySchedule<E> {

    private final Comparator<? super E> byExpiry;
    private final BiPredicate<? super E, Instant> expiredAt;
    private final ArrayDeque<E> inOrder = new ArrayDeque<>();
    private final PriorityQueue<E> outOfOrder;

    /**
     * An empty schedule of entries ordered by {@code byExpiry}, each due once {@code expiredAt} holds of it;
     * neither makes an object, so that a sweep allocates nothing.
     */
    ExpirySchedule(Comparator<? super E> byExpiry, BiPredicate<? super E, Instant> expiredAt) {
        this.byExpiry = byExpiry;
        this.expiredAt = expiredAt;
        this.outOfOrder = new PriorityQueue<>(byExpiry);
    }

    /** Schedules {@code entry} to be handed to a sweep from its expiry on. */
    void schedule(E entry) {
        E last = inOrder.peekLast();
        if (last == null || byExpiry.compare(entry, last) >= 0) {
            inOrder.addLast(entry);
        } else {
            outOfOrder.add(entry);
        }
    }

    /** Hands every entry whose time has come by {@code now} to {@code drop}. */
    void sweep(Instant now, BiConsumer<? super E, Instant> drop) {
        for (E due = takeDue(now); due != null; due = takeDue(now)) {
            drop.accept(due, now);
        }
    }

    /** Removes and returns the earliest entry if its time has come; else null. */
    private E takeDue(Instant now) {
        E ordered = inOrder.peekFirst();
        E straggler = outOfOrder.peek();
        boolean fromHeap = straggler != null && (ordered == null || byExpiry.compare(straggler, ordered) < 0);
        E earliest = fromHeap ? straggler : ordered;
        if (earliest == null || !expiredAt.test(earliest, now)) {
            return null;
        }
        return fromHeap ? outOfOrder.poll() : inOrder.pollFirst();
    }
}
