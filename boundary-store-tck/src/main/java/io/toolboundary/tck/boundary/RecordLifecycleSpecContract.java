package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.SpecState.assertFailed;
import static io.toolboundary.tck.boundary.SpecState.codeOf;
import static io.toolboundary.tck.boundary.SpecState.logSearch;
import static io.toolboundary.tck.boundary.SpecValues.RAW;
import static io.toolboundary.tck.boundary.SpecValues.RESULT;
import static io.toolboundary.tck.boundary.SpecValues.START;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.tck.boundary.SpecState.Call;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.CountingProjector;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Requirements "Canonical invocation SHALL keep complete data in one record" and "Invocation lifecycle and evidence
 * semantics SHALL be enforced centrally".
 */
public interface RecordLifecycleSpecContract extends StoreFixture {

    /** This test's state; the test class holds a new {@link SpecState} in a field. */
    SpecState specState();

    private SpecState spec() {
        return specState().on(this);
    }

    // Requirement: Canonical invocation SHALL keep complete data in one record

    @Test
    @DisplayName("Tool begins execution")
    default void createsProjectingRecordBeforeTheToolRuns() {
        String arguments = "{ \"query\" : \"timeout\",\n  \"limit\": 5.0 }";
        ToolCallEnvelope envelope = spec().envelopeBuilder().withToolCallId("call_AbC-1.2:3").withArguments(arguments)
                .build();
        AtomicReference<Option<CanonicalRecord>> seenByTool = new AtomicReference<>();
        ToolBoundary boundary = spec().boundaryWith(logSearch(request -> {
            seenByTool.set(store().find(request.key(), TIMEOUT).get());
            return RAW;
        }, spec().projector));

        boundary.invoke(spec().run, envelope);

        CanonicalRecord during = seenByTool.get().getOrElseThrow(() -> new AssertionError("no record while running"));
        assertThat(during.status()).isEqualTo(InvocationStatus.PROJECTING);
        assertThat(during.arguments()).isEqualTo(arguments);
        assertThat(during.key().toolCallId().value()).isEqualTo("call_AbC-1.2:3");
        assertThat(during.key().runId()).isEqualTo(spec().run.runId());
        assertThat(during.tool().value()).isEqualTo("log-search");
        assertThat(during.createdAt()).isEqualTo(START);
        assertThat(during.agentResult()).isEmpty();
        assertThat(during.rawResponse()).isEmpty();
        assertThat(during.evidence()).isEmpty();
        assertThat(during.errorCode()).isEmpty();
        assertThat(during.referencability()).isEqualTo(Referencability.NOT_REFERENCABLE);
    }

