package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.LeakWorld.EXCEPTION_TEXT;
import static io.toolboundary.tck.boundary.LeakWorld.SAFE_CONTENT;
import static io.toolboundary.tck.boundary.LeakWorld.SAFE_SCOPE;
import static io.toolboundary.tck.boundary.LeakWorld.TOOL_CALL_ID;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.BoundaryListener;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proves that nothing the agent receives carries a raw response, an exception text, a credential, the request, the
 * canonical key or a stack trace, on the success path and on every error path (one case per {@link ErrorCode}). Calls
 * {@link #store()}, {@link #clock()}, {@link #expire(InvocationKey)}, {@link #passLease(InvocationKey)} and {@link
 * #maxRecordBytes()}.
 */
public interface AgentNeverSeesRawDataContract extends StoreFixture {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.toolboundary.tck.boundary.LeakCases#errorPaths")
    default void agentSeesOnlyTheSafeCodeOnEveryErrorPath(LeakCases.Case path) {
        LeakWorld world = new LeakWorld(this);
        RecordingListener listener = new RecordingListener();

        Either<BoundaryError, AgentResult> result = path.call().apply(world).apply(listener);

        assertThat(result.isLeft()).as("failed").isTrue();
        BoundaryError error = result.getLeft();
        assertThat(error.code()).isEqualTo(path.expected());
        assertNothingForbiddenIn(world, error.toString(), error.message(), error.code().name());
        // The code's fixed message, naming at most the limit the call met, as configured.
        List<String> fixed = new ArrayList<>(List.of(path.expected().safeMessage()));
        path.limit().forEach(limit -> fixed.add(BoundaryError.overLimit(path.expected(), limit).message()));
        assertThat(error.message()).isIn(fixed);
        listener.errors.forEach(seen -> assertNothingForbiddenIn(world, seen.toString()));
        Option<CanonicalRecord> record = store().find(world.key(), TIMEOUT).getOrElseThrow(e -> new AssertionError("find: " + e));
        assertThat(ErrorRecords.agrees(error.code(), record))
                .as("the record after %s is one of %s, was %s", error.code(), ErrorRecords.allowed(error.code()), record)
                .isTrue();
    }

    @Test
    default void errorPathsCoverEveryErrorCode() {
        Set<ErrorCode> covered = LeakCases.errorPaths().map(LeakCases.Case::expected).collect(Collectors.toCollection(
                () -> EnumSet.noneOf(ErrorCode.class)));

        assertThat(covered).isEqualTo(EnumSet.allOf(ErrorCode.class));
    }

    @Test
    default void agentSeesOnlyWhatACorrectProjectorChose() {
        LeakWorld world = new LeakWorld(this);
        world.projector = (request, raw) -> raw.contains("ERROR")
                ? Projection.evidenceFound(SAFE_CONTENT, SAFE_SCOPE)
                : Projection.noEvidence("nothing", SAFE_SCOPE);

        Either<BoundaryError, AgentResult> result = world.invoke(new RecordingListener());

        assertThat(result.get()).isEqualTo(new AgentResult(SAFE_CONTENT, EvidenceStatus.EVIDENCE_FOUND,
                Option.of(SAFE_SCOPE)));
        assertNothingForbiddenIn(world, result.get().content(), result.get().scope().get(), result.get().toString());
    }

    @Test
    default void agentSeesNothingOfANegativeObservationButItsScope() {
        LeakWorld world = new LeakWorld(this);
        world.projector = FakeProjectors.noEvidence("no matching lines", SAFE_SCOPE);

        AgentResult result = world.invoke(new RecordingListener()).get();

        assertNothingForbiddenIn(world, result.content(), result.scope().get(), result.toString());
    }

    @Test
    default void listenerGetsTheExceptionTypeNeverItsMessage() {
        RecordingListener listener = new RecordingListener();
        LeakWorld world = new LeakWorld(this);
        world.executor = FakeTools.throwing(EXCEPTION_TEXT);
        world.invoke(listener);
        LeakWorld projecting = new LeakWorld(this);
        projecting.projector = FakeProjectors.throwing(EXCEPTION_TEXT);
        projecting.invoke(listener);

        assertThat(listener.failures).containsExactly(IllegalStateException.class, IllegalStateException.class);
        List<Class<?>> parameterTypes = Arrays.stream(BoundaryListener.class.getMethods())
                .map(Method::getParameterTypes).flatMap(Arrays::stream).collect(Collectors.toList());
        assertThat(parameterTypes).noneMatch(Throwable.class::isAssignableFrom).doesNotContain(String.class);
    }

    private static void assertNothingForbiddenIn(LeakWorld world, String... agentVisible) {
        List<String> forbidden = new ArrayList<>(LeakWorld.FORBIDDEN);
        forbidden.add(world.runId);
        forbidden.add(world.runId + "/" + TOOL_CALL_ID);
        for (String text : agentVisible) {
            for (String word : forbidden) {
                assertThat(text).as("agent-visible text").doesNotContain(word);
            }
        }
    }
}
