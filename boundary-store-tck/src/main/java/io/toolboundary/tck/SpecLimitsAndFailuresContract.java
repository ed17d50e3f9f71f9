package io.toolboundary.tck;

import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.CountingProjector;
import static org.assertj.core.api.Assertions.assertThat;
import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The requirements suite's groups on limits and failures; run through {@link ToolBoundarySpecContract}.
 */
public abstract class SpecLimitsAndFailuresContract extends SpecLifecycleContract {
    /** For the requirements suite only. */
    SpecLimitsAndFailuresContract() {
    }

    @Nested
    @DisplayName("TTL and size limits SHALL fail closed")
    class TtlAndSizeLimits {

        @Test
        @DisplayName("Read does not renew TTL")
        void readsNeverExtendTheRecordsLife() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundary();
            boundary.invoke(run, envelope);
            InvocationKey key = keyOf(envelope);
            clock.advance(Duration.ofHours(1));
            assertTtlLeft(key, TTL.minusHours(1));
            Duration before = ttlOnceStoreTimeMoved(key);

            for (int i = 0; i < 3; i++) {
                boundary.records().find(run.runId(), key.toolCallId());
                boundary.records().referencability(run.runId(), key.toolCallId());
                store().find(key);
            }

            assertThat(remainingTtl(key)).as("still live").isNotEmpty();
            assertThat(remainingTtl(key).get()).as("not renewed").isLessThanOrEqualTo(before);
            if (storeExpiresOnTheSuiteClock()) {
                assertThat(remainingTtl(key)).containsExactly(before);
                clock.advance(before.minusMillis(1));
                assertThat(find(boundary, envelope)).isNotEmpty();
                clock.advance(Duration.ofMillis(1));
                assertThat(find(boundary, envelope)).as("expired at the original expiry").isEmpty();
            }
        }

        @Test
        void setsTheTtlAtCreationAndKeepsOnlyTheRemainderOnCompletion() {
            ToolCallEnvelope envelope = envelope();
            AtomicReference<Duration> ttlBeforeCompletion = new AtomicReference<>();
            ToolBoundary boundary = boundaryWith(logSearch(request -> {
                assertTtlLeft(request.key(), TTL);
                clock.advance(Duration.ofMinutes(10));
                ttlBeforeCompletion.set(ttlOnceStoreTimeMoved(request.key()));
                return RAW;
            }, projector));

            assertThat(boundary.invoke(run, envelope).isRight()).isTrue();

            assertTtlLeft(keyOf(envelope), TTL.minusMinutes(10));
            assertThat(remainingTtl(keyOf(envelope)).get()).as("not renewed at completion")
                    .isLessThanOrEqualTo(ttlBeforeCompletion.get());
        }

        @Test
        void neverRecreatesARecordThatExpiredWhileTheToolRan() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundaryWith(logSearch(request -> {
                expire(request.key());
                return RAW;
            }, projector));

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

