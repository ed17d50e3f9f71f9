package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;

import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Opening runs: what {@link ToolBoundary#openRun} asks of the store, and the calls of a run never opened. */
class OpeningRunsTest {

    private static final Instant NOW = ToolBoundaryTest.NOW;
    private final ScriptedStore store = ScriptedStore.confirming();
    private final ToolExecutor executor = mock(ToolExecutor.class);
    private final Projector projector = mock(Projector.class);

    private ToolBoundary boundary() {
        return ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .tool(ToolBinding.readOnly("search", executor, projector))
                .build();
    }

    private static RunContext unopened(Instant deadline) {
        return RunContext.active(new RunId(ToolBoundaryTest.RUN), deadline, 10);
    }

    @Test
    void opensTheRunUntilItsDeadlinePlusTheRecordTtlAndAnswersItWithTheStoresToken() {
        RunContext run = unopened(NOW.plusSeconds(60));

        Either<BoundaryError, RunContext> opened = boundary().openRun(run);

        assertThat(opened.isRight()).isTrue();
        assertThat(opened.get().runToken().isDefined()).isTrue();
        assertThat(opened.get()).isEqualTo(run.opened(opened.get().runToken().get()));
        assertThat(store.runOpenings).containsExactly(Duration.ofSeconds(60).plus(ToolBoundaryConfig.DEFAULT_RECORD_TTL));
    }

    @Test
    void keepsARunWithADistantDeadlineForAtMostACentury() {
        boundary().openRun(unopened(Instant.MAX));

        assertThat(store.runOpenings).containsExactly(Duration.ofDays(36_500));
    }

    @Test
    void opensNothingForAnInactiveRunOrOneWhoseDeadlinePassed() {
        ToolBoundary boundary = boundary();

        assertThat(boundary.openRun(unopened(NOW.plusSeconds(60)).deactivated()))
                .isEqualTo(Either.left(BoundaryError.of(ErrorCode.RUN_INACTIVE)));
        assertThat(boundary.openRun(unopened(NOW)))
                .isEqualTo(Either.left(BoundaryError.of(ErrorCode.RUN_DEADLINE_EXCEEDED)));
        assertThat(store.runOpenings).isEmpty();
    }

    @Test
    void eachOpeningOffersAFreshToken() {
        ToolBoundary boundary = boundary();

        Option<RunToken> first = boundary.openRun(unopened(NOW.plusSeconds(60))).get().runToken();
        Option<RunToken> second = boundary.openRun(unopened(NOW.plusSeconds(60))).get().runToken();

        assertThat(first).isNotEqualTo(second);
    }

    @Test
    void refusesEveryCallOfARunNeverOpenedBeforeTheStoreIsAsked() {
        Either<?, ?> result = boundary().invoke(unopened(NOW.plusSeconds(60)), ToolBoundaryTest.envelope());

        assertThat(result).isEqualTo(Either.left(BoundaryError.of(ErrorCode.RUN_NOT_OPENED)));
        assertThat(store.begins).isEmpty();
        verifyNoInteractions(executor, projector);
    }

    @Test
    void checksTheRunIsOpenedAfterItsDeadlineAndBeforeTheTool() {
        ToolBoundary boundary = boundary();
        ToolCallEnvelope unknownTool = ToolCallEnvelope.of(ToolBoundaryTest.RUN, "call-2", "no-such-tool", "{}");

        assertThat(boundary.invoke(unopened(NOW), ToolBoundaryTest.envelope()))
                .isEqualTo(Either.left(BoundaryError.of(ErrorCode.RUN_DEADLINE_EXCEEDED)));
        assertThat(boundary.invoke(unopened(NOW.plusSeconds(1)), unknownTool))
                .isEqualTo(Either.left(BoundaryError.of(ErrorCode.RUN_NOT_OPENED)));
    }

    @Test
    void sendsTheRunsTokenWithEveryBegin() {
        ToolBoundary boundary = boundary();
        RunContext run = boundary.openRun(unopened(NOW.plusSeconds(60))).get();

        boundary.invoke(run, ToolBoundaryTest.envelope());

        assertThat(store.begins).singleElement().extracting(InvocationStart::runToken).isEqualTo(run.runToken().get());
    }

    @Test
    void aStoreThatThrowsWhileOpeningIsAnInternalError() {
        store.openRunThrows = true;

        assertThat(boundary().openRun(unopened(NOW.plusSeconds(60))))
                .isEqualTo(Either.left(BoundaryError.of(ErrorCode.INTERNAL_ERROR)));
    }
}
