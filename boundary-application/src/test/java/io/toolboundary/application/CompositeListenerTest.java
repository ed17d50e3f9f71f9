package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompositeListenerTest {

    @Test
    void forwardsEachEventToEveryListenerInOrderEvenWhenOneThrows() {
        List<String> seen = new ArrayList<>();
        BoundaryListener first = new BoundaryListener() {
            @Override
            public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
                seen.add("first " + error.code());
                throw new IllegalStateException("broken listener");
            }
        };
        BoundaryListener second = new BoundaryListener() {
            @Override
            public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
                seen.add("second " + error.code());
            }

            @Override
            public void onUnexpectedFailure(Class<? extends Throwable> failure) {
                seen.add("second " + failure.getSimpleName());
            }
        };

        BoundaryListener composite = BoundaryListener.composite(first, second);
        composite.onRejected(ToolCallEnvelope.of("r", "c", "t", "{}"), BoundaryError.of(ErrorCode.RUN_MISMATCH));
        composite.onUnexpectedFailure(IllegalArgumentException.class);

        assertThat(seen).containsExactly("first RUN_MISMATCH", "second RUN_MISMATCH", "second IllegalArgumentException");
    }

    @Test
    void refusesNullListeners() {
        assertThatNullPointerException().isThrownBy(() -> BoundaryListener.composite((BoundaryListener) null))
                .withMessage("a listener is null");
    }
}
