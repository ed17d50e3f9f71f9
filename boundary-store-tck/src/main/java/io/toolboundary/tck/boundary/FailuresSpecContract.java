package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.SpecState.codeOf;
import static io.toolboundary.tck.boundary.SpecState.logSearch;
import static io.toolboundary.tck.boundary.SpecValues.RAW;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolFailure;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.boundary.SpecState.Call;
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
 * end EXECUTION_FAILED, its output kept for the harness".
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
        CountingProjector notCalled = FakeProjectors.counting(spec().projector);

        Call call = spec().call(logSearch(FakeTools.throwing("connection reset: " + RAW), notCalled));

        assertThat(call.assertFailedWith(ErrorCode.EXECUTION_FAILED).rawResponse()).isEmpty();
        assertThat(call.result().getLeft().toString()).doesNotContain(RAW).doesNotContain("connection reset");
        assertThat(notCalled.projections()).isZero();
    }

    @Test
    default void keepsWhyTheToolFailedForTheHarnessMaskedAndBoundedAndNeverShowsTheAgent() {
        String secret = "s3cr3t-Xy9q";
        String message = "connect to jdbc:mysql://app:" + secret + "@db:3306/orders failed; password=" + secret
                + " " + "\ud83d\ude00".repeat(400);

        Call call = spec().callRunning(FakeTools.throwing(new java.sql.SQLException(message)));

        CanonicalRecord record = call.assertFailedWith(ErrorCode.EXECUTION_FAILED);
        assertThat(record.failureType()).contains("java.sql.SQLException");
        String kept = record.failureMessage().get();
        assertThat(kept).startsWith("connect to jdbc:mysql://").doesNotContain(secret).contains("[masked]")
                .endsWith("\ud83d\ude00");
        // Cut to 512 UTF-8 bytes between characters: a 4-byte character is left out whole.
        assertThat(kept.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isBetween(509, 512);
        assertThat(ToolBoundary.agentText(call.result())).isEqualTo("ERROR EXECUTION_FAILED: The tool failed.");
    }

    @Test
    default void keepsWhyTheProjectorFailedBesideTheRawResponse() {
        Call call = spec().callProjectedBy(FakeProjectors.throwing("unexpected column 7 in " + RAW));

        CanonicalRecord record = call.assertFailedWith(ErrorCode.PROJECTION_FAILED);
        assertThat(record.failureType()).contains("java.lang.IllegalStateException");
        assertThat(record.failureMessage()).contains("unexpected column 7 in " + RAW);
        assertThat(record.rawResponse()).isNotEmpty();
        assertThat(call.result().getLeft().toString()).doesNotContain("column 7");
    }

    @Test
    default void aFailureWithoutAMessageIsKeptWithAnEmptyOne() {
        Call call = spec().callRunning(FakeTools.throwing(new java.io.IOException()));

        CanonicalRecord record = call.assertFailedWith(ErrorCode.EXECUTION_FAILED);
        assertThat(record.failureType()).contains("java.io.IOException");
        assertThat(record.failureMessage()).contains("");
    }

    @Test
    default void aRecordEndedWithoutAThrowSaysNoReason() {
        Call call = spec().callRunning(request -> null);

        assertThat(call.assertFailedWith(ErrorCode.EXECUTION_FAILED).failureType()).isEmpty();
        assertThat(call.record().failureMessage()).isEmpty();
    }

    @Test
    default void endsInExecutionFailedWhenTheToolAnswersNothing() {
        spec().callRunning(request -> null).assertFailedWith(ErrorCode.EXECUTION_FAILED);
    }

    @Test
    default void endsInTextNotUnicodeWhenTheRawResponseHasALoneSurrogate() {
        Call call = spec().callRunning(FakeTools.returning("bad \ud800 raw"));

        assertThat(call.assertFailedWith(ErrorCode.TEXT_NOT_UNICODE).rawResponse()).isEmpty();
        assertThat(spec().projector.projections()).isZero();
    }

    @Test
    default void keepsTheRawResponseForTheHarnessWhenProjectionFails() {
        Call call = spec().callProjectedBy(FakeProjectors.throwing("bad format"));

        assertThat(call.code()).isEqualTo(ErrorCode.PROJECTION_FAILED);
        assertThat(call.result().getLeft().toString()).doesNotContain(RAW);
        assertThat(call.record().rawResponse()).containsExactly(RAW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"STORE_UNAVAILABLE", "STORE_OUTCOME_UNKNOWN", "STORE_FULL", "STORE_DATA_INVALID"})
    default void runsNothingWhenTheStoreRefusesToBegin(ErrorCode code) {
        StoreFailure failure = java.util.Map.of(ErrorCode.STORE_UNAVAILABLE, StoreFailure.unavailable(),
                ErrorCode.STORE_OUTCOME_UNKNOWN, StoreFailure.outcomeUnknown(),
                ErrorCode.STORE_FULL, StoreFailure.full(),
                ErrorCode.STORE_DATA_INVALID, StoreFailure.dataInvalid()).get(code);

        Call call = spec().call(spec().builderOn(FaultyStores.refusingBegin(store(), failure)).build());

        assertThat(call.code()).isEqualTo(code);
        assertThat(spec().executor.executions()).isZero();
        assertThat(call.found()).isEmpty();
    }

    @Test
    default void answersOutcomeUnknownAndHandsTheRecordOverWhenTheCompletionFails() {
        List<InvocationKey> unfinished = new CopyOnWriteArrayList<>();
        List<AttemptToken> tokens = new CopyOnWriteArrayList<>();
        BoundaryListener harness = new BoundaryListener() {
            @Override
            public void onUnfinished(InvocationKey key, AttemptToken token) {
                unfinished.add(key);
                tokens.add(token);
            }
        };

        Call call = spec().call(spec().builderOn(FaultyStores.refusingComplete(store(), StoreFailure.unavailable()))
                .listener(harness).build());

        // The tool ran, so "unavailable" (nothing happened) would not be true.
        assertThat(call.code()).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(unfinished).singleElement().isEqualTo(spec().keyOf(call.envelope()));
        ToolBoundary healed = spec().builderOn(store()).build();
        assertThat(healed.endUnfinished(unfinished.get(0), tokens.get(0)).map(CanonicalRecord::errorCode))
                .isEqualTo(Either.right(Option.some(ErrorCode.STORE_OUTCOME_UNKNOWN)));
        assertThat(codeOf(healed.invoke(spec().run, call.envelope()))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(spec().executor.executions()).isEqualTo(1);
    }

    @Test
    default void closesWithInternalErrorWhenTheStoreCrashes() {
        Call call = spec().call(spec().builderOn(
                FaultyStores.crashingOnBegin(store(), "pool exhausted at redis://10.0.0.1")).build());

        assertThat(call.code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
        assertThat(call.result().getLeft().toString()).doesNotContain("redis");
        assertThat(spec().executor.executions()).isZero();
    }

    // Requirement: A tool that reports a failure with output SHALL end EXECUTION_FAILED, its output kept for the harness

    @Test
    default void keepsTheOutputOfAReportedFailureAsTheRawResponse() {
        String output = "ERROR connect db-1 password=hunter2\nretry later";

        Call call = spec().callRunning(request -> {
            throw new ToolFailure(output);
        });

        assertThat(call.assertFailedWith(ErrorCode.EXECUTION_FAILED).rawResponse()).containsExactly(output);
        assertThat(call.result().getLeft().toString()).doesNotContain("hunter2");
        assertThat(spec().projector.projections()).isZero();
    }

    @Test
    default void keepsNoOutputOverTheRawResponseLimit() {
        Call call = spec().call(spec().boundaryWith(ToolBoundaryConfig.custom().rawResponseLimitBytes(16).build(),
                logSearch(request -> {
                    throw new ToolFailure("x".repeat(17));
                }, spec().projector)));

        assertThat(call.assertFailedWith(ErrorCode.EXECUTION_FAILED).rawResponse()).isEmpty();
    }
}
