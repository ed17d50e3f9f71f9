package io.toolboundary.adapter.inmemory;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * When each record and counter of the in-memory store expires, so that expired entries are dropped in
 * order of expiry, at a cost per expired entry and not per stored one. The entries themselves are queued,
 * each knowing its own expiry, so that scheduling one allocates nothing beside the queue. Two queues: the
 * entries scheduled in order (nearly all: the clock moves forward and the TTL rarely changes), appended at
 * the end; and the few that expire before the last one queued (a shorter TTL, a clock set back), in a heap.
 * Not thread-safe: {@link Expiries} holds one lock over its schedules.
 *
 * @param <E> the type of what is scheduled
 */
final class ExpirySchedule<E> {

    private final Function<? super E, Instant> dueAt;
    private final ArrayDeque<E> inOrder = new ArrayDeque<>();
    private final PriorityQueue<E> outOfOrder;

    /** An empty schedule of entries that each expire at {@code dueAt} of themselves. */
    ExpirySchedule(Function<? super E, Instant> dueAt) {
        this.dueAt = dueAt;
        this.outOfOrder = new PriorityQueue<>(Comparator.comparing(dueAt));
    }

    /** Schedules {@code entry} to be handed to a sweep from its expiry on. */
    void schedule(E entry) {
        Instant at = dueAt.apply(entry);
        E last = inOrder.peekLast();
        if (last == null || !at.isBefore(dueAt.apply(last))) {
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
        boolean fromHeap = straggler != null
                && (ordered == null || dueAt.apply(straggler).isBefore(dueAt.apply(ordered)));
        E earliest = fromHeap ? straggler : ordered;
        if (earliest == null || now.isBefore(dueAt.apply(earliest))) {
            return null;
        }
        return fromHeap ? outOfOrder.poll() : inOrder.pollFirst();
    }
}
