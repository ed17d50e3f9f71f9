package io.toolboundary.application;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The boundary's listener and ticker, made harmless: no listener event and no ticker reading can change
 * an outcome. Also where a throwable from a tool, a projector or the boundary itself is sorted into the
 * JVM's own distress (let through) and everything else (an outcome).
 */
final class Diagnostics {

    /** A tool's or projector's code for one call, taking the call and its input so a step can be a constant. */
    @FunctionalInterface
    interface Step<I, T> {
        T run(AdmittedCall call, I input) throws Exception;
    }

    private final BoundaryListener listener;
    private final LongSupplier ticker;

    Diagnostics(BoundaryListener listener, LongSupplier ticker) {
        // A composite of one drops whatever the listener throws; the listener that does nothing never throws.
        this.listener = listener instanceof NoopListener ? listener : new CompositeListener(List.of(listener));
        this.ticker = ticker;
    }

    /** The listener; none of its events ever throws. */
    BoundaryListener listener() {
        return listener;
    }

    /**
     * Runs a step of {@code call} over {@code input} and reports how long it ran to {@code elapsed}, whether
     * it returned or threw. A throwable is returned, not thrown, unless it is the JVM's own distress; an
     * interrupt it carried is restored on the calling thread first.
     */
    <I, T> Either<Throwable, T> timed(Step<I, T> step, AdmittedCall call, I input, Consumer<Duration> elapsed) {
        long started = 0L;
        boolean ticked;
        try {
            started = ticker.getAsLong();
            ticked = true;
        } catch (RuntimeException failure) {
            ticked = false;
        }
        return run(step, call, input, ticked, started, elapsed);
    }

    /**
     * Runs a step as {@link #timed(Step, AdmittedCall, Object, Consumer)} does, without reading the
     * ticker: for a listener that does nothing with the time ({@link #quiet()}).
     */
    <I, T> Either<Throwable, T> untimed(Step<I, T> step, AdmittedCall call, I input) {
        return run(step, call, input, false, 0L, null);
    }

    /** True when the listener is the one that does nothing, so that nothing need be measured for it. */
    boolean quiet() {
        return listener instanceof NoopListener;
    }

    private <I, T> Either<Throwable, T> run(Step<I, T> step, AdmittedCall call, I input, boolean ticked, long started,
            Consumer<Duration> elapsed) {
        T value;
        try {
            value = step.run(call, input);
        } catch (Throwable failure) {
            rethrowIfFatal(failure);
            report(ticked, started, elapsed);
            if (failure instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return Either.left(failure);
        }
        report(ticked, started, elapsed);
        return Either.right(value);
    }

    /**
     * The boundary itself failed: tells the listener the failure's type and answers
     * {@code INTERNAL_ERROR}; the JVM's own distress is rethrown instead.
     */
    BoundaryError unexpected(Throwable failure) {
        rethrowIfFatal(failure);
        listener.onUnexpectedFailure(failure.getClass());
        return BoundaryError.of(ErrorCode.INTERNAL_ERROR);
    }

    /**
     * Lets the JVM's own distress through (out of memory, internal error): nothing sensible can be done
     * in a call then, and the record left PROJECTING can be abandoned later. A stack overflow and every
     * other throwable from a tool, a projector or a store end the call with a safe code.
     */
    private static void rethrowIfFatal(Throwable failure) {
        if (failure instanceof VirtualMachineError fatal && !(failure instanceof StackOverflowError)) {
            throw fatal;
        }
    }

    /** Reports the time since {@code started} when both readings of the ticker succeeded. */
    private void report(boolean ticked, long started, Consumer<Duration> elapsed) {
        if (!ticked) {
            return;
        }
        long ended;
        try {
            ended = ticker.getAsLong();
        } catch (RuntimeException failure) {
            return;
        }
        elapsed.accept(Duration.ofNanos(Math.max(0L, ended - started)));
    }
}
