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
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What a harness reads through the boundary: {@link ToolBoundary#find} and {@link ToolBoundary#referencability}. */
class ToolBoundaryReadingTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    private static final RunId RUN = new RunId("run-1");
    private static final ToolCallId CALL = new ToolCallId("call-1");
    private static final InvocationKey KEY = InvocationKey.of(RUN, CALL);
    private static final CanonicalRecord.Projecting PROJECTING = new CanonicalRecord.Projecting(KEY,
            new ToolName("search"), "{\"q\":\"checkout\"}", "0123456789abcdef".repeat(4), NOW);
    private static final Duration TIMEOUT = Duration.ofMillis(750);

    /** A store holding records under their keys, or failing every read with {@code failure}. */
    private static final class ReadingStore implements CanonicalInvocationStore {
        final Map<InvocationKey, CanonicalRecord> records = new HashMap<>();
        final List<InvocationKey> keysRead = new ArrayList<>();
        final List<Duration> timeouts = new ArrayList<>();
        Option<StoreFailure> failure = Option.none();

        @Override
        public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
            keysRead.add(key);
            timeouts.add(timeout);
            return failure.isDefined() ? Either.left(failure.get()) : Either.right(Option.of(records.get(key)));
        }

        @Override
        public Either<StoreFailure, RunToken> openRun(RunOpening opening, Duration timeout) {
            throw new AssertionError("a read opens no run");
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
            throw new AssertionError("a read begins nothing");
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
                Duration timeout) {
            throw new AssertionError("a read completes nothing");
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
                Instant now, Duration timeout) {
            throw new AssertionError("a read ends nothing");
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
            throw new AssertionError("a read abandons nothing");
        }

        @Override
        public Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, Duration timeout) {
            throw new AssertionError("a read lists nothing");
        }
    }

    private final ReadingStore store = new ReadingStore();

    private ToolBoundary boundary() {
        return ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .config(ToolBoundaryConfig.custom().storeTimeout(TIMEOUT).build()).build();
    }

    static Stream<Arguments> records() {
        return Stream.of(
                Arguments.of(PROJECTING, Referencability.NOT_REFERENCABLE),
                Arguments.of(PROJECTING.ready("raw", new AgentResult("2 rows", EvidenceStatus.EVIDENCE_FOUND,
                        Option.none()), NOW.plusSeconds(1)), Referencability.CITABLE_EVIDENCE),
                Arguments.of(PROJECTING.ready("[]", new AgentResult("nothing", EvidenceStatus.NO_EVIDENCE,
                        Option.of("logs 10:00-10:15")), NOW.plusSeconds(1)), Referencability.SCOPED_NEGATIVE_OBSERVATION),
                Arguments.of(PROJECTING.failed(ErrorCode.EXECUTION_FAILED, Option.some("raw"), NOW.plusSeconds(1)),
                        Referencability.NOT_REFERENCABLE),
                Arguments.of(PROJECTING.failed(ErrorCode.EXECUTION_ABANDONED, Option.none(), NOW.plusSeconds(1)),
                        Referencability.NOT_REFERENCABLE));
    }

    @ParameterizedTest
    @MethodSource("records")
    void findsTheRecordUnderItsKeyAndSaysHowItMayBeCited(CanonicalRecord record, Referencability expected) {
        store.records.put(KEY, record);
        ToolBoundary boundary = boundary();

        assertThat(boundary.find(RUN, CALL)).isEqualTo(Either.right(Option.some(record)));
        assertThat(boundary.referencability(RUN, CALL)).isEqualTo(Either.right(expected));
        assertThat(store.keysRead).containsExactly(KEY, KEY);
        assertThat(store.timeouts).containsExactly(TIMEOUT, TIMEOUT);
    }

    @Test
    void findsNothingForAnotherCallAndSaysItMayNotBeCited() {
        store.records.put(KEY, PROJECTING.ready("raw", new AgentResult("2 rows", EvidenceStatus.EVIDENCE_FOUND,
                Option.none()), NOW));
        ToolBoundary boundary = boundary();
        ToolCallId other = new ToolCallId("call-2");

        assertThat(boundary.find(RUN, other)).isEqualTo(Either.right(Option.none()));
        assertThat(boundary.referencability(RUN, other)).isEqualTo(Either.right(Referencability.NOT_REFERENCABLE));
        assertThat(boundary.find(new RunId("run-2"), CALL)).isEqualTo(Either.right(Option.none()));
        assertThat(store.keysRead).containsExactly(InvocationKey.of(RUN, other), InvocationKey.of(RUN, other),
                InvocationKey.of(new RunId("run-2"), CALL));
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(StoreFailure.unavailable(), ErrorCode.STORE_UNAVAILABLE),
                Arguments.of(StoreFailure.outcomeUnknown(), ErrorCode.STORE_OUTCOME_UNKNOWN),
                Arguments.of(StoreFailure.dataInvalid(), ErrorCode.STORE_DATA_INVALID),
                Arguments.of(StoreFailure.refused(Refusal.EXPIRED), ErrorCode.RECORD_EXPIRED));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void answersAStoreFailureWithItsCode(StoreFailure failure, ErrorCode expected) {
        store.failure = Option.some(failure);
        ToolBoundary boundary = boundary();

        assertThat(boundary.find(RUN, CALL)).isEqualTo(Either.left(BoundaryError.of(expected)));
        assertThat(boundary.referencability(RUN, CALL)).isEqualTo(Either.left(BoundaryError.of(expected)));
    }
}
