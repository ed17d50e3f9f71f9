package io.toolboundary.tck;

import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.CountingProjector;
import static org.assertj.core.api.Assertions.assertThat;
import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.Outcome;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The requirements suite's groups on lifecycle, evidence and ownership of ids; run through {@link ToolBoundarySpecContract}.
 */
public abstract class SpecLifecycleContract extends SpecPreflightContract {
    /** For the requirements suite only. */
    SpecLifecycleContract() {
    }

    @Nested
    @DisplayName("Invocation lifecycle and evidence semantics SHALL be enforced centrally")
    class LifecycleAndEvidence {

        @Test
        @DisplayName("No evidence projection completes")
        void completesNoEvidenceAsScopedNegativeObservation() {
            ToolCallEnvelope envelope = envelope();
            String scope = "service checkout, logs 10:00-10:15 UTC";
            ToolBoundary boundary = boundaryWith(logSearch(executor, FakeProjectors.noEvidence("no timeouts", scope)));

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

            assertThat(result.get().evidence()).isEqualTo(EvidenceStatus.NO_EVIDENCE);
            assertThat(result.get().scope()).containsExactly(scope);
            CanonicalRecord record = recordOf(boundary, envelope);
            assertThat(record.status()).isEqualTo(InvocationStatus.READY);
            assertThat(record.evidence()).containsExactly(EvidenceStatus.NO_EVIDENCE);
            assertThat(record.agentResult().flatMap(AgentResult::scope)).containsExactly(scope);
            assertThat(record.referencability()).isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
            assertThat(boundary.records().referencability(run.runId(), record.key().toolCallId()).get())
                    .isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
        }

        @Test
        void neverRunsAReplayedCallAgainAfterItsRecordExpired() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundary();
            boundary.invoke(run, envelope);
            expire(keyOf(envelope));

            Either<BoundaryError, AgentResult> replay = boundary.invoke(run, envelope);

            assertThat(codeOf(replay)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(find(boundary, envelope)).isEmpty();
        }

        @Test
        void neverRetriesOrUpgradesNoEvidence() {
            ToolCallEnvelope envelope = envelope();
            CountingProjector nothing = FakeProjectors.counting(FakeProjectors.noEvidence("no timeouts", "checkout logs"));
            ToolBoundary boundary = boundaryWith(logSearch(executor, nothing));
            boundary.invoke(run, envelope);
            CanonicalRecord first = recordOf(boundary, envelope);

            Either<BoundaryError, AgentResult> again = boundary.invoke(run, envelope);

            assertThat(codeOf(again)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(nothing.projections()).isEqualTo(1);
            assertThat(recordOf(boundary, envelope)).isEqualTo(first);
            assertThat(first.evidence()).containsExactly(EvidenceStatus.NO_EVIDENCE);
        }

        @Test
        void labelsEvidenceFoundAsCitable() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundary();

            boundary.invoke(run, envelope);

            assertThat(boundary.records().referencability(run.runId(), new ToolCallId(envelope.toolCallId())).get())
                    .isEqualTo(Referencability.CITABLE_EVIDENCE);
        }

        @Nested
        @DisplayName("Projection fails")
        class ProjectionFails {

            /** Made once the outer suite has opened {@code run}: a nested instance is built before that. */
            private ToolCallEnvelope envelope;

            @BeforeEach
            void makeTheEnvelope() {
                envelope = envelope();
            }

            private void assertProjectionEndedInError(Projector broken, ErrorCode code) {
                ToolBoundary boundary = boundaryWith(logSearch(executor, broken));

                Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

                assertThat(codeOf(result)).isEqualTo(code);
                CanonicalRecord record = recordOf(boundary, envelope);
                assertFailed(record, code);
                assertThat(record.rawResponse()).as("raw kept for the harness").containsExactly(RAW);
                assertThat(boundary.records().referencability(run.runId(), record.key().toolCallId()).get())
                        .isEqualTo(Referencability.NOT_REFERENCABLE);
            }

            @Test
            void endsInProjectionFailedWhenTheProjectorThrows() {
                assertProjectionEndedInError(FakeProjectors.throwing("parser broke"), ErrorCode.PROJECTION_FAILED);
            }

            @Test
            void endsInProjectionInvalidForAnErrorEvidenceStatus() {
                assertProjectionEndedInError(FakeProjectors.invalidEvidenceStatus(), ErrorCode.PROJECTION_INVALID);
            }

