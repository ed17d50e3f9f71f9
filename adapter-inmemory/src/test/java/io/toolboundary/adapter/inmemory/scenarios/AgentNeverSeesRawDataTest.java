package io.toolboundary.adapter.inmemory.scenarios;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nothing the agent receives carries a raw response, an exception text, a credential, the request, the
 * canonical key or a stack trace: on every error path the boundary can take (one case per
 * {@link ErrorCode}, store refusals included) and on the success path.
 */
class AgentNeverSeesRawDataTest {

    private static final String CREDENTIAL = "password=hunter2-MARKER";
    private static final String RUN_ID = "run-KEYMARKER-7";
    private static final String TOOL_CALL_ID = "call_KEYMARKER-7";
    private static final String ARGUMENTS = "{\"query\":\"ARGS-MARKER\",\"auth\":\"" + CREDENTIAL + "\"}";
    private static final String RAW = "RAW-MARKER 10:00 ERROR checkout timeout; " + CREDENTIAL;
    private static final String EXCEPTION_TEXT = "EXCEPTION-MARKER failed reading " + RAW;
    private static final String SAFE_CONTENT = "1 timeout in checkout";
    private static final String SAFE_SCOPE = "service checkout, last 15 minutes";
    private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    /** Text that must never reach the agent. */
    private static final List<String> FORBIDDEN = List.of(
            "MARKER", "hunter2", "password=", ARGUMENTS, RUN_ID + "/" + TOOL_CALL_ID, RUN_ID, TOOL_CALL_ID,
            "Exception", "at io.", "\tat ", "Caused by", "java.", "io.toolboundary", "redis");

    /** One way to call the boundary, with the code the agent must get. */
    private record Case(String name, ErrorCode expected, Function<BoundaryListener, Either<BoundaryError, AgentResult>> call) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Everything a case needs: a store and clock of its own, the run and the envelope. */
    private static final class World {
        final ManualClock clock = new ManualClock(START);
        final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(clock);
        final RunContext run = Fixtures.runContext(RUN_ID);
        final ToolCallEnvelope envelope = ToolCallEnvelope.of(RUN_ID, TOOL_CALL_ID, "log-search", ARGUMENTS);
        ToolExecutor executor = FakeTools.returning(RAW);
        Projector projector = FakeProjectors.evidenceFound(SAFE_CONTENT);

        ToolBoundary.Builder builder(BoundaryListener listener) {
            return ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll()).clock(clock)
                    .listener(listener).tool(ToolBinding.readOnly("log-search", executor, projector));
        }

        Either<BoundaryError, AgentResult> invoke(BoundaryListener listener) {
            return builder(listener).build().invoke(run, envelope);
        }

        Either<BoundaryError, AgentResult> invoke(BoundaryListener listener, ToolCallEnvelope other) {
            return builder(listener).build().invoke(run, other);
        }

        Either<BoundaryError, AgentResult> invokeTwice(BoundaryListener listener, ToolCallEnvelope second) {
            ToolBoundary boundary = builder(listener).build();
            boundary.invoke(run, envelope);
            return boundary.invoke(run, second);
        }

