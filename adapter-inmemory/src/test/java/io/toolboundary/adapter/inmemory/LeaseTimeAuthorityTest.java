package io.toolboundary.adapter.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The store's clock alone says when a lease has passed: a harness whose clock steps forward cannot
 * abandon a call that is still running, so its completion lands and the agent's answer agrees with
 * the record.
 */
class LeaseTimeAuthorityTest {

    private final MutableClock storeClock = MutableClock.at(Instant.parse("2030-01-01T00:00:00Z"));
    private final MutableClock harnessClock = MutableClock.at(Instant.parse("2030-01-01T00:00:00Z"));
    private final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(storeClock);

    @Test
    void aHarnessClockSteppingForwardCannotAbandonARunningCall() {
        Outcome outcome = callAbandoningMidway(() -> harnessClock.advance(Duration.ofHours(6)));

        assertThat(outcome.abandonedMeanwhile()).isEqualTo(Either.left(BoundaryError.of(ErrorCode.LEASE_NOT_EXPIRED)));
        assertThat(outcome.answer().isRight()).isTrue();
        assertThat(outcome.boundary().find(outcome.run().runId(), outcome.toolCallId()).get().get())
                .isInstanceOf(CanonicalRecord.Ready.class);
    }

    @Test
    void theStoresClockPassingTheLeaseLetsTheHarnessAbandon() {
        Outcome outcome = callAbandoningMidway(() -> storeClock.advance(Duration.ofMinutes(5)));

        assertThat(outcome.abandonedMeanwhile().map(CanonicalRecord.Failed::code))
                .isEqualTo(Either.right(ErrorCode.EXECUTION_ABANDONED));
        // The late completion loses, and the agent is told what the record says.
        assertThat(outcome.answer()).isEqualTo(Either.left(BoundaryError.of(ErrorCode.EXECUTION_ABANDONED)));
    }

    private record Outcome(ToolBoundary boundary, RunContext run, ToolCallId toolCallId, Either<BoundaryError, ?> answer,
            Either<BoundaryError, CanonicalRecord.Failed> abandonedMeanwhile) {
    }

    /** A call whose tool lets {@code meanwhile} move a clock, then asks the harness to abandon it. */
    private Outcome callAbandoningMidway(Runnable meanwhile) {
        RunContext run = OpenRuns.openIn(store, RunContext.active(Fixtures.anyRunContext().runId(), Fixtures.FAR_FUTURE, 10));
        ToolCallEnvelope call = Fixtures.envelope(run).build();
        ToolCallId toolCallId = new ToolCallId(call.toolCallId());
        AtomicReference<Either<BoundaryError, CanonicalRecord.Failed>> abandoned = new AtomicReference<>();
        AtomicReference<ToolBoundary> self = new AtomicReference<>();
        ToolBoundary boundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .clock(harnessClock)
                .tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME, request -> {
                    meanwhile.run();
                    abandoned.set(self.get().abandonExpired(run.runId(), toolCallId));
                    return "raw";
                }, FakeProjectors.evidenceFound("found")))
                .build();
        self.set(boundary);
        Either<BoundaryError, ?> answer = boundary.invoke(run, call);
        return new Outcome(boundary, run, toolCallId, answer, abandoned.get());
    }
}
