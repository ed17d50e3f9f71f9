package io.toolboundary.tck;

import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
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
import java.util.UUID;
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
 * {@link ErrorCode}, store refusals included) and on the success path, with the store a subclass
 * supplies.
 *
 * <p>A store adapter runs all of it by extending this class and implementing three hooks: the store
 * under test, ending a record's life now, and the store's record limit. Every case works in a run of
 * its own, so a subclass may hand all cases one shared store on one shared server. The boundary reads
 * {@link #clock()}, a {@link MutableClock} standing at {@link #START} that the suite owns (a new one
 * for each test); store failures are switched in with {@link FaultyStores} around the real store.
 */
public abstract class AgentNeverSeesRawDataContract {

    /** Where {@link #clock()} stands when a test begins. */
    public static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    private static final String CREDENTIAL = "password=hunter2-MARKER";
    private static final String TOOL_CALL_ID = "call_KEYMARKER-7";
    private static final String ARGUMENTS = "{\"query\":\"ARGS-MARKER\",\"auth\":\"" + CREDENTIAL + "\"}";
    private static final String RAW = "RAW-MARKER 10:00 ERROR checkout timeout; " + CREDENTIAL;
    private static final String EXCEPTION_TEXT = "EXCEPTION-MARKER failed reading " + RAW;
    private static final String SAFE_CONTENT = "1 timeout in checkout";
    private static final String SAFE_SCOPE = "service checkout, last 15 minutes";

    /** Text that must never reach the agent, besides each case's own run id and key. */
    private static final List<String> FORBIDDEN = List.of(
            "MARKER", "hunter2", "password=", ARGUMENTS, TOOL_CALL_ID,
            "Exception", "at io.", "\tat ", "Caused by", "java.", "io.toolboundary", "redis");

    private final MutableClock clock = MutableClock.at(START);

    // ---------------------------------------------------------------------------------------------
    // Hooks
    // ---------------------------------------------------------------------------------------------

    /**
     * The store under test; may be the same instance for every test. Called after this class's fields
     * are set, so a subclass may build it on {@link #clock()} in a field initializer.
     *
     * @return the store the boundaries of the cases are built on
     */
    protected abstract CanonicalInvocationStore store();

    /**
     * Ends the life of the record under {@code key} now, as if its time to live had run out. Called
     * from inside a tool, while the boundary waits for it.
     *
     * @param key the run and tool call whose record is to expire
     */
    protected abstract void expire(InvocationKey key);

    /**
     * The record limit, in UTF-8 bytes, that the store under test was built with.
     *
     * @return the largest {@link CanonicalRecord#byteSize()} the store accepts
     */
    protected abstract long maxRecordBytes();

    /**
     * Lets the store's own clock pass the execution lease of the record under {@code key}; called after
     * the suite has moved {@link #clock()} past it. A store whose clock is {@link #clock()} needs nothing
     * more (the default); a store on a server's clock must pass the lease there, or the case that
     * abandons a call past its lease fails.
     *
     * @param key the run and tool call whose execution lease is to pass
     */
    protected void passLease(InvocationKey key) {
    }

    /**
     * The clock of this test's boundaries; a new one for each test, standing at {@link #START}.
     *
     * @return this test's clock, which the cases move by hand
     */
    protected final MutableClock clock() {
        return clock;
    }

    // ---------------------------------------------------------------------------------------------
    // Cases
    // ---------------------------------------------------------------------------------------------

    /** One way to call the boundary, with the code the agent must get. */
    private record Case(String name, ErrorCode expected,
            Function<World, Function<BoundaryListener, Either<BoundaryError, AgentResult>>> call) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Everything a case needs: a run of its own, its envelope, the tool and projector it changes. */
    private final class World {
        final String runId = "run-KEYMARKER-" + UUID.randomUUID();
        final RunContext run = Fixtures.runContext(runId);
        final MutableClock clock = AgentNeverSeesRawDataContract.this.clock;
        final ToolCallEnvelope envelope = ToolCallEnvelope.of(runId, TOOL_CALL_ID, "log-search", ARGUMENTS);
        ToolExecutor executor = FakeTools.returning(RAW);
        Projector projector = FakeProjectors.evidenceFound(SAFE_CONTENT);

        ToolBoundary.Builder builder(BoundaryListener listener) {
            return ToolBoundary.builder().store(store()).accessPolicy(AccessPolicy.allowAll()).clock(clock)
                    .listener(listener).tool(ToolBinding.readOnly("log-search", executor, projector));
        }

        Fixtures.EnvelopeBuilder envelopeBuilder() {
            return Fixtures.envelope().withRunId(envelope.runId()).withToolCallId(envelope.toolCallId())
                    .withToolName(envelope.toolName()).withArguments(envelope.arguments());
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

        /** A request whose record is over the store's limit, with boundary limits that let it through. */
        Either<BoundaryError, AgentResult> invokeOverTheStoresRecordLimit(BoundaryListener listener) {
            // A request that fits its own limit but, with the record's ids and fingerprint, not the record limit.
            String arguments = "{\"query\":\"ARGS-MARKER " + "a".repeat(Math.toIntExact(maxRecordBytes() / 2)) + "\"}";
            long requestBytes = arguments.length();
            ToolBoundaryConfig tight = ToolBoundaryConfig.custom().requestLimitBytes(requestBytes)
                    .rawResponseLimitBytes(requestBytes).recordLimitBytes(requestBytes).build();
            return builder(listener).config(tight).build()
                    .invoke(run, ToolCallEnvelope.of(runId, TOOL_CALL_ID, "log-search", arguments));
        }

        CanonicalInvocationStore store() {
            return AgentNeverSeesRawDataContract.this.store();
        }

        void expire(InvocationKey key) {
            AgentNeverSeesRawDataContract.this.expire(key);
        }

        void passLease(InvocationKey key) {
            AgentNeverSeesRawDataContract.this.passLease(key);
        }
    }

