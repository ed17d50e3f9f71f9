package io.toolboundary.tck.reliability.history;

import java.util.List;

/**
 * A sequential specification: what an object may answer, one operation at a time, and what it then holds. A
 * model may be nondeterministic (several next states) and may split a history into independent parts (one per
 * key): a history is linearizable exactly when each part is.
 *
 * @param <S> the object's state; equal states must be interchangeable (they are memoized)
 * @param <I> what an operation asks
 * @param <O> what it answers
 */
public interface Model<S, I, O> {

    /** {@return the state before any operation} */
    S initial();

    /**
     * The states the object may be in after {@code input} ran in {@code state} and answered {@code output}.
     *
     * @param state the state before
     * @param input what was asked
     * @param output what was answered, or null when the answer is unknown: then every answer is possible
     * @return the possible next states; empty when the answer is not allowed in this state
     */
    List<S> step(S state, I input, O output);

    /**
     * Splits a history into parts that are checked apart; by default the history is one part.
     *
     * @param history the whole history
     * @return its parts, each in the history's order
     */
    default List<List<Operation<I, O>>> partition(List<Operation<I, O>> history) {
        return List.of(history);
    }
}
