package io.toolboundary.tck;

import static io.toolboundary.tck.LeakCases.ARGUMENTS;
import static io.toolboundary.tck.LeakCases.EXCEPTION_TEXT;
import static io.toolboundary.tck.LeakCases.RAW;
import static io.toolboundary.tck.LeakCases.SAFE_CONTENT;
import static io.toolboundary.tck.LeakCases.SAFE_SCOPE;
import static io.toolboundary.tck.LeakCases.TOOL_CALL_ID;
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
import io.toolboundary.application.RunToken;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
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
import java.util.stream.Collectors;
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

    /** Everything a case needs: a run of its own, its envelope, the tool and projector it changes. */
    final class World {
        final String runId = "run-KEYMARKER-" + UUID.randomUUID();
        final RunContext run = Fixtures.runContext(runId).opened(store().openRun(new io.toolboundary.domain.RunId(runId),
                RunToken.random(), Duration.ofDays(365)).getOrElseThrow(e -> new AssertionError("open run: " + e)));
        final MutableClock clock = AgentNeverSeesRawDataContract.this.clock;
        final ToolCallEnvelope envelope = ToolCallEnvelope.of(runId, TOOL_CALL_ID, "log-search", ARGUMENTS);
        ToolExecutor executor = FakeTools.returning(RAW);
        Projector projector = FakeProjectors.evidenceFound(SAFE_CONTENT);

        ToolBoundaryBuilder builder(BoundaryListener listener) {
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
            long argumentsBytes = arguments.length();
            ToolBoundaryConfig tight = ToolBoundaryConfig.custom().argumentsLimitBytes(argumentsBytes)
                    .rawResponseLimitBytes(argumentsBytes).recordLimitBytes(argumentsBytes).build();
            return builder(listener).config(tight).build()
                    .invoke(run, ToolCallEnvelope.of(runId, TOOL_CALL_ID, "log-search", arguments));
        }

        CanonicalInvocationStore store() {
            return AgentNeverSeesRawDataContract.this.store();
        }

        InvocationKey key() {
            return InvocationKey.of(new io.toolboundary.domain.RunId(runId), new io.toolboundary.domain.ToolCallId(TOOL_CALL_ID));
        }

        void expire(InvocationKey key) {
            AgentNeverSeesRawDataContract.this.expire(key);
        }

        void passLease(InvocationKey key) {
            AgentNeverSeesRawDataContract.this.passLease(key);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.toolboundary.tck.LeakCases#errorPaths")
    void agentSeesOnlyTheSafeCodeOnEveryErrorPath(LeakCases.Case path) {
        World world = new World();
        RecordingListener listener = new RecordingListener();

        Either<BoundaryError, AgentResult> result = path.call().apply(world).apply(listener);

        assertThat(result.isLeft()).as("failed").isTrue();
        BoundaryError error = result.getLeft();
        assertThat(error.code()).isEqualTo(path.expected());
        assertNothingForbiddenIn(world, error.toString(), error.message(), error.code().name());
        assertThat(error.message()).isEqualTo(path.expected().safeMessage());
        listener.errors.forEach(seen -> assertNothingForbiddenIn(world, seen.toString()));
        Option<CanonicalRecord> record = store().find(world.key()).getOrElseThrow(e -> new AssertionError("find: " + e));
        assertThat(ErrorRecords.agrees(error.code(), record))
                .as("the record after %s is one of %s, was %s", error.code(), ErrorRecords.allowed(error.code()), record)
                .isTrue();
    }

    @Test
    void errorPathsCoverEveryErrorCode() {
        Set<ErrorCode> covered = LeakCases.errorPaths().map(LeakCases.Case::expected).collect(Collectors.toCollection(
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