            assertThat(codeOf(result)).isEqualTo(ErrorCode.RECORD_EXPIRED);
            assertThat(find(boundary, envelope)).isEmpty();
            assertThat(remainingTtl(keyOf(envelope))).isEmpty();
        }

        @Nested
        @DisplayName("Raw response is too large")
        class RawResponseTooLarge {

            private static final int RAW_LIMIT = 1024;

            private final ToolBoundaryConfig config = ToolBoundaryConfig.custom().rawResponseLimitBytes(RAW_LIMIT).build();

            @Test
            void endsInResultTooLargeWithoutTruncatingOrProjecting() {
                CountingProjector neverCalled = FakeProjectors.counting(projector);
                ToolCallEnvelope envelope = envelope();
                ToolBoundary boundary = boundaryWith(config,
                        logSearch(FakeTools.returningBytes(RAW_LIMIT + 1), neverCalled));

                Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

                assertThat(codeOf(result)).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
                CanonicalRecord record = recordOf(boundary, envelope);
                assertFailed(record, ErrorCode.RESULT_TOO_LARGE);
                assertThat(record.rawResponse()).as("no truncated raw").isEmpty();
                assertThat(neverCalled.projections()).as("projections").isZero();
            }

            @Test
            void acceptsARawResponseOfExactlyTheLimit() {
                ToolCallEnvelope envelope = envelope();
                ToolBoundary boundary = boundaryWith(config,
                        logSearch(FakeTools.returningBytes(RAW_LIMIT), projector));

                assertThat(boundary.invoke(run, envelope).isRight()).isTrue();
                assertThat(recordOf(boundary, envelope).rawResponse().get()).isEqualTo(Fixtures.textOfUtf8Bytes(RAW_LIMIT));
            }

            @Test
            void endsInResultTooLargeWhenTheRawWouldNotFitTheRecord() {
                ToolBoundaryConfig tight = ToolBoundaryConfig.custom()
                        .argumentsLimitBytes(256).rawResponseLimitBytes(2048).recordLimitBytes(2048).build();
                ToolCallEnvelope envelope = envelope();
                ToolBoundary boundary = boundaryWith(tight, logSearch(FakeTools.returningBytes(2040), projector));

                Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

                assertThat(codeOf(result)).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
                assertFailed(recordOf(boundary, envelope), ErrorCode.RESULT_TOO_LARGE);
                assertThat(recordOf(boundary, envelope).rawResponse()).isEmpty();
                assertThat(projector.projections()).isZero();
            }
        }

        @Nested
        @DisplayName("Agent result is too large")
        class AgentResultTooLarge {

            @Test
            void endsInResultTooLargeAndReturnsNothingOfTheResult() {
                ToolCallEnvelope envelope = envelope();
                int limit = (int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES;
                ToolBoundary boundary = boundaryWith(logSearch(executor, FakeProjectors.returningBytes(limit + 1)));

                Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

                assertThat(codeOf(result)).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
                CanonicalRecord record = recordOf(boundary, envelope);
                assertFailed(record, ErrorCode.RESULT_TOO_LARGE);
                assertThat(record.rawResponse()).containsExactly(RAW);
            }

            @Test
            void countsContentAndScopeTogether() {
                ToolBoundary boundary = boundaryWith(ToolBoundaryConfig.custom().agentResultLimitBytes(10).build(),
                        logSearch(executor, FakeProjectors.noEvidence("123456", "abcde")));

                assertThat(codeOf(boundary.invoke(run, envelope()))).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
            }

            @Test
            void boundsAProjectorThatEchoesTheRawResponse() {
                ToolCallEnvelope envelope = envelope();
                String raw = Fixtures.textOfUtf8Bytes((int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES + 1);
                ToolBoundary boundary = boundaryWith(logSearch(FakeTools.returning(raw), FakeProjectors.echoingRaw()));

                Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

                assertThat(codeOf(result)).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
                assertThat(recordOf(boundary, envelope).rawResponse()).containsExactly(raw);
            }

            @Test
            void acceptsAResultOfExactlyTheLimit() {
                int limit = (int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES;
                ToolBoundary boundary = boundaryWith(logSearch(executor, FakeProjectors.returningBytes(limit)));

                assertThat(boundary.invoke(run, envelope()).get().byteSize()).isEqualTo(limit);
            }
        }
    }

    @Nested
    @DisplayName("Tool and store failures SHALL return safe errors")
    class SafeErrors {

        @Test
        @DisplayName("Tool execution throws")
        void endsInExecutionFailedAndReturnsNoRawResponse() {
            ToolCallEnvelope envelope = envelope();
            CountingProjector notCalled = FakeProjectors.counting(projector);
            ToolBoundary boundary = boundaryWith(logSearch(FakeTools.throwing("connection reset: " + RAW), notCalled));

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

            assertThat(codeOf(result)).isEqualTo(ErrorCode.EXECUTION_FAILED);
            assertThat(result.getLeft().toString()).doesNotContain(RAW).doesNotContain("connection reset");
            CanonicalRecord record = recordOf(boundary, envelope);
            assertFailed(record, ErrorCode.EXECUTION_FAILED);
            assertThat(record.rawResponse()).isEmpty();
            assertThat(notCalled.projections()).isZero();
        }

        @Test
        void endsInExecutionFailedWhenTheToolAnswersNothing() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundaryWith(logSearch(request -> null, projector));

            assertThat(codeOf(boundary.invoke(run, envelope))).isEqualTo(ErrorCode.EXECUTION_FAILED);
            assertFailed(recordOf(boundary, envelope), ErrorCode.EXECUTION_FAILED);
        }

        @Test
        void endsInTextNotUnicodeWhenTheRawResponseHasALoneSurrogate() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundaryWith(logSearch(FakeTools.returning("bad \ud800 raw"), projector));

            assertThat(codeOf(boundary.invoke(run, envelope))).isEqualTo(ErrorCode.TEXT_NOT_UNICODE);
            assertFailed(recordOf(boundary, envelope), ErrorCode.TEXT_NOT_UNICODE);
            assertThat(recordOf(boundary, envelope).rawResponse()).isEmpty();
            assertThat(projector.projections()).isZero();
        }

        @Test
        void keepsTheRawResponseForTheHarnessWhenProjectionFails() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundaryWith(logSearch(executor, FakeProjectors.throwing("bad format")));

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

            assertThat(codeOf(result)).isEqualTo(ErrorCode.PROJECTION_FAILED);
            assertThat(result.getLeft().toString()).doesNotContain(RAW);
            assertThat(recordOf(boundary, envelope).rawResponse()).containsExactly(RAW);
        }

        @ParameterizedTest
        @ValueSource(strings = {"STORE_UNAVAILABLE", "STORE_OUTCOME_UNKNOWN", "STORE_FULL", "STORE_DATA_INVALID"})
        void runsNothingWhenTheStoreRefusesToBegin(ErrorCode code) {
            ToolBoundary boundary = builderOn(FaultyStores.refusingBegin(store(), code),
                    ToolBoundaryConfig.ofDefaults(), logSearch(executor, projector)).build();
            ToolCallEnvelope envelope = envelope();

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

            assertThat(codeOf(result)).isEqualTo(code);
            assertThat(executor.executions()).isZero();
            assertThat(find(boundary, envelope)).isEmpty();
        }

        @Test
        void answersOutcomeUnknownAndHandsTheRecordOverWhenTheCompletionFails() {
            List<InvocationKey> unfinished = new java.util.concurrent.CopyOnWriteArrayList<>();
            List<AttemptToken> tokens = new java.util.concurrent.CopyOnWriteArrayList<>();
            BoundaryListener harness = new BoundaryListener() {
                @Override
                public void onUnfinished(InvocationKey key, AttemptToken token) {
                    unfinished.add(key);
                    tokens.add(token);
                }
            };
            ToolBoundary boundary = builderOn(FaultyStores.refusingComplete(store(), ErrorCode.STORE_UNAVAILABLE),
                    ToolBoundaryConfig.ofDefaults(), logSearch(executor, projector)).listener(harness).build();

            ToolCallEnvelope call = envelope();
            Either<BoundaryError, AgentResult> result = boundary.invoke(run, call);

            // The tool ran, so "unavailable" (nothing happened) would not be true.
            assertThat(codeOf(result)).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(unfinished).singleElement().isEqualTo(keyOf(call));
            ToolBoundary healed = builderOn(store(), ToolBoundaryConfig.ofDefaults(), logSearch(executor, projector)).build();
            assertThat(healed.endUnfinished(unfinished.get(0), tokens.get(0)).map(CanonicalRecord::errorCode))
                    .isEqualTo(Either.right(Option.some(ErrorCode.STORE_OUTCOME_UNKNOWN)));
            assertThat(codeOf(healed.invoke(run, call))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(executor.executions()).isEqualTo(1);
        }

        @Test
        void closesWithInternalErrorWhenTheStoreCrashes() {
            ToolBoundary boundary = builderOn(
                    FaultyStores.crashingOnBegin(store(), "pool exhausted at redis://10.0.0.1"),
                    ToolBoundaryConfig.ofDefaults(), logSearch(executor, projector)).build();

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope());

            assertThat(codeOf(result)).isEqualTo(ErrorCode.INTERNAL_ERROR);
            assertThat(result.getLeft().toString()).doesNotContain("redis");
            assertThat(executor.executions()).isZero();
        }
    }
}
