package io.toolboundary.tck.reliability.history;

import static java.util.Objects.requireNonNull;

/**
 * One operation of a history: who called, when the call was made and when its answer came, what was asked and
 * what was answered. An undetermined operation (a timeout, an outcome the store could not tell, a process that
 * died) has no answer and an open return: it may or may not have taken effect, at any time after its invoke.
 *
 * @param <I> what was asked
 * @param <O> what was answered
 * @param process the calling process
 * @param thread the calling thread, for reports
 * @param invokedAt {@link System#nanoTime()} as the call was made
 * @param returnedAt {@link System#nanoTime()} as the answer came; {@link Long#MAX_VALUE} when there is none
 * @param input what was asked
 * @param output what was answered; null exactly when undetermined
 */
public record Operation<I, O>(int process, String thread, long invokedAt, long returnedAt, I input, O output) {

    /** The return instant of an operation without an answer. */
    public static final long OPEN = Long.MAX_VALUE;

    /**
     * An operation.
     *
     * @param process the calling process
     * @param thread the calling thread
     * @param invokedAt when the call was made
     * @param returnedAt when the answer came, or {@link #OPEN}
     * @param input what was asked
     * @param output what was answered, or null when undetermined
     * @throws IllegalArgumentException when it returned before it was invoked, or the answer and the open return
     *     disagree
     */
    public Operation {
        requireNonNull(thread, "thread is null");
        requireNonNull(input, "input is null");
        if (returnedAt < invokedAt) {
            throw new IllegalArgumentException("returned before it was invoked: " + invokedAt + " > " + returnedAt);
        }
        if ((output == null) != (returnedAt == OPEN)) {
            throw new IllegalArgumentException("an operation has no answer exactly when its return is open");
        }
    }

    /**
     * {@return an operation that got an answer}
     *
     * @param <I> what was asked
     * @param <O> what was answered
     * @param process the calling process
     * @param invokedAt when the call was made
     * @param returnedAt when the answer came
     * @param input what was asked
     * @param output what was answered
     */
    public static <I, O> Operation<I, O> answered(int process, long invokedAt, long returnedAt, I input, O output) {
        return new Operation<>(process, "", invokedAt, returnedAt, input, requireNonNull(output, "output is null"));
    }

    /**
     * {@return an operation without an answer: it may or may not have taken effect}
     *
     * @param <I> what was asked
     * @param <O> what would have been answered
     * @param process the calling process
     * @param invokedAt when the call was made
     * @param input what was asked
     */
    public static <I, O> Operation<I, O> undetermined(int process, long invokedAt, I input) {
        return new Operation<>(process, "", invokedAt, OPEN, input, null);
    }

    /** {@return whether the operation has no answer} */
    public boolean undetermined() {
        return output == null;
    }

    @Override
    public String toString() {
        return "p" + process + (thread.isEmpty() ? "" : "/" + thread) + " [" + invokedAt + ", "
                + (undetermined() ? "open" : Long.toString(returnedAt)) + "] " + input + " -> "
                + (undetermined() ? "?" : output);
    }
}
