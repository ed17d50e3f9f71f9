package io.toolboundary.adapter.inmemory;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Every accepted call ends: a call whose process stopped mid-call is ended once its lease has passed. */
class AbandoningThroughTheBoundaryTest {

    private static final Duration LEASE = Duration.ofMinutes(5);
    private static final Duration TTL = Duration.ofHours(1);

    private final MutableClock clock = MutableClock.at(Instant.parse("2030-01-01T00:00:00.000000001Z"));
    private final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(clock);
    private final List<CanonicalRecord.Final> completed = new ArrayList<>();
    private final RunContext run = OpenRuns.openIn(store, Fixtures.anyRunContext());
    private final ToolCallEnvelope call = Fixtures.envelope(run).build();
    private final ToolCallId toolCallId = new ToolCallId(call.toolCallId());
    private final InvocationKey key = InvocationKey.of(run.runId(), toolCallId);

    /**
     * Stands for the process running the tool stopping mid-call: the JVM's own distress, which the
     * boundary lets through.
     */
    private static final class ProcessStopped extends VirtualMachineError {
        ProcessStopped() {
            super("process stopped");
        }
    }

    @Test
    void endsACallWhoseToolThrowsAnErrorThatIsNotTheJvmsInError() {
        ToolBoundary boundary = boundary(request -> {
            throw new AssertionError("password=hunter2 in the tool's own assertion");
        }, FakeProjectors.evidenceFound("found"));

        assertThat(boundary.invoke(run, call)).isEqualTo(refused(ErrorCode.EXECUTION_FAILED));
        assertThat(statusOf(boundary)).isEqualTo(Option.some(InvocationStatus.ERROR));
    }

    @Test
    void endsACallWhoseProcessStoppedOnceItsLeaseHasPassed() {
        ToolBoundary boundary = boundary(request -> {
            throw new ProcessStopped();
        }, FakeProjectors.evidenceFound("found"));
        assertThatThrownBy(() -> boundary.invoke(run, call)).isInstanceOf(ProcessStopped.class);
        assertThat(statusOf(boundary)).isEqualTo(Option.some(InvocationStatus.PROJECTING));

        assertThat(boundary.abandonExpired(run.runId(), toolCallId)).isEqualTo(refused(ErrorCode.LEASE_NOT_EXPIRED));
        clock.advance(LEASE.minusNanos(1));
        assertThat(boundary.abandonExpired(run.runId(), toolCallId)).isEqualTo(refused(ErrorCode.LEASE_NOT_EXPIRED));
        assertThat(statusOf(boundary)).isEqualTo(Option.some(InvocationStatus.PROJECTING));
        clock.advance(Duration.ofNanos(1));

        Either<BoundaryError, CanonicalRecord.Failed> abandoned = boundary.abandonExpired(run.runId(), toolCallId);

        assertThat(abandoned.isRight()).as("abandoned: %s", abandoned).isTrue();
        CanonicalRecord.Failed record = abandoned.get();
        assertThat(record.code()).isEqualTo(ErrorCode.EXECUTION_ABANDONED);
        assertThat(record.updatedAt()).isEqualTo(clock.instant());
        assertThat(record.rawResponse()).isEmpty();
        assertThat(boundary.find(run.runId(), toolCallId)).isEqualTo(Either.right(Option.some(record)));
        assertThat(boundary.referencability(run.runId(), toolCallId))
                .isEqualTo(Either.right(Referencability.NOT_REFERENCABLE));
        assertThat(store.remainingTtl(key)).isEqualTo(Option.some(TTL.minus(LEASE)));
        assertThat(completed).containsExactly(record);
    }

    @Test
    void endsTheLeaseAtTheRunsDeadline() {
        RunContext shortRun = RunContext.active(run.runId(), clock.instant().plusSeconds(60), RunContext.UNLIMITED)
                .opened(run.runToken().get());
        ToolBoundary boundary = boundary(request -> {
            throw new ProcessStopped();
        }, FakeProjectors.evidenceFound("found"));
        assertThatThrownBy(() -> boundary.invoke(shortRun, call)).isInstanceOf(ProcessStopped.class);

        clock.advance(Duration.ofSeconds(59));
        assertThat(boundary.abandonExpired(run.runId(), toolCallId)).isEqualTo(refused(ErrorCode.LEASE_NOT_EXPIRED));
        clock.advance(Duration.ofSeconds(1));

        assertThat(boundary.abandonExpired(run.runId(), toolCallId).map(CanonicalRecord.Failed::code))
                .isEqualTo(Either.right(ErrorCode.EXECUTION_ABANDONED));
    }

    @Test
    void refusesTheLateResultOfAnAbandonedCallAndKeepsItFromTheAgent() {
        AtomicReference<ToolBoundary> self = new AtomicReference<>();
        AtomicReference<Either<BoundaryError, CanonicalRecord.Failed>> abandonedMeanwhile = new AtomicReference<>();
        ToolBoundary boundary = boundary(request -> {
            clock.advance(LEASE);
            abandonedMeanwhile.set(self.get().abandonExpired(run.runId(), toolCallId));
            return "late raw";
        }, FakeProjectors.evidenceFound("found"));
        self.set(boundary);

        Either<BoundaryError, ?> result = boundary.invoke(run, call);

        // The agent is told what the record says, not that its completion was refused.
        assertThat(result).isEqualTo(refused(ErrorCode.EXECUTION_ABANDONED));
        assertThat(abandonedMeanwhile.get().isRight()).isTrue();
        assertThat(boundary.find(run.runId(), toolCallId))
                .isEqualTo(Either.right(Option.some(abandonedMeanwhile.get().get())));
        assertThat(store.find(key, TIMEOUT).get().get().rawResponse()).isEmpty();
    }

    @Test
    void refusesToAbandonAFinishedCall() {
        ToolBoundary boundary = boundary(FakeTools.returning("raw"), FakeProjectors.evidenceFound("found"));
        assertThat(boundary.invoke(run, call).isRight()).isTrue();
        clock.advance(LEASE);

        assertThat(boundary.abandonExpired(run.runId(), toolCallId)).isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
        assertThat(statusOf(boundary)).isEqualTo(Option.some(InvocationStatus.READY));
    }

    @Test
    void reportsACallWithoutARecordAsExpired() {
        ToolBoundary boundary = boundary(FakeTools.returning("raw"), FakeProjectors.evidenceFound("found"));

        assertThat(boundary.abandonExpired(run.runId(), toolCallId)).isEqualTo(refused(ErrorCode.RECORD_EXPIRED));
        assertThat(store.find(key, TIMEOUT)).isEqualTo(Either.right(Option.none()));
    }

    private ToolBoundary boundary(ToolExecutor tool, Projector projector) {
        return ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .clock(clock)
                .config(ToolBoundaryConfig.custom().recordTtl(TTL).executionLease(LEASE).build())
                .listener(new BoundaryListener() {
                    @Override
                    public void onCompleted(CanonicalRecord.Final record) {
                        completed.add(record);
                    }
                })
                .tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME, tool, projector))
                .build();
    }

    private Option<InvocationStatus> statusOf(ToolBoundary boundary) {
        return boundary.find(run.runId(), toolCallId).get().map(CanonicalRecord::status);
    }

    private static <T> Either<BoundaryError, T> refused(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }
}