    private static Case preflight(String name, ErrorCode expected, UnaryOperator<Fixtures.EnvelopeBuilder> change) {
        return new Case(name, expected, w -> l -> w.invoke(l, change.apply(w.envelopeBuilder()).build()));
    }

    private static Case after(String name, ErrorCode expected,
            Function<World, Function<BoundaryListener, Either<BoundaryError, AgentResult>>> setUp) {
        return new Case(name, expected, setUp);
    }

    /** One case per way the boundary can fail, covering every {@link ErrorCode}. */
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
                                RunContext.active(w.run.runId(), START, RunContext.UNLIMITED), w.envelope)),
                preflight("unsafe tool name", ErrorCode.TOOL_NAME_INVALID, e -> e.withToolName("tool*MARKER")),
                preflight("unknown tool", ErrorCode.TOOL_NOT_REGISTERED, e -> e.withToolName("unknown-MARKER")),
                after("access policy throws", ErrorCode.TOOL_NOT_AUTHORIZED,
                        w -> l -> w.builder(l).accessPolicy((run, tool) -> {
                            throw new IllegalStateException(EXCEPTION_TEXT);
                        }).build().invoke(w.run, w.envelope)),
                after("writable tool", ErrorCode.TOOL_NOT_READ_ONLY,
                        w -> l -> ToolBoundary.builder().store(w.store()).accessPolicy(AccessPolicy.allowAll())
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
                        w.envelopeBuilder().withArguments("{\"query\":\"OTHER-MARKER\"}").build())),
                after("run budget exhausted", ErrorCode.RUN_BUDGET_EXHAUSTED, w -> l -> w.builder(l).build()
                        .invoke(RunContext.active(w.run.runId(), Fixtures.FAR_FUTURE, 0), w.envelope)),
                after("tool budget exhausted", ErrorCode.TOOL_BUDGET_EXHAUSTED,
                        w -> l -> ToolBoundary.builder().store(w.store()).accessPolicy(AccessPolicy.allowAll())
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
                        FaultyStores.refusingBegin(w.store(), ErrorCode.STORE_UNAVAILABLE))),
                after("store outcome unknown", ErrorCode.STORE_OUTCOME_UNKNOWN, w -> l -> w.invokeOn(l,
                        FaultyStores.refusingBegin(w.store(), ErrorCode.STORE_OUTCOME_UNKNOWN))),
                after("store full", ErrorCode.STORE_FULL, w -> l -> w.invokeOn(l,
                        FaultyStores.refusingBegin(w.store(), ErrorCode.STORE_FULL))),
                after("store data invalid", ErrorCode.STORE_DATA_INVALID, w -> l -> w.invokeOn(l,
                        FaultyStores.refusingBegin(w.store(), ErrorCode.STORE_DATA_INVALID))),
                after("record expired while the tool ran", ErrorCode.RECORD_EXPIRED, w -> {
                    w.executor = request -> {
                        w.expire(request.key());
                        return RAW;
                    };
                    return w::invoke;
                }),
                after("store refuses the completion", ErrorCode.RECORD_CONFLICT, w -> l -> w.invokeOn(l,
                        FaultyStores.refusingComplete(w.store(), ErrorCode.RECORD_CONFLICT))),
                after("store crashes", ErrorCode.INTERNAL_ERROR,
                        w -> l -> w.invokeOn(l, FaultyStores.crashingOnBegin(w.store(), EXCEPTION_TEXT))),
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("errorPaths")
    void agentSeesOnlyTheSafeCodeOnEveryErrorPath(Case path) {
        World world = new World();
        RecordingListener listener = new RecordingListener();

        Either<BoundaryError, AgentResult> result = path.call().apply(world).apply(listener);

        assertThat(result.isLeft()).as("failed").isTrue();
        BoundaryError error = result.getLeft();
        assertThat(error.code()).isEqualTo(path.expected());
        assertNothingForbiddenIn(world, error.toString(), error.message(), error.code().name());
        assertThat(error.message()).isEqualTo(path.expected().safeMessage());
        listener.errors.forEach(seen -> assertNothingForbiddenIn(world, seen.toString()));
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
        assertNothingForbiddenIn(world, result.get().content(), result.get().scope().get(), result.get().toString());
    }

    @Test
    void agentSeesNothingOfANegativeObservationButItsScope() {
        World world = new World();
        world.projector = FakeProjectors.noEvidence("no matching lines", SAFE_SCOPE);

        AgentResult result = world.invoke(new RecordingListener()).get();

        assertNothingForbiddenIn(world, result.content(), result.scope().get(), result.toString());
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

    private static void assertNothingForbiddenIn(World world, String... agentVisible) {
        List<String> forbidden = new ArrayList<>(FORBIDDEN);
        forbidden.add(world.runId);
        forbidden.add(world.runId + "/" + TOOL_CALL_ID);
        for (String text : agentVisible) {
            for (String word : forbidden) {
                assertThat(text).as("agent-visible text").doesNotContain(word);
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