        Either<BoundaryError, AgentResult> invokeOn(BoundaryListener listener, CanonicalInvocationStore other) {
            return builder(listener).store(other).build().invoke(run, envelope);
        }
    }

    private static Case preflight(String name, ErrorCode expected, UnaryOperator<Fixtures.EnvelopeBuilder> change) {
        ToolCallEnvelope base = ToolCallEnvelope.of(RUN_ID, TOOL_CALL_ID, "log-search", ARGUMENTS);
        Fixtures.EnvelopeBuilder builder = Fixtures.envelope().withRunId(base.runId()).withToolCallId(base.toolCallId())
                .withToolName(base.toolName()).withArguments(base.arguments());
        return new Case(name, expected, listener -> new World().invoke(listener, change.apply(builder).build()));
    }

    private static Case after(String name, ErrorCode expected, Function<World, Function<BoundaryListener,
            Either<BoundaryError, AgentResult>>> setUp) {
        return new Case(name, expected, listener -> setUp.apply(new World()).apply(listener));
    }

    static Stream<Case> errorPaths() {
        return Stream.of(
                preflight("missing tool call id", ErrorCode.TOOL_CALL_ID_MISSING, e -> e.withToolCallId(null)),
                preflight("unsafe tool call id", ErrorCode.TOOL_CALL_ID_UNSAFE,
                        e -> e.withToolCallId("call*MARKER " + CREDENTIAL)),
                preflight("unsafe run id", ErrorCode.RUN_ID_INVALID, e -> e.withRunId("run*MARKER " + CREDENTIAL)),
                preflight("cross-run call", ErrorCode.RUN_MISMATCH, e -> e.withRunId("run-OTHER-MARKER")),
                after("inactive run", ErrorCode.RUN_INACTIVE,
                        w -> l -> w.builder(l).build().invoke(w.run.deactivated(), w.envelope)),
                after("deadline passed", ErrorCode.RUN_DEADLINE_EXCEEDED,
                        w -> l -> w.builder(l).build().invoke(
                                RunContext.active(new RunId(RUN_ID), START, RunContext.UNLIMITED), w.envelope)),
                preflight("unsafe tool name", ErrorCode.TOOL_NAME_INVALID, e -> e.withToolName("tool*MARKER")),
                preflight("unknown tool", ErrorCode.TOOL_NOT_REGISTERED, e -> e.withToolName("unknown-MARKER")),
                after("access policy throws", ErrorCode.TOOL_NOT_AUTHORIZED,
                        w -> l -> w.builder(l).accessPolicy((run, tool) -> {
                            throw new IllegalStateException(EXCEPTION_TEXT);
                        }).build().invoke(w.run, w.envelope)),
                after("writable tool", ErrorCode.TOOL_NOT_READ_ONLY,
                        w -> l -> ToolBoundary.builder().store(w.store).accessPolicy(AccessPolicy.allowAll())
                                .clock(w.clock).listener(l)
                                .tool(ToolBinding.writable("log-search", w.executor, w.projector)).build()
                                .invoke(w.run, w.envelope)),
                after("request over the limit", ErrorCode.REQUEST_TOO_LARGE,
                        w -> l -> w.builder(l).config(ToolBoundaryConfig.custom().requestLimitBytes(16).build())
                                .build().invoke(w.run, w.envelope)),
                preflight("arguments with trailing content", ErrorCode.ARGUMENTS_INVALID,
                        e -> e.withArguments(ARGUMENTS + " MARKER")),
                after("raw response with a lone surrogate", ErrorCode.TEXT_NOT_UNICODE, w -> {
                    w.executor = FakeTools.returning(RAW + "\ud800");
                    return w::invoke;
                }),
                after("duplicate call", ErrorCode.DUPLICATE_TOOL_CALL, w -> l -> w.invokeTwice(l, w.envelope)),
                after("reused tool call id", ErrorCode.TOOL_CALL_ID_REUSED, w -> l -> w.invokeTwice(l,
                        ToolCallEnvelope.of(RUN_ID, TOOL_CALL_ID, "log-search", "{\"query\":\"OTHER-MARKER\"}"))),
                after("run budget exhausted", ErrorCode.RUN_BUDGET_EXHAUSTED, w -> l -> w.builder(l).build()
                        .invoke(RunContext.active(new RunId(RUN_ID), Fixtures.FAR_FUTURE, 0), w.envelope)),
                after("tool budget exhausted", ErrorCode.TOOL_BUDGET_EXHAUSTED,
                        w -> l -> ToolBoundary.builder().store(w.store).accessPolicy(AccessPolicy.allowAll())
                                .clock(w.clock).listener(l)
                                .tool(ToolBinding.readOnly("log-search", w.executor, w.projector).withCallBudgetPerRun(0))
                                .build().invoke(w.run, w.envelope)),
                after("tool throws", ErrorCode.EXECUTION_FAILED, w -> {
                    w.executor = FakeTools.throwing(EXCEPTION_TEXT);
                    return w::invoke;
                }),
                after("raw over the limit", ErrorCode.RESULT_TOO_LARGE, w -> {
                    w.executor = FakeTools.returning(RAW + Fixtures.textOfUtf8Bytes(1024));
                    return l -> w.builder(l).config(ToolBoundaryConfig.custom().rawResponseLimitBytes(1024).build())
                            .build().invoke(w.run, w.envelope);
                }),
                after("echoing projector over the agent limit", ErrorCode.RESULT_TOO_LARGE, w -> {
                    w.executor = FakeTools.returning(RAW + Fixtures.textOfUtf8Bytes(
                            (int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES));
                    w.projector = FakeProjectors.echoingRaw();
                    return w::invoke;
                }),
                after("store refuses an oversize record", ErrorCode.RESULT_TOO_LARGE,
                        w -> l -> w.invokeOn(l, InMemoryCanonicalInvocationStore.create(w.clock, 64))),
                after("projector throws", ErrorCode.PROJECTION_FAILED, w -> {
                    w.projector = FakeProjectors.throwing(EXCEPTION_TEXT);
                    return w::invoke;
                }),
                after("projector claims status ERROR with the raw as content", ErrorCode.PROJECTION_INVALID, w -> {
                    w.projector = (request, raw) -> new Projection(raw, EvidenceStatus.ERROR, Option.of(raw));
                    return w::invoke;
                }),
                after("store unavailable", ErrorCode.STORE_UNAVAILABLE,
                        w -> l -> w.invokeOn(l, FailingStore.refusingBegin(w.store, ErrorCode.STORE_UNAVAILABLE))),
                after("store outcome unknown", ErrorCode.STORE_OUTCOME_UNKNOWN,
                        w -> l -> w.invokeOn(l, FailingStore.refusingBegin(w.store, ErrorCode.STORE_OUTCOME_UNKNOWN))),
                after("store full", ErrorCode.STORE_FULL,
                        w -> l -> w.invokeOn(l, FailingStore.refusingBegin(w.store, ErrorCode.STORE_FULL))),
                after("store data invalid", ErrorCode.STORE_DATA_INVALID,
                        w -> l -> w.invokeOn(l, FailingStore.refusingBegin(w.store, ErrorCode.STORE_DATA_INVALID))),
                after("record expired while the tool ran", ErrorCode.RECORD_EXPIRED, w -> {
                    w.executor = request -> {
                        w.clock.advance(ToolBoundaryConfig.DEFAULT_RECORD_TTL.plus(Duration.ofSeconds(1)));
                        return RAW;
                    };
                    return w::invoke;
                }),
                after("store refuses the completion", ErrorCode.RECORD_CONFLICT,
                        w -> l -> w.invokeOn(l, FailingStore.refusingComplete(w.store, ErrorCode.RECORD_CONFLICT))),
                after("store crashes", ErrorCode.INTERNAL_ERROR,
                        w -> l -> w.invokeOn(l, FailingStore.crashingOnBegin(w.store, EXCEPTION_TEXT))),
                after("harness abandons a call within its lease", ErrorCode.LEASE_NOT_EXPIRED,
                        w -> l -> abandonWhileRunning(w, l, Duration.ZERO)),
                after("harness abandons a call past its lease", ErrorCode.EXECUTION_ABANDONED,
                        w -> l -> abandonWhileRunning(w, l, ToolBoundaryConfig.DEFAULT_EXECUTION_LEASE)));
    }

    /**
     * What the harness gets from {@link ToolBoundary#abandonExpired} while the tool runs, {@code wait}
     * after the call began: the refusal, or the abandoned record's code.
     */
    private static Either<BoundaryError, AgentResult> abandonWhileRunning(World w, BoundaryListener listener,
            Duration wait) {
        AtomicReference<ToolBoundary> boundary = new AtomicReference<>();
        AtomicReference<Either<BoundaryError, CanonicalRecord.Failed>> abandoned = new AtomicReference<>();
        w.executor = request -> {
            w.clock.advance(wait);
            abandoned.set(boundary.get().abandonExpired(w.run.runId(), new ToolCallId(TOOL_CALL_ID)));
            return RAW;
        };
        boundary.set(w.builder(listener).build());
        boundary.get().invoke(w.run, w.envelope);
        return abandoned.get().flatMap(record -> Either.left(BoundaryError.of(record.code())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errorPaths")
    void agentSeesOnlyTheSafeCodeOnEveryErrorPath(Case path) {
        RecordingListener listener = new RecordingListener();

        Either<BoundaryError, AgentResult> result = path.call().apply(listener);

        assertThat(result.isLeft()).as("failed").isTrue();
        BoundaryError error = result.getLeft();
        assertThat(error.code()).isEqualTo(path.expected());
        assertNothingForbiddenIn(error.toString(), error.message(), error.code().name());
        assertThat(error.message()).isEqualTo(path.expected().safeMessage());
        listener.errors.forEach(seen -> assertNothingForbiddenIn(seen.toString()));
    }

    @Test
    void errorPathsCoverEveryErrorCode() {
        Set<ErrorCode> covered = errorPaths().map(Case::expected).collect(Collectors.toCollection(
                () -> EnumSet.noneOf(ErrorCode.class)));

        assertThat(covered).isEqualTo(EnumSet.allOf(ErrorCode.class));
    }

    @Test
    void agentSeesOnlyWhatACorrectProjectorChose() {
        World world = new World();
        world.projector = (request, raw) -> raw.contains("ERROR")
                ? Projection.evidenceFound(SAFE_CONTENT, SAFE_SCOPE)
                : Projection.noEvidence("nothing", SAFE_SCOPE);

        Either<BoundaryError, AgentResult> result = world.invoke(new RecordingListener());

        assertThat(result.get()).isEqualTo(new AgentResult(SAFE_CONTENT, EvidenceStatus.EVIDENCE_FOUND,
                Option.of(SAFE_SCOPE)));
        assertNothingForbiddenIn(result.get().content(), result.get().scope().get(), result.get().toString());
    }

    @Test
    void agentSeesNothingOfANegativeObservationButItsScope() {
        World world = new World();
        world.projector = FakeProjectors.noEvidence("no matching lines", SAFE_SCOPE);

        AgentResult result = world.invoke(new RecordingListener()).get();

        assertNothingForbiddenIn(result.content(), result.scope().get(), result.toString());
    }

    @Test
    void listenerGetsTheExceptionTypeNeverItsMessage() {
        RecordingListener listener = new RecordingListener();
        World world = new World();
        world.executor = FakeTools.throwing(EXCEPTION_TEXT);
        world.invoke(listener);
        World projecting = new World();
        projecting.projector = FakeProjectors.throwing(EXCEPTION_TEXT);
        projecting.invoke(listener);

        assertThat(listener.failures).containsExactly(IllegalStateException.class, IllegalStateException.class);
        List<Class<?>> parameterTypes = Arrays.stream(BoundaryListener.class.getMethods())
                .map(Method::getParameterTypes).flatMap(Arrays::stream).collect(Collectors.toList());
        assertThat(parameterTypes).noneMatch(Throwable.class::isAssignableFrom).doesNotContain(String.class);
    }

    private static void assertNothingForbiddenIn(String... agentVisible) {
        for (String text : agentVisible) {
            for (String forbidden : FORBIDDEN) {
                assertThat(text).as("agent-visible text").doesNotContain(forbidden);
            }
        }
    }

    /** Keeps what the harness-side listener receives. */
    private static final class RecordingListener implements BoundaryListener {
        final List<BoundaryError> errors = new ArrayList<>();
        final List<Class<? extends Throwable>> failures = new ArrayList<>();

        @Override
        public void onRejected(ToolCallEnvelope envelope, BoundaryError error) {
            errors.add(error);
        }

        @Override
        public void onToolFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
            failures.add(failure);
        }

        @Override
        public void onProjectorFailed(InvocationKey key, ToolName tool, Class<? extends Throwable> failure) {
            failures.add(failure);
        }

        @Override
        public void onStoreFailed(InvocationKey key, BoundaryError error) {
            errors.add(error);
        }

        @Override
        public void onUnexpectedFailure(Class<? extends Throwable> failure) {
            failures.add(failure);
        }

        @Override
        public void onCompleted(CanonicalRecord.Final record) {
            record.errorCode().forEach(code -> errors.add(BoundaryError.of(code)));
        }
    }
}
