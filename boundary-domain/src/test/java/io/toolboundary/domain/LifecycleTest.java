package io.toolboundary.domain;

import static io.toolboundary.domain.CanonicalRecordTest.CREATED;
import static io.toolboundary.domain.CanonicalRecordTest.FINGERPRINT;
import static io.toolboundary.domain.CanonicalRecordTest.KEY;
import static io.toolboundary.domain.CanonicalRecordTest.LATER;
import static io.toolboundary.domain.CanonicalRecordTest.REQUEST;
import static io.toolboundary.domain.CanonicalRecordTest.TOOL;
import static io.toolboundary.domain.CanonicalRecordTest.UNBOUNDED;
import static io.toolboundary.domain.CanonicalRecordTest.found;
import static io.toolboundary.domain.CanonicalRecordTest.projecting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.domain.CanonicalRecord.Failed;
import io.toolboundary.domain.CanonicalRecord.Final;
import io.toolboundary.domain.CanonicalRecord.Projecting;
import io.toolboundary.domain.CanonicalRecord.Ready;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LifecycleTest {

    private static final BoundaryError CONFLICT = BoundaryError.of(ErrorCode.RECORD_CONFLICT);

    private static Ready ready(String content) {
        return projecting().ready("raw", found(content), LATER, UNBOUNDED).get();
    }

    private static Failed failed(ErrorCode code) {
        return projecting().fail(code, Option.none(), LATER);
    }

    @Test
    void completesProjectingWithReadyOfTheSameInvocation() {
        Ready next = ready("hit");

        Either<BoundaryError, Final> outcome = Lifecycle.complete(projecting(), next);

        assertThat(outcome.get()).isSameAs(next);
    }

    @Test
    void completesProjectingWithErrorOfTheSameInvocation() {
        Failed next = failed(ErrorCode.EXECUTION_FAILED);

        assertThat(Lifecycle.complete(projecting(), next).get()).isSameAs(next);
    }

    static Stream<Arguments> otherInvocations() {
        return Stream.of(
                Arguments.of("another tool_call_id",
                        new Projecting(InvocationKey.of(KEY.runId(), new ToolCallId("call_02")), TOOL, REQUEST, FINGERPRINT, CREATED)),
                Arguments.of("another run",
                        new Projecting(InvocationKey.of(new RunId("run-2"), KEY.toolCallId()), TOOL, REQUEST, FINGERPRINT, CREATED)),
                Arguments.of("another tool",
                        new Projecting(KEY, new ToolName("other"), REQUEST, FINGERPRINT, CREATED)),
                Arguments.of("another request",
                        new Projecting(KEY, TOOL, "{\"q\":\"other\"}", FINGERPRINT, CREATED)),
                Arguments.of("another fingerprint",
                        new Projecting(KEY, TOOL, REQUEST, "f".repeat(64), CREATED)),
                Arguments.of("another creation time",
                        new Projecting(KEY, TOOL, REQUEST, FINGERPRINT, CREATED.plusMillis(1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("otherInvocations")
    void refusesToCompleteProjectingWithTheOutcomeOfAnotherInvocation(String difference, Projecting other) {
        Ready readyOfOther = other.ready("raw", found("hit"), LATER, UNBOUNDED).get();
        Failed failedOfOther = other.fail(ErrorCode.EXECUTION_FAILED, Option.none(), LATER);

        assertThat(Lifecycle.complete(projecting(), readyOfOther).getLeft()).isEqualTo(CONFLICT);
        assertThat(Lifecycle.complete(projecting(), failedOfOther).getLeft()).isEqualTo(CONFLICT);
    }

    @Test
    void answersTheStoredReadyRecordWhenTheSameCompletionIsRepeated() {
        Ready current = ready("hit");
        Ready again = ready("hit");
        assertThat(again).isEqualTo(current).isNotSameAs(current);

        assertThat(Lifecycle.complete(current, again).get()).isSameAs(current);
    }

    @Test
    void answersTheStoredErrorRecordWhenTheSameCompletionIsRepeated() {
        Failed current = failed(ErrorCode.PROJECTION_FAILED);
        Failed again = failed(ErrorCode.PROJECTION_FAILED);

        assertThat(Lifecycle.complete(current, again).get()).isSameAs(current);
    }

    static Stream<Arguments> otherFinals() {
        Ready ready = ready("hit");
        Failed failed = failed(ErrorCode.EXECUTION_FAILED);
        return Stream.of(
                Arguments.of("READY -> READY with other content", ready, ready("other hit")),
                Arguments.of("READY -> READY at another time", ready,
                        projecting().ready("raw", found("hit"), LATER.plusMillis(1), UNBOUNDED).get()),
                Arguments.of("READY -> ERROR", ready, failed),
                Arguments.of("ERROR -> READY", failed, ready),
                Arguments.of("ERROR -> ERROR with another code", failed, failed(ErrorCode.PROJECTION_FAILED)),
                Arguments.of("ERROR -> ERROR with a raw response", failed,
                        projecting().fail(ErrorCode.EXECUTION_FAILED, Option.of("raw"), LATER)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("otherFinals")
    void refusesToChangeAFinalRecord(String move, Final current, Final next) {
        assertThat(Lifecycle.complete(current, next).getLeft()).isEqualTo(CONFLICT);
    }

    @Test
    void refusesNulls() {
        assertThatNullPointerException().isThrownBy(() -> Lifecycle.complete(null, ready("x")))
                .withMessage("current is null");
        assertThatNullPointerException().isThrownBy(() -> Lifecycle.complete(projecting(), null))
                .withMessage("next is null");
    }
}