            @Test
            void endsInProjectionInvalidForNoEvidenceWithoutScope() {
                assertProjectionEndedInError(FakeProjectors.noEvidenceWithBlankScope(), ErrorCode.PROJECTION_INVALID);
            }

            @Test
            void endsInProjectionInvalidWhenTheProjectorReturnsNull() {
                assertProjectionEndedInError(FakeProjectors.returningNull(), ErrorCode.PROJECTION_INVALID);
            }

            @Test
            void endsInTextNotUnicodeForALoneSurrogate() {
                assertProjectionEndedInError(FakeProjectors.evidenceFound("broken \udc00"), ErrorCode.TEXT_NOT_UNICODE);
            }
        }

        @Test
        void refusesToMoveAReadyRecordAgain() {
            AttemptToken token = AttemptToken.random();
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(), logSearch(executor, projector))
                    .tokens(() -> token).build();
            boundary.invoke(run, envelope);
            CanonicalRecord ready = recordOf(boundary, envelope);
            CanonicalRecord.Failed overwrite = new CanonicalRecord.Failed(ready.key(), ready.tool(), ready.arguments(),
                    ready.requestFingerprint(), ready.createdAt(), START.plusSeconds(1), Option.none(),
                    ErrorCode.EXECUTION_FAILED);

            Either<BoundaryError, Outcome> refused = store().complete(overwrite.key(), token, overwrite.outcome());

            assertThat(refused.getLeft().code()).isEqualTo(ErrorCode.RECORD_CONFLICT);
            assertThat(recordOf(boundary, envelope)).isEqualTo(ready);
        }

        @Test
        void refusesToMoveAnErrorRecordToReady() {
            AttemptToken token = AttemptToken.random();
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(),
                    logSearch(FakeTools.throwing("down"), projector)).tokens(() -> token).build();
            boundary.invoke(run, envelope);
            CanonicalRecord failed = recordOf(boundary, envelope);
            CanonicalRecord.Ready upgrade = new CanonicalRecord.Ready(failed.key(), failed.tool(), failed.arguments(),
                    failed.requestFingerprint(), failed.createdAt(), START.plusSeconds(1), RAW,
                    new AgentResult(RESULT, EvidenceStatus.EVIDENCE_FOUND, Option.none()));

            Either<BoundaryError, Outcome> refused = store().complete(upgrade.key(), token, upgrade.outcome());

