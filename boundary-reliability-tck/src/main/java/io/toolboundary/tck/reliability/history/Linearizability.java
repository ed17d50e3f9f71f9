package io.toolboundary.tck.reliability.history;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides whether a history is linearizable with respect to a {@link Model}: whether every operation that got an
 * answer can be given one instant between its invoke and its return such that, in the order of those instants,
 * the model allows every answer; an operation without an answer may take effect at any instant after its invoke,
 * or not at all (one that would change nothing is left out).
 *
 * <p>Wing and Gong's search with the pruning of Lowe and of Porcupine: each part of the model's partition is
 * checked apart; operations are taken in invoke/return order from a linked list they are lifted out of and put
 * back into on backtracking; a configuration (the operations linearized, the model's state) tried once is not
 * tried again.
 */
public final class Linearizability {

    /** The steps a part may take by default before the search gives up, {@link Verdict#UNDECIDED}. */
    public static final long DEFAULT_BUDGET = 20_000_000L;

    private Linearizability() {
    }

    /** What the search found for a history or one part of it. */
    public enum Verdict {
        /** A linearization exists. */
        LINEARIZABLE,
        /** None exists. */
        NOT_LINEARIZABLE,
        /** The search ran out of its budget of steps. */
        UNDECIDED
    }

    /**
     * The verdict on a history.
     *
     * @param <I> what an operation asks
     * @param <O> what it answers
     * @param verdict linearizable when every part is; otherwise not linearizable when a part is not, else undecided
     * @param parts how many parts were checked
     * @param operations how many operations the history has
     * @param refused the parts found not linearizable or undecided, in the partition's order
     */
    public record Result<I, O>(Verdict verdict, int parts, int operations, List<List<Operation<I, O>>> refused) {
        /**
         * A verdict.
         *
         * @param verdict the verdict on the whole history
         * @param parts the parts checked
         * @param operations the operations checked
         * @param refused the parts not found linearizable
         */
        public Result {
            requireNonNull(verdict, "verdict is null");
            refused = List.copyOf(refused);
        }

        /** {@return whether the history is linearizable} */
        public boolean linearizable() {
            return verdict == Verdict.LINEARIZABLE;
        }

        /** {@return the parts not found linearizable: the anomalies} */
        public int anomalies() {
            return refused.size();
        }
    }

    /**
     * {@return the verdict on {@code history}, each part searched within {@link #DEFAULT_BUDGET} steps}
     *
     * @param <S> the model's state
     * @param <I> what an operation asks
     * @param <O> what it answers
     * @param model the sequential specification
     * @param history the operations, in any order
     */
    public static <S, I, O> Result<I, O> check(Model<S, I, O> model, List<Operation<I, O>> history) {
        return check(model, history, DEFAULT_BUDGET);
    }

    /**
     * {@return the verdict on {@code history}}
     *
     * @param <S> the model's state
     * @param <I> what an operation asks
     * @param <O> what it answers
     * @param model the sequential specification
     * @param history the operations, in any order
     * @param budget the steps each part's search may take
     */
    public static <S, I, O> Result<I, O> check(Model<S, I, O> model, List<Operation<I, O>> history, long budget) {
        requireNonNull(model, "model is null");
        List<List<Operation<I, O>>> parts = model.partition(List.copyOf(history));
        List<List<Operation<I, O>>> refused = new ArrayList<>();
        Verdict verdict = Verdict.LINEARIZABLE;
        for (List<Operation<I, O>> part : parts) {
            Verdict found = checkPart(model, part, budget);
            if (found != Verdict.LINEARIZABLE) {
                refused.add(part);
                verdict = verdict == Verdict.NOT_LINEARIZABLE ? verdict : found;
            }
        }
        return new Result<>(verdict, parts.size(), history.size(), refused);
    }

    /**
     * {@return the verdict on one part, without partitioning it}
     *
     * @param <S> the model's state
     * @param <I> what an operation asks
     * @param <O> what it answers
     * @param model the sequential specification
     * @param part the operations, in any order
     * @param budget the steps the search may take
     */
    public static <S, I, O> Verdict checkPart(Model<S, I, O> model, List<Operation<I, O>> part, long budget) {
        List<Entry> entries = new ArrayList<>();
        int determined = 0;
        for (int i = 0; i < part.size(); i++) {
            Operation<I, O> op = part.get(i);
            Entry call = new Entry(i, true, op.invokedAt());
            entries.add(call);
            if (!op.undetermined()) {
                determined++;
                call.match = new Entry(i, false, op.returnedAt());
                entries.add(call.match);
            }
        }
        // By time; at a tie the call first, so that the two operations count as overlapping.
        entries.sort(Comparator.comparingLong((Entry e) -> e.time).thenComparing(e -> !e.call)
                .thenComparingInt(e -> e.op));
        Entry head = new Entry(-1, false, Long.MIN_VALUE);
        Entry last = head;
        for (Entry e : entries) {
            last.next = e;
            e.prev = last;
            last = e;
        }

        BitSet linearized = new BitSet(part.size());
        Set<Config> tried = new HashSet<>();
        Deque<Frame<S>> path = new ArrayDeque<>();
        S state = model.initial();
        int done = 0;
        long steps = 0;
        Entry entry = head.next;
        while (done < determined) {
            if (++steps > budget) {
                return Verdict.UNDECIDED;
            }
            if (entry != null && entry.call) {
                Operation<I, O> op = part.get(entry.op);
                boolean moved = false;
                for (S next : model.step(state, op.input(), op.output())) {
                    if (op.undetermined() && next.equals(state)) {
                        // Taking effect without changing anything is the same as not taking effect: skipped.
                        continue;
                    }
                    linearized.set(entry.op);
                    if (tried.add(new Config((BitSet) linearized.clone(), next))) {
                        path.push(new Frame<>(entry, state));
                        state = next;
                        done += op.undetermined() ? 0 : 1;
                        entry.lift();
                        entry = head.next;
                        moved = true;
                        break;
                    }
                    linearized.clear(entry.op);
                }
                if (!moved) {
                    entry = entry.next;
                }
            } else {
                // A return whose call is not linearized yet: nothing after it can come first. Back up one.
                if (path.isEmpty()) {
                    return Verdict.NOT_LINEARIZABLE;
                }
                Frame<S> top = path.pop();
                state = top.before;
                linearized.clear(top.entry.op);
                done -= part.get(top.entry.op).undetermined() ? 0 : 1;
                top.entry.unlift();
                // Tried again: its next states already tried are remembered, the others are tried now.
                entry = top.entry;
            }
        }
        return Verdict.LINEARIZABLE;
    }

    /** A call or a return in the doubly linked list of a part. */
    private static final class Entry {
        final int op;
        final boolean call;
        final long time;
        Entry match;
        Entry prev;
        Entry next;

        Entry(int op, boolean call, long time) {
            this.op = op;
            this.call = call;
            this.time = time;
        }

        /** Takes this call and its return out of the list. */
        void lift() {
            prev.next = next;
            if (next != null) {
                next.prev = prev;
            }
            if (match != null) {
                match.prev.next = match.next;
                if (match.next != null) {
                    match.next.prev = match.prev;
                }
            }
        }

        /** Puts them back, undoing the last {@link #lift()}. */
        void unlift() {
            if (match != null) {
                match.prev.next = match;
                if (match.next != null) {
                    match.next.prev = match;
                }
            }
            prev.next = this;
            if (next != null) {
                next.prev = this;
            }
        }
    }

    private record Frame<S>(Entry entry, S before) {
    }

    private record Config(BitSet linearized, Object state) {
    }
}
