package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ExecutionLeaseTest {

    static final Instant NOW = Instant.parse("2025-03-01T10:00:00.000000001Z");
    static final Duration LEASE = Duration.ofMinutes(7);
    static final RunId RUN = new RunId("run-1");
    static final ToolCallEnvelope CALL = ToolCallEnvelope.of("run-1", "call-1", "search", "{\"q\":\"checkout\"}");

    final ScriptedStore store = ScriptedStore.confirming();
    final AtomicInteger executions = new AtomicInteger();

    @Test
    void leasesTheRecordForTheConfiguredLeaseFromItsCreation() {
        invoke(Clock.fixed(NOW, ZoneOffset.UTC), NOW.plus(Duration.ofHours(1)));

        assertThat(store.begins).singleElement().satisfies(start -> {
            assertThat(start.lease()).isEqualTo(LEASE);
            assertThat(start.record().createdAt()).isEqualTo(NOW);
        });
    }

    @Test
    void cutsTheLeaseShortAtTheRunsDeadline() {
        Instant deadline = NOW.plus(LEASE).minusNanos(1);

        invoke(Clock.fixed(NOW, ZoneOffset.UTC), deadline);

        assertThat(store.begins).singleElement().extracting(InvocationStart::lease).isEqualTo(LEASE.minusNanos(1));
    }

    @Test
    void leasesTheConfiguredLeaseWhenTheDeadlineIsTheEndOfTime() {
        Either<BoundaryError, AgentResult> result = invoke(Clock.fixed(NOW, ZoneOffset.UTC), Instant.MAX);

        assertThat(result.isRight()).isTrue();
        assertThat(store.begins).singleElement().extracting(InvocationStart::lease).isEqualTo(LEASE);
    }

    @Test
    void cutsALeaseLongerThanTheLongestRunAtAHundredYearsWhenTheDeadlineIsTheEndOfTime() {
        Duration century = Duration.ofDays(36_500);
        ToolBoundary boundary = boundary(Clock.fixed(NOW, ZoneOffset.UTC), century.multipliedBy(3));

        boundary.invoke(RunContext.active(RUN, Instant.MAX, 10).opened(TestRuns.TOKEN), CALL);
        boundary.invoke(RunContext.active(RUN, NOW.plus(century.multipliedBy(2)), 10).opened(TestRuns.TOKEN),
                ToolCallEnvelope.of("run-1", "call-2", "search", "{}"));

        assertThat(store.begins).extracting(InvocationStart::lease).containsExactly(century, century);
    }

    @Test
    void refusesACallWhoseDeadlinePassesWhilePreflightRuns() {
        Instant deadline = NOW.plusSeconds(1);
        Clock passingTheDeadline = new SteppingClock(deadline.minusNanos(1), deadline);

        Either<BoundaryError, AgentResult> result = invoke(passingTheDeadline, deadline);

        assertThat(result).isEqualTo(Either.left(BoundaryError.of(ErrorCode.RUN_DEADLINE_EXCEEDED)));
        assertThat(store.begins).isEmpty();
        assertThat(executions).hasValue(0);
    }

    @Test
    void abandonsByTheBoundarysClock() {
        ToolBoundary boundary = boundary(Clock.fixed(NOW, ZoneOffset.UTC));

        Either<BoundaryError, CanonicalRecord.Failed> abandoned = boundary.abandonExpired(RUN, new ToolCallId("call-1"));

        assertThat(abandoned).isEqualTo(Either.left(BoundaryError.of(ErrorCode.RECORD_EXPIRED)));
        assertThat(store.abandons).containsExactly(NOW);
    }

    @Test
    void reportsAStoreThatThrowsWhileAbandoningAsAnInternalError() {
        CanonicalInvocationStore throwing = new CanonicalInvocationStore() {
            @Override
            public Either<StoreFailure, RunToken> openRun(RunOpening opening, java.time.Duration timeout) {
                return Either.right(opening.offered());
            }

            @Override
            public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, java.time.Duration timeout) {
                return Either.right(start.record());
            }

            @Override
            public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final outcome,
                    java.time.Duration timeout) {
                return Either.right(outcome);
            }

            @Override
            public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, java.time.Duration timeout) {
                throw new IllegalStateException("store bug at " + key);
            }

            @Override
            public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token,
                    io.toolboundary.domain.ErrorCode code, Instant now, java.time.Duration timeout) {
                return Either.left(StoreFailure.refused(io.toolboundary.domain.spi.Refusal.EXPIRED));
            }

            @Override
            public Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, java.time.Duration timeout) {
                return Either.right(new ToolCallIdPage(java.util.List.of(), false));
            }

            @Override
            public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, java.time.Duration timeout) {
                return Either.right(Option.none());
            }
        };
        ToolBoundary boundary = ToolBoundary.builder().store(throwing).accessPolicy(AccessPolicy.allowAll()).build();

        assertThat(boundary.abandonExpired(RUN, new ToolCallId("call-1")))
                .isEqualTo(Either.left(BoundaryError.of(ErrorCode.INTERNAL_ERROR)));
    }

    private Either<BoundaryError, AgentResult> invoke(Clock clock, Instant deadline) {
        return boundary(clock).invoke(RunContext.active(RUN, deadline, 10).opened(TestRuns.TOKEN), CALL);
    }

    private ToolBoundary boundary(Clock clock) {
        return boundary(clock, LEASE);
    }

    private ToolBoundary boundary(Clock clock, Duration lease) {
        return ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .clock(clock)
                .config(ToolBoundaryConfig.custom().executionLease(lease).build())
                .tool(ToolBinding.readOnly("search", request -> {
                    executions.incrementAndGet();
                    return "raw";
                }, (request, raw) -> Projection.evidenceFound("found")))
                .build();
    }

    /** A clock that shows the given instants one read after another, then stays at the last. */
    private static final class SteppingClock extends Clock {
        private final Deque<Instant> instants;

        SteppingClock(Instant... instants) {
            this.instants = new ArrayDeque<>(List.of(instants));
        }

        @Override
        public synchronized Instant instant() {
            return instants.size() > 1 ? instants.pollFirst() : instants.peekFirst();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("not needed");
        }
    }
}
