package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The durations the boundary reports to {@link BoundaryListener#onExecuted} and {@link BoundaryListener#onProjected}. */
class ToolBoundaryTimingTest {

    static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    static final String RUN = "run-1";
    static final String CALL = "call-1";
    static final InvocationKey KEY = InvocationKey.of(new RunId(RUN), new ToolCallId(CALL));

    /** A ticker that stands still until the tool or projector under test moves it. */
    final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    final RecordingListener listener = new RecordingListener();

    /** Records the events the boundary reports, in order, as readable lines. */
    static final class RecordingListener implements BoundaryListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void onExecuted(InvocationKey key, ToolName tool, Duration elapsed) {
            events.add("executed " + key + " " + tool + " " + elapsed);
        }

        @Override
        public void onProjected(InvocationKey key, ToolName tool, Duration elapsed) {
            events.add("projected " + key + " " + tool + " " + elapsed);
        }

        @Override
        public void onToolFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
            events.add("toolFailed " + key);
        }

        @Override
        public void onProjectorFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
            events.add("projectorFailed " + key);
        }

        @Override
        public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
            events.add("rejected " + error.code());
        }

        @Override
        public void onCompleted(CanonicalRecord.Final record) {
            events.add("completed " + record.status());
        }
    }

    ToolBoundary boundary(ToolExecutor executor, Projector projector, LongSupplier ticker) {
        return ToolBoundary.builder()
                .store(ScriptedStore.confirming())
                .accessPolicy(AccessPolicy.allowAll())
                .clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .listener(listener)
                .ticker(ticker)
                .config(ToolBoundaryConfig.custom().rawResponseLimitBytes(16).build())
                .tool(ToolBinding.readOnly("search", executor, projector))
                .build();
    }

    ToolBoundary boundary(ToolExecutor executor, Projector projector) {
        return boundary(executor, projector, nanos::get);
    }

    static Either<BoundaryError, AgentResult> call(ToolBoundary boundary) {
        RunContext run = RunContext.active(new RunId(RUN), NOW.plusSeconds(60), 10).opened(TestRuns.TOKEN);
        return boundary.invoke(run, ToolCallEnvelope.of(RUN, CALL, "search", "{\"q\":\"x\"}"));
    }

    @Test
    void reportsExecutionAndProjectionTimeOfASuccessfulCall() {
        ToolBoundary boundary = boundary(
                request -> {
                    nanos.addAndGet(Duration.ofMillis(250).toNanos());
                    return "raw";
                },
                (request, raw) -> {
                    nanos.addAndGet(Duration.ofMillis(7).toNanos());
                    return Projection.evidenceFound("1 row");
                });

        assertThat(call(boundary).isRight()).isTrue();

        assertThat(listener.events).containsExactly(
                "executed " + KEY + " search PT0.25S",
                "projected " + KEY + " search PT0.007S",
                "completed READY");
    }

    @Test
    void reportsExecutionTimeBeforeTheFailureOfAThrowingTool() {
        ToolBoundary boundary = boundary(
                request -> {
                    nanos.addAndGet(Duration.ofMillis(40).toNanos());
                    throw new IllegalStateException("down");
                },
                (request, raw) -> Projection.evidenceFound("never"));

        assertThat(call(boundary).getLeft().code()).isEqualTo(ErrorCode.EXECUTION_FAILED);

        assertThat(listener.events).containsExactly(
                "executed " + KEY + " search PT0.04S",
                "toolFailed " + KEY,
                "completed ERROR");
    }

    @Test
    void reportsProjectionTimeBeforeTheFailureOfAThrowingProjector() {
        ToolBoundary boundary = boundary(
                request -> "raw",
                (request, raw) -> {
                    nanos.addAndGet(3);
                    throw new IllegalStateException("bad");
                });

        assertThat(call(boundary).getLeft().code()).isEqualTo(ErrorCode.PROJECTION_FAILED);

        assertThat(listener.events).containsExactly(
                "executed " + KEY + " search PT0S",
                "projected " + KEY + " search PT0.000000003S",
                "projectorFailed " + KEY,
                "completed ERROR");
    }

    @Test
    void reportsNoProjectionTimeWhenTheProjectorIsNotCalled() {
        ToolBoundary boundary = boundary(request -> "a raw response over sixteen bytes",
                (request, raw) -> Projection.evidenceFound("never"));

        assertThat(call(boundary).getLeft().code()).isEqualTo(ErrorCode.RESULT_TOO_LARGE);

        assertThat(listener.events).containsExactly("executed " + KEY + " search PT0S", "completed ERROR");
    }

    @Test
    void reportsNoTimeForACallRejectedBeforeItsTool() {
        ToolBoundary boundary = boundary(request -> "raw", (request, raw) -> Projection.evidenceFound("1 row"));
        RunContext run = RunContext.active(new RunId(RUN), NOW.plusSeconds(60), 10).opened(TestRuns.TOKEN);

        boundary.invoke(run, ToolCallEnvelope.of(RUN, CALL, "unknown-tool", "{}"));

        assertThat(listener.events).containsExactly("rejected TOOL_NOT_REGISTERED");
    }

    @Test
    void reportsATickerGoingBackwardsAsZero() {
        ToolBoundary boundary = boundary(
                request -> {
                    nanos.addAndGet(-5_000);
                    return "raw";
                },
                (request, raw) -> Projection.evidenceFound("1 row"));

        call(boundary);

        assertThat(listener.events).startsWith("executed " + KEY + " search PT0S");
    }

    @Test
    void aThrowingTickerSuppressesTheTimingAndChangesNoOutcome() {
        LongSupplier broken = () -> {
            throw new IllegalStateException("no time");
        };
        ToolBoundary boundary = boundary(request -> "raw", (request, raw) -> Projection.evidenceFound("1 row"), broken);

        Either<BoundaryError, AgentResult> outcome = call(boundary);

        assertThat(outcome.get().content()).isEqualTo("1 row");
        assertThat(listener.events).containsExactly("completed READY");
    }

    @Test
    void aThrowingTimingListenerChangesNoOutcome() {
        BoundaryListener throwing = new BoundaryListener() {
            @Override
            public void onExecuted(InvocationKey key, ToolName tool, Duration elapsed) {
                throw new IllegalStateException("listener failed");
            }

            @Override
            public void onProjected(InvocationKey key, ToolName tool, Duration elapsed) {
                throw new IllegalStateException("listener failed");
            }
        };
        ToolBoundary boundary = ToolBoundary.builder()
                .store(ScriptedStore.confirming())
                .accessPolicy(AccessPolicy.allowAll())
                .clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .listener(throwing)
                .tool(ToolBinding.readOnly("search", request -> "raw", (request, raw) -> Projection.evidenceFound("1 row")))
                .build();

        assertThat(call(boundary).get().content()).isEqualTo("1 row");
    }

    @Test
    void measuresWithTheSystemTickerByDefault() {
        List<Duration> executions = new ArrayList<>();
        ToolBoundary boundary = ToolBoundary.builder()
                .store(ScriptedStore.confirming())
                .accessPolicy(AccessPolicy.allowAll())
                .clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .listener(new BoundaryListener() {
                    @Override
                    public void onExecuted(InvocationKey key, ToolName tool, Duration elapsed) {
                        executions.add(elapsed);
                    }
                })
                .tool(ToolBinding.readOnly("search", request -> "raw", (request, raw) -> Projection.evidenceFound("1 row")))
                .build();

        call(boundary);

        assertThat(executions).hasSize(1);
        assertThat(executions.get(0)).isGreaterThanOrEqualTo(Duration.ZERO).isLessThan(Duration.ofSeconds(10));
    }
}
