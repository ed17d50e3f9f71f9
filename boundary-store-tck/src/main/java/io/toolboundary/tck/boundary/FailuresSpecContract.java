package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.SpecState.assertFailed;
import static io.toolboundary.tck.boundary.SpecState.codeOf;
import static io.toolboundary.tck.boundary.SpecState.logSearch;
import static io.toolboundary.tck.boundary.SpecValues.RAW;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.StoreFailure;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.store.FaultyStores;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.CountingProjector;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requirements "Tool and store failures SHALL return safe errors" and "A tool that reports a failure with output SHALL
 * end EXECUTION_FAILED, its output kept for the harness". A test class runs it by implementing it with {@link
 * #specState()}; the hooks it calls are in docs/store-tck.md.
 */
public interface FailuresSpecContract extends StoreFixture {

    /** This test's state; the test class holds a new {@link SpecState} in a field. */
    SpecState specState();

    private SpecState spec() {
        return specState().on(this);
    }

    // Requirement: Tool and store failures SHALL return safe errors

    @Test
    @DisplayName("Tool execution throws")
    default void endsInExecutionFailedAndReturnsNoRawResponse() {
        ToolCallEnvelope envelope = spec().envelope();
        CountingProjector notCalled = FakeProjectors.counting(spec().projector());
        ToolBoundary boundary =
                spec().boundaryWith(logSearch(FakeTools.throwing("connection reset: " + RAW), notCalled));

        Either<BoundaryError, AgentResult> result = boundary.invoke(spec().run(), envelope);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.EXECUTION_FAILED);
        assertThat(result.getLeft().toString()).doesNotContain(RAW).doesNotContain("connection reset");
        CanonicalRecord record = spec().recordOf(boundary, envelope);
        assertFailed(record, ErrorCode.EXECUTION_FAILED);
        assertThat(record.rawResponse()).isEmpty();
        assertThat(notCalled.projections()).isZero();
    }

    @Test
    default void endsInExecutionFailedWhenTheToolAnswersNothing() {
        ToolCallEnvelope envelope = spec().envelope();
        ToolBoundary boundary = spec().boundaryWith(logSearch(request -> null, spec().projector()));

        assertThat(codeOf(boundary.invoke(spec().run(), envelope))).isEqualTo(ErrorCode.EXECUTION_FAILED);
        assertFailed(spec().recordOf(boundary, envelope), ErrorCode.EXECUTION_FAILED);
    }

    @Test
    default void endsInTextNotUnicodeWhenTheRawResponseHasALoneSurrogate() {
        ToolCallEnvelope envelope = spec().envelope();
        ToolBoundary boundary =
                spec().boundaryWith(logSearch(FakeTools.returning("bad \ud800 raw"), spec().projector()));

        assertThat(codeOf(boundary.invoke(spec().run(), envelope))).isEqualTo(ErrorCode.TEXT_NOT_UNICODE);
        assertFailed(spec().recordOf(boundary, envelope), ErrorCode.TEXT_NOT_UNICODE);
        assertThat(spec().recordOf(boundary, envelope).rawResponse()).isEmpty();
        assertThat(spec().projector().projections()).isZero();
    }

    @Test
    default void keepsTheRawResponseForTheHarnessWhenProjectionFails() {
        ToolCallEnvelope envelope = spec().envelope();
        ToolBoundary boundary =
                spec().boundaryWith(logSearch(spec().executor(), FakeProjectors.throwing("bad format")));

        Either<BoundaryError, AgentResult> result = boundary.invoke(spec().run(), envelope);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.PROJECTION_FAILED);
        assertThat(result.getLeft().toString()).doesNotContain(RAW);
        assertThat(spec().recordOf(boundary, envelope).rawResponse()).containsExactly(RAW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"STORE_UNAVAILABLE", "STORE_OUTCOME_UNKNOWN", "STORE_FULL", "STORE_DATA_INVALID"})
    default void runsNothingWhenTheStoreRefusesToBegin(ErrorCode code) {
        StoreFailure failure = java.util.Map.of(ErrorCode.STORE_UNAVAILABLE, StoreFailure.unavailable(),
                ErrorCode.STORE_OUTCOME_UNKNOWN, StoreFailure.outcomeUnknown(),
                ErrorCode.STORE_FULL, StoreFailure.full(),
                ErrorCode.STORE_DATA_INVALID, StoreFailure.dataInvalid()).get(code);
        ToolBoundary boundary = spec().builderOn(FaultyStores.refusingBegin(store(), failure)).build();
        ToolCallEnvelope envelope = spec().envelope();

        Either<BoundaryError, AgentResult> result = boundary.invoke(spec().run(), envelope);

        assertThat(codeOf(result)).isEqualTo(code);
        assertThat(spec().executor().executions()).isZero();
        assertThat(spec().find(boundary, envelope)).isEmpty();
    }

    @Test
    default void answersOutcomeUnknownAndHandsTheRecordOverWhenTheCompletionFails() {
        List<InvocationKey> unfinished = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<AttemptToken> tokens = new java.util.concurrent.CopyOnWriteArrayList<>();
        BoundaryListener harness = new BoundaryListener() {
            @Override
            public void onUnfinished(InvocationKey key, AttemptToken token) {
                unfinished.add(key);
                tokens.add(token);
            }
        };
        ToolBoundary boundary = spec().builderOn(FaultyStores.refusingComplete(store(), StoreFailure.unavailable()))
                .listener(harness).build();

        ToolCallEnvelope call = spec().envelope();
        Either<BoundaryError, AgentResult> result = boundary.invoke(spec().run(), call);

        // The tool ran, so "unavailable" (nothing happened) would not be true.
        assertThat(codeOf(result)).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
        assertThat(spec().executor().executions()).isEqualTo(1);
        assertThat(unfinished).singleElement().isEqualTo(spec().keyOf(call));
        ToolBoundary healed = spec().builderOn(store()).build();
        assertThat(healed.endUnfinished(unfinished.get(0), tokens.get(0)).map(CanonicalRecord::errorCode))
                .isEqualTo(Either.right(Option.some(ErrorCode.STORE_OUTCOME_UNKNOWN)));
        assertThat(codeOf(healed.invoke(spec().run(), call))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(spec().executor().executions()).isEqualTo(1);
    }

    @Test
    default void closesWithInternalErrorWhenTheStoreCrashes() {
        ToolBoundary boundary = spec().builderOn(
                FaultyStores.crashingOnBegin(store(), "pool exhausted at redis://10.0.0.1"),
                ToolBoundaryConfig.ofDefaults(), spec().logSearch()).build();

        Either<BoundaryError, AgentResult> result = boundary.invoke(spec().run(), spec().envelope());

        assertThat(codeOf(result)).isEqualTo(ErrorCode.INTERNAL_ERROR);
        assertThat(result.getLeft().toString()).doesNotContain("redis");
        assertThat(spec().executor().executions()).isZero();
    }

    // Requirement: A tool that reports a failure with output SHALL end EXECUTION_FAILED, its output kept for the harness

    @Test
    default void keepsTheOutputOfAReportedFailureAsTheRawResponse() {
        String output = "ERROR connect db-1 password=hunter2\nretry later";
        ToolBoundary boundary = spec().boundaryWith(logSearch(request -> {
            throw new ToolFailure(output);
        }, spec().projector()));
        ToolCallEnvelope call = spec().envelope();

        Either<BoundaryError, AgentResult> answered = boundary.invoke(spec().run(), call);

        assertThat(codeOf(answered)).isEqualTo(ErrorCode.EXECUTION_FAILED);
        assertThat(answered.getLeft().toString()).doesNotContain("hunter2");
        CanonicalRecord record = spec().recordOf(boundary, call);
        assertFailed(record, ErrorCode.EXECUTION_FAILED);
        assertThat(record.rawResponse()).containsExactly(output);
        assertThat(spec().projector().projections()).isZero();
    }

    @Test
    default void keepsNoOutputOverTheRawResponseLimit() {
        ToolBoundary boundary = spec().boundaryWith(ToolBoundaryConfig.custom().rawResponseLimitBytes(16).build(),
                logSearch(request -> {
                    throw new ToolFailure("x".repeat(17));
                }, spec().projector()));
        ToolCallEnvelope call = spec().envelope();

        assertThat(codeOf(boundary.invoke(spec().run(), call))).isEqualTo(ErrorCode.EXECUTION_FAILED);
        CanonicalRecord record = spec().recordOf(boundary, call);
        assertFailed(record, ErrorCode.EXECUTION_FAILED);
        assertThat(record.rawResponse()).isEmpty();
    }
}
