package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class DiagnosticsTest {

    final List<Duration> elapsed = new ArrayList<>();

    /** Runs {@code work} as a step whose input is the work itself. */
    private static <T> Either<Throwable, T> timed(Diagnostics diagnostics, Callable<T> work,
            Consumer<Duration> elapsed) {
        return diagnostics.timed((call, code) -> code.call(), null, work, elapsed);
    }

    @Test
    void returnsWhatTheCodeReturnedAndReportsHowLongItRan() {
        long[] readings = {100, 350};
        int[] next = {0};
        Diagnostics diagnostics = new Diagnostics(BoundaryListener.noop(), () -> readings[next[0]++]);

        Either<Throwable, String> result = timed(diagnostics, () -> "raw", elapsed::add);

        assertThat(result).isEqualTo(Either.right("raw"));
        assertThat(elapsed).containsExactly(Duration.ofNanos(250));
    }

    @Test
    void returnsWhatTheCodeThrewAndStillReportsHowLongItRan() {
        Diagnostics diagnostics = new Diagnostics(BoundaryListener.noop(), () -> 7);
        IllegalStateException failure = new IllegalStateException("tool down");

        Either<Throwable, String> result = timed(diagnostics, () -> {
            throw failure;
        }, elapsed::add);

        assertThat(result).isEqualTo(Either.left(failure));
        assertThat(elapsed).containsExactly(Duration.ZERO);
    }

    @Test
    void returnsAStackOverflowAsAnOutcome() {
        Diagnostics diagnostics = new Diagnostics(BoundaryListener.noop(), System::nanoTime);

        Either<Throwable, String> result = timed(diagnostics, () -> {
            throw new StackOverflowError();
        }, elapsed::add);

        assertThat(result.getLeft()).isInstanceOf(StackOverflowError.class);
    }

    @Test
    void letsTheJvmsOwnDistressThroughWithoutReportingTime() {
        Diagnostics diagnostics = new Diagnostics(BoundaryListener.noop(), System::nanoTime);

        assertThatThrownBy(() -> timed(diagnostics, () -> {
            throw new OutOfMemoryError("test");
        }, elapsed::add)).isInstanceOf(OutOfMemoryError.class);
        assertThatThrownBy(() -> diagnostics.unexpected(new InternalError("test"))).isInstanceOf(InternalError.class);
        assertThat(elapsed).isEmpty();
    }

    @Test
    void restoresTheInterruptOfCodeThatWasInterrupted() {
        Diagnostics diagnostics = new Diagnostics(BoundaryListener.noop(), System::nanoTime);
        try {
            Either<Throwable, String> result = timed(diagnostics, () -> {
                throw new InterruptedException();
            }, elapsed::add);

            assertThat(result.getLeft()).isInstanceOf(InterruptedException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aThrowingTickerOnlySuppressesTheReport() {
        Diagnostics diagnostics = new Diagnostics(BoundaryListener.noop(), () -> {
            throw new IllegalStateException("ticker down");
        });

        assertThat(timed(diagnostics, () -> "raw", elapsed::add)).isEqualTo(Either.right("raw"));
        assertThat(elapsed).isEmpty();
    }

    @Test
    void aThrowingListenerNeverReachesTheCaller() {
        List<String> seen = new ArrayList<>();
        BoundaryListener throwing = new BoundaryListener() {
            @Override
            public void onUnexpectedFailure(Class<? extends Throwable> failure) {
                seen.add(failure.getSimpleName());
                throw new AssertionError("broken listener");
            }
        };
        Diagnostics diagnostics = new Diagnostics(throwing, System::nanoTime);

        BoundaryError error = diagnostics.unexpected(new IllegalArgumentException("bug"));

        assertThat(error.code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
        assertThat(seen).containsExactly("IllegalArgumentException");
    }
}