            assertThat(refused.getLeft().code()).isEqualTo(ErrorCode.RECORD_CONFLICT);
            assertThat(recordOf(boundary, envelope)).isEqualTo(failed);
        }
    }

    @Nested
    @DisplayName("Tool Call ID and Run ownership SHALL be preserved")
    class ToolCallIdAndRunOwnership {

        @Nested
        @DisplayName("Duplicate Tool Call ID is submitted")
        class DuplicateToolCallId {

            @Test
            void refusesARepeatWithTheSameArgumentsWithoutRunningTheTool() {
                ToolCallEnvelope envelope = envelope();
                ToolBoundary boundary = boundary();
                boundary.invoke(run, envelope);
                CanonicalRecord first = recordOf(boundary, envelope);
                clock.advance(Duration.ofMinutes(1));

                Either<BoundaryError, AgentResult> second = boundary.invoke(run, envelope);

                assertThat(codeOf(second)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
                assertThat(executor.executions()).isEqualTo(1);
                assertThat(projector.projections()).isEqualTo(1);
                assertThat(recordOf(boundary, envelope)).isEqualTo(first);
            }

            @Test
            void readsArgumentsThatDifferOnlyInWhitespaceAsTheSame() {
                ToolBoundary boundary = boundary();
                ToolCallEnvelope compact = Fixtures.envelope(run).withArguments("{\"query\":\"timeout\"}").build();
                boundary.invoke(run, compact);

                Either<BoundaryError, AgentResult> spaced = boundary.invoke(run,
                        Fixtures.envelope(run).withToolCallId(compact.toolCallId())
                                .withArguments(" { \"query\" : \"timeout\" } ").build());

                assertThat(codeOf(spaced)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
                assertThat(executor.executions()).isEqualTo(1);
            }

            @Test
            void refusesAReuseWithOtherArgumentsWithoutRunningTheTool() {
                ToolCallEnvelope envelope = envelope();
                ToolBoundary boundary = boundary();
                boundary.invoke(run, envelope);
                CanonicalRecord first = recordOf(boundary, envelope);

                Either<BoundaryError, AgentResult> reused = boundary.invoke(run,
                        Fixtures.envelope(run).withToolCallId(envelope.toolCallId())
                                .withArguments("{\"query\":\"out of memory\"}").build());

                assertThat(codeOf(reused)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
                assertThat(executor.executions()).isEqualTo(1);
                assertThat(recordOf(boundary, envelope)).isEqualTo(first);
            }

            @Test
            void refusesARepeatWhileTheFirstCallIsStillRunning() {
                ToolCallEnvelope envelope = envelope();
                AtomicReference<ToolBoundary> self = new AtomicReference<>();
                AtomicReference<Either<BoundaryError, AgentResult>> nested = new AtomicReference<>();
                CountingExecutor reentrant = FakeTools.counting(request -> {
                    nested.set(self.get().invoke(run, envelope));
                    return RAW;
                });
                self.set(boundaryWith(logSearch(reentrant, projector)));

                Either<BoundaryError, AgentResult> first = self.get().invoke(run, envelope);

                assertThat(codeOf(nested.get())).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
                assertThat(reentrant.executions()).isEqualTo(1);
                assertThat(first.isRight()).isTrue();
                assertThat(recordOf(self.get(), envelope).status()).isEqualTo(InvocationStatus.READY);
            }

            @Test
            void refusesARepeatOfAFailedCall() {
                ToolCallEnvelope envelope = envelope();
                CountingExecutor failing = FakeTools.counting(FakeTools.throwing("down"));
                ToolBoundary boundary = boundaryWith(logSearch(failing, projector));
                boundary.invoke(run, envelope);

                Either<BoundaryError, AgentResult> retry = boundary.invoke(run, envelope);

                assertThat(codeOf(retry)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
                assertThat(failing.executions()).isEqualTo(1);
                assertFailed(recordOf(boundary, envelope), ErrorCode.EXECUTION_FAILED);
            }
        }

        @Test
        @DisplayName("Framework ID is preserved")
        void keepsTheExactFrameworkToolCallId() {
            String frameworkId = "call_AbC-1.2:3";
            ToolCallEnvelope envelope = Fixtures.envelope(run).withToolCallId(frameworkId).build();
            AtomicReference<InvocationKey> keySeenByTool = new AtomicReference<>();
            ToolBoundary boundary = boundaryWith(logSearch(request -> {
                keySeenByTool.set(request.key());
                return RAW;
            }, projector));

            boundary.invoke(run, envelope);

            assertThat(keySeenByTool.get()).isEqualTo(InvocationKey.of(run.runId(), new ToolCallId(frameworkId)));
            CanonicalRecord record = boundary.records().find(run.runId(), new ToolCallId(frameworkId)).get()
                    .getOrElseThrow(() -> new AssertionError("no record under the exact id"));
            assertThat(record.key().toolCallId().value()).isEqualTo(frameworkId);
            assertThat(record.key().runId()).isEqualTo(run.runId());
            assertThat(boundary.records().find(run.runId(), new ToolCallId("call_abc-1.2:3")).get()).isEmpty();
        }

        @Test
        void keysTheRecordByTheRunContextSoTwoRunsKeepTheirOwnRecords() {
            RunContext otherRun = openedRun();
            ToolBoundary boundary = boundary();

            Either<BoundaryError, AgentResult> inFirst = boundary.invoke(run,
                    Fixtures.envelope(run).withToolCallId("call_1").build());
            Either<BoundaryError, AgentResult> inSecond = boundary.invoke(otherRun,
                    Fixtures.envelope(otherRun).withToolCallId("call_1").build());

            assertThat(inFirst.isRight()).isTrue();
            assertThat(inSecond.isRight()).isTrue();
            assertThat(executor.executions()).isEqualTo(2);
            assertThat(boundary.records().find(run.runId(), new ToolCallId("call_1")).get()).isNotEmpty();
            assertThat(boundary.records().find(otherRun.runId(), new ToolCallId("call_1")).get()).isNotEmpty();
        }

        @Test
        void neverGeneratesAFallbackIdForAMissingOne() {
            ToolBoundary boundary = boundary();

            assertRefusedBeforeExecution(boundary, run, Fixtures.envelope(run).withToolCallId("").build(),
                    ErrorCode.TOOL_CALL_ID_MISSING);
        }
    }
}