    @Test
    @DisplayName("Projector succeeds")
    default void completesTheSameRecordReadyAndReturnsOnlyTheBoundedResult() {
        Call call = spec().call(spec().boundary());

        assertThat(call.result().isRight()).isTrue();
        AgentResult result = call.result().get();
        assertThat(result).isEqualTo(new AgentResult(RESULT, EvidenceStatus.EVIDENCE_FOUND, Option.none()));
        assertThat(result.content()).doesNotContain(RAW);
        CanonicalRecord record = call.record();
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.rawResponse()).containsExactly(RAW);
        assertThat(record.agentResult()).containsExactly(result);
        assertThat(record.arguments()).isEqualTo(call.envelope().arguments());
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(spec().projector.projections()).isEqualTo(1);
    }

    @Test
    default void keepsEveryFieldOfTheInvocationInOneRecord() {
        Call call = spec().callRunning(request -> {
            clock().advance(Duration.ofSeconds(5));
            return RAW;
        });

        CanonicalRecord record = call.record();
        assertThat(record.key()).isEqualTo(call.key());
        assertThat(record.tool().value()).isEqualTo("log-search");
        assertThat(record.arguments()).isEqualTo(call.envelope().arguments());
        assertThat(record.rawResponse()).containsExactly(RAW);
        assertThat(record.agentResult().map(AgentResult::content)).containsExactly(RESULT);
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.evidence()).containsExactly(EvidenceStatus.EVIDENCE_FOUND);
        assertThat(record.errorCode()).isEmpty();
        assertThat(record.createdAt()).isEqualTo(START);
        assertThat(record.updatedAt()).isEqualTo(START.plusSeconds(5));
    }

    @Test
    default void keepsTheCompleteRawResponseNeverAPreview() {
        String raw = Fixtures.textOfUtf8Bytes(500_000);

        Call call = spec().callRunning(FakeTools.returning(raw));

        assertThat(call.result().get().content()).isEqualTo(RESULT);
        assertThat(call.record().rawResponse().get()).isEqualTo(raw);
    }

    @Test
    default void keepsTheErrorCodeInTheRecordOfAFailedCall() {
        Call call = spec().callRunning(FakeTools.throwing("down"));

        CanonicalRecord record = call.record();
        assertFailed(record, ErrorCode.EXECUTION_FAILED);
        assertThat(record.arguments()).isEqualTo(call.envelope().arguments());
    }

    // Requirement: Invocation lifecycle and evidence semantics SHALL be enforced centrally

    @Test
    @DisplayName("No evidence projection completes")
    default void completesNoEvidenceAsScopedNegativeObservation() {
        String scope = "service checkout, logs 10:00-10:15 UTC";

        Call call = spec().callProjectedBy(FakeProjectors.noEvidence("no timeouts", scope));

        assertThat(call.result().get().evidence()).isEqualTo(EvidenceStatus.NO_EVIDENCE);
        assertThat(call.result().get().scope()).containsExactly(scope);
        CanonicalRecord record = call.record();
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.evidence()).containsExactly(EvidenceStatus.NO_EVIDENCE);
        assertThat(record.agentResult().flatMap(AgentResult::scope)).containsExactly(scope);
        assertThat(record.referencability()).isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
        assertThat(call.referencability()).isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
    }

    @Test
    default void neverRunsAReplayedCallAgainAfterItsRecordExpired() {
        Call call = spec().call(spec().boundary());
        expire(call.key());

        Either<BoundaryError, AgentResult> replay = call.again();

        assertThat(codeOf(replay)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(call.found()).isEmpty();
    }

    @Test
    default void neverRetriesOrUpgradesNoEvidence() {
        CountingProjector nothing = FakeProjectors.counting(FakeProjectors.noEvidence("no timeouts", "checkout logs"));
        Call call = spec().callProjectedBy(nothing);
        CanonicalRecord first = call.record();

        Either<BoundaryError, AgentResult> again = call.again();

        assertThat(codeOf(again)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(nothing.projections()).isEqualTo(1);
        assertThat(call.record()).isEqualTo(first);
        assertThat(first.evidence()).containsExactly(EvidenceStatus.NO_EVIDENCE);
    }

    @Test
    default void labelsEvidenceFoundAsCitable() {
        Call call = spec().call(spec().boundary());

        assertThat(call.referencability()).isEqualTo(Referencability.CITABLE_EVIDENCE);
    }

    // Scenario: Projection fails

    private void assertProjectionEndedInError(Projector broken, ErrorCode code) {
        Call call = spec().callProjectedBy(broken);

        assertThat(call.assertFailedWith(code).rawResponse()).as("raw kept for the harness").containsExactly(RAW);
        assertThat(call.referencability()).isEqualTo(Referencability.NOT_REFERENCABLE);
    }

    @Test
    default void endsInProjectionFailedWhenTheProjectorThrows() {
        assertProjectionEndedInError(FakeProjectors.throwing("parser broke"), ErrorCode.PROJECTION_FAILED);
    }

    @Test
    default void endsInProjectionInvalidForAnErrorEvidenceStatus() {
        assertProjectionEndedInError(FakeProjectors.invalidEvidenceStatus(), ErrorCode.PROJECTION_INVALID);
    }

    @Test
    default void endsInProjectionInvalidForNoEvidenceWithoutScope() {
        assertProjectionEndedInError(FakeProjectors.noEvidenceWithBlankScope(), ErrorCode.PROJECTION_INVALID);
    }

    @Test
    default void endsInProjectionInvalidWhenTheProjectorReturnsNull() {
        assertProjectionEndedInError(FakeProjectors.returningNull(), ErrorCode.PROJECTION_INVALID);
    }

    @Test
    default void endsInTextNotUnicodeForALoneSurrogate() {
        assertProjectionEndedInError(FakeProjectors.evidenceFound("broken \udc00"), ErrorCode.TEXT_NOT_UNICODE);
    }

    @Test
    default void refusesToMoveAReadyRecordAgain() {
        AtomicReference<AttemptToken> token = new AtomicReference<>();
        Call call = spec().call(spec().builderOn(SpecState.recordingTokens(store(), token)).build());
        CanonicalRecord ready = call.record();
        CanonicalRecord.Final overwrite = ((CanonicalRecord.Final) ready).begun()
                .failed(ErrorCode.EXECUTION_FAILED, Option.none(), START.plusSeconds(1));

        Either<StoreFailure, CanonicalRecord.Final> refused = complete(overwrite, token.get());

        assertThat(refused.getLeft()).isEqualTo(StoreFailure.refused(Refusal.CONFLICT));
        assertThat(call.record()).isEqualTo(ready);
    }

    @Test
    default void refusesToMoveAnErrorRecordToReady() {
        AtomicReference<AttemptToken> token = new AtomicReference<>();
        Call call = spec().call(spec().builderOn(SpecState.recordingTokens(store(), token),
                ToolBoundaryConfig.ofDefaults(), logSearch(FakeTools.throwing("down"), spec().projector)).build());
        CanonicalRecord failed = call.record();
        CanonicalRecord.Final upgrade = ((CanonicalRecord.Final) failed).begun().ready(RAW,
                new AgentResult(RESULT, EvidenceStatus.EVIDENCE_FOUND, Option.none()), START.plusSeconds(1));

        Either<StoreFailure, CanonicalRecord.Final> refused = complete(upgrade, token.get());

        assertThat(refused.getLeft()).isEqualTo(StoreFailure.refused(Refusal.CONFLICT));
        assertThat(call.record()).isEqualTo(failed);
    }
}
