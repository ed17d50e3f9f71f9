package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.LeakWorld.ARGUMENTS;
import static io.toolboundary.tck.boundary.LeakWorld.CREDENTIAL;
import static io.toolboundary.tck.boundary.LeakWorld.EXCEPTION_TEXT;
import static io.toolboundary.tck.boundary.LeakWorld.RAW;
import static io.toolboundary.tck.boundary.LeakWorld.TOOL_CALL_ID;

import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.tck.store.FaultyStores;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The cases of {@link AgentNeverSeesRawDataContract}: one way to call the boundary per error code, each with the code
 * the agent must get.
 */
final class LeakCases {

    private LeakCases() {
    }

    /**
     * One way to call the boundary, with the code the agent must get and the limit the call meets, if it sets one up:
     * the only thing besides the code that the agent's message may name.
     */
    record Case(String name, ErrorCode expected, Option<Long> limit,
            Function<LeakWorld, Function<BoundaryListener, Either<BoundaryError, AgentResult>>> call) {

        /** This case, the call meeting the configured {@code limit}. */
        Case meeting(long limit) {
            return new Case(name, expected, Option.some(limit), call);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Case preflight(String name, ErrorCode expected, UnaryOperator<Fixtures.EnvelopeBuilder> change) {
        return new Case(name, expected, Option.none(),
                w -> l -> w.invoke(l, change.apply(w.envelopeBuilder()).build()));
    }

    static Case after(String name, ErrorCode expected,
            Function<LeakWorld, Function<BoundaryListener, Either<BoundaryError, AgentResult>>> setUp) {
        return new Case(name, expected, Option.none(), setUp);
    }

    /** One case per way the boundary can fail, covering every {@link ErrorCode}. */
    static Stream<Case> errorPaths() {
        return Stream.of(
                preflight("missing tool call id", ErrorCode.TOOL_CALL_ID_MISSING, e -> e.withToolCallId(null)),
                preflight("unsafe tool call id", ErrorCode.TOOL_CALL_ID_UNSAFE,
                        e -> e.withToolCallId("call*MARKER " + CREDENTIAL)),
                preflight("unsafe run id", ErrorCode.RUN_ID_INVALID, e -> e.withRunId("run*MARKER " + CREDENTIAL)),
                preflight("cross-run call", ErrorCode.RUN_MISMATCH, e -> e.withRunId("run-OTHER-MARKER")),
                after("inactive run", ErrorCode.RUN_INACTIVE, w -> l -> w.invokeIn(l, w.run.deactivated())),
                after("deadline passed", ErrorCode.RUN_DEADLINE_EXCEEDED, w -> l -> w.invokeIn(l, RunContext.active(
                        w.run.runId(), SpecValues.START, RunContext.UNLIMITED).opened(w.run.runToken().get()))),
                after("run never opened", ErrorCode.RUN_NOT_OPENED, w -> l -> w.invokeIn(l, Fixtures.runContext(w.runId))),
                after("run state lost", ErrorCode.RUN_STATE_LOST, w -> l -> w.invokeIn(l, w.run.opened(RunToken.random()))),
                preflight("unsafe tool name", ErrorCode.TOOL_NAME_INVALID, e -> e.withToolName("tool*MARKER")),
                preflight("unknown tool", ErrorCode.TOOL_NOT_REGISTERED, e -> e.withToolName("unknown-MARKER")),
                after("access policy throws", ErrorCode.TOOL_NOT_AUTHORIZED,
                        w -> l -> w.builder(l).accessPolicy((run, tool) -> {
                            throw new IllegalStateException(EXCEPTION_TEXT);
                        }).build().invoke(w.run, w.envelope)),
                after("writable tool", ErrorCode.TOOL_NOT_READ_ONLY, w -> l -> w.builderWith(l,
                        ToolBinding.writable("log-search", w.executor, w.projector)).build().invoke(w.run, w.envelope)),
                after("request over the limit", ErrorCode.ARGUMENTS_TOO_LARGE,
                        w -> l -> w.builder(l).config(ToolBoundaryConfig.custom().argumentsLimitBytes(16).build())
                                .build().invoke(w.run, w.envelope)).meeting(16),
                preflight("arguments with trailing content", ErrorCode.ARGUMENTS_INVALID,
                        e -> e.withArguments(ARGUMENTS + " MARKER")),
                after("raw response with a lone surrogate", ErrorCode.TEXT_NOT_UNICODE, w -> {
                    w.executor = FakeTools.returning(RAW + "\ud800");
                    return w::invoke;
                }),
                after("duplicate call", ErrorCode.DUPLICATE_TOOL_CALL, w -> l -> w.invokeTwice(l, w.envelope)),
                after("reused tool call id", ErrorCode.TOOL_CALL_ID_REUSED, w -> l -> w.invokeTwice(l,
                        w.envelopeBuilder().withArguments("{\"query\":\"OTHER-MARKER\"}").build())),
                after("run budget exhausted", ErrorCode.RUN_BUDGET_EXHAUSTED, w -> l -> w.invokeIn(l,
                        RunContext.active(w.run.runId(), Fixtures.FAR_FUTURE, 0).opened(w.run.runToken().get())))
                        .meeting(0),
                after("tool budget exhausted", ErrorCode.TOOL_BUDGET_EXHAUSTED, w -> l -> w.builderWith(l,
                        ToolBinding.readOnly("log-search", w.executor, w.projector).withCallBudgetPerRun(0)).build()
                        .invoke(w.run, w.envelope)).meeting(0),
                after("tool throws", ErrorCode.EXECUTION_FAILED, w -> {
                    w.executor = FakeTools.throwing(EXCEPTION_TEXT);
                    return w::invoke;
                }),
                after("raw over the limit", ErrorCode.RESULT_TOO_LARGE, w -> {
                    w.executor = FakeTools.returning(RAW + Fixtures.textOfUtf8Bytes(1024));
                    return l -> w.builder(l).config(ToolBoundaryConfig.custom().rawResponseLimitBytes(1024).build())
                            .build().invoke(w.run, w.envelope);
                }).meeting(1024),
                after("echoing projector over the agent limit", ErrorCode.RESULT_TOO_LARGE, w -> {
                    w.executor = FakeTools.returning(RAW + Fixtures.textOfUtf8Bytes(
                            (int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES));
                    w.projector = FakeProjectors.echoingRaw();
                    return w::invoke;
                }).meeting(ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES),
                after("record over the record limit", ErrorCode.RESULT_TOO_LARGE,
                        w -> w::invokeOverTheStoresRecordLimit),
                after("projector throws", ErrorCode.PROJECTION_FAILED, w -> {
                    w.projector = FakeProjectors.throwing(EXCEPTION_TEXT);
                    return w::invoke;
                }),
                after("projector claims status ERROR with the raw as content", ErrorCode.PROJECTION_INVALID, w -> {
                    w.projector = (request, raw) -> new Projection(raw, EvidenceStatus.ERROR, Option.of(raw));
                    return w::invoke;
                }),
                after("store unavailable", ErrorCode.STORE_UNAVAILABLE, w -> l -> w.invokeOn(l,
                        FaultyStores.refusingBegin(w.store(), StoreFailure.unavailable()))),
                after("store outcome unknown", ErrorCode.STORE_OUTCOME_UNKNOWN, w -> l -> w.invokeOn(l,
                        FaultyStores.refusingBegin(w.store(), StoreFailure.outcomeUnknown()))),
                after("store full", ErrorCode.STORE_FULL, w -> l -> w.invokeOn(l,
                        FaultyStores.refusingBegin(w.store(), StoreFailure.full()))),
                after("store data invalid", ErrorCode.STORE_DATA_INVALID, w -> l -> w.invokeOn(l,
                        FaultyStores.refusingBegin(w.store(), StoreFailure.dataInvalid()))),
                after("record expired while the tool ran", ErrorCode.RECORD_EXPIRED, w -> {
                    w.executor = request -> {
                        w.expire(request.key());
                        return RAW;
                    };
                    return w::invoke;
                }),
                after("store refuses the completion", ErrorCode.RECORD_CONFLICT, w -> l -> w.invokeOn(l,
                        FaultyStores.refusingComplete(w.store(), StoreFailure.refused(Refusal.CONFLICT)))),
                after("store crashes", ErrorCode.INTERNAL_ERROR,
                        w -> l -> w.invokeOn(l, FaultyStores.crashingOnBegin(w.store(), EXCEPTION_TEXT))),
                after("harness abandons a call within its lease", ErrorCode.LEASE_NOT_EXPIRED,
                        w -> l -> abandonWhileRunning(w, l, Duration.ZERO)),
                after("harness abandons a call past its lease", ErrorCode.EXECUTION_ABANDONED,
                        w -> l -> abandonWhileRunning(w, l, ToolBoundaryConfig.DEFAULT_EXECUTION_LEASE)));
    }

    /**
     * What the harness gets from {@link ToolBoundary#abandonExpired} while the tool runs, {@code wait} after the call
     * began: the refusal, or the abandoned record's code.
     */
    static Either<BoundaryError, AgentResult> abandonWhileRunning(LeakWorld w, BoundaryListener listener,
            Duration wait) {
        AtomicReference<ToolBoundary> boundary = new AtomicReference<>();
        AtomicReference<Either<BoundaryError, CanonicalRecord.Failed>> abandoned = new AtomicReference<>();
        w.executor = request -> {
            w.clock.advance(wait);
            if (wait.compareTo(ToolBoundaryConfig.DEFAULT_EXECUTION_LEASE) >= 0) {
                w.passLease(request.key());
            }
            abandoned.set(boundary.get().abandonExpired(w.run.runId(), new ToolCallId(TOOL_CALL_ID)));
            return RAW;
        };
        boundary.set(w.builder(listener).build());
        boundary.get().invoke(w.run, w.envelope);
        return abandoned.get().flatMap(record -> Either.left(BoundaryError.of(record.code())));
    }
}
