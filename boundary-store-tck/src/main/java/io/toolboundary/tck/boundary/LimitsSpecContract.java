package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.SpecState.codeOf;
import static io.toolboundary.tck.boundary.SpecState.logSearch;
import static io.toolboundary.tck.boundary.SpecValues.RAW;
import static io.toolboundary.tck.boundary.SpecValues.RAW_LIMIT;
import static io.toolboundary.tck.boundary.SpecValues.TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.boundary.SpecState.Call;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.CountingProjector;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Requirement "TTL and size limits SHALL fail closed".
 */
public interface LimitsSpecContract extends StoreFixture {

    /** This test's state; the test class holds a new {@link SpecState} in a field. */
    SpecState specState();

    private SpecState spec() {
        return specState().on(this);
    }

    // Requirement: TTL and size limits SHALL fail closed

    @Test
    @DisplayName("Read does not renew TTL")
    default void readsNeverExtendTheRecordsLife() {
        ToolCallEnvelope envelope = spec().envelope();
        ToolBoundary boundary = spec().boundary();
        boundary.invoke(spec().run, envelope);
        InvocationKey key = spec().keyOf(envelope);
        clock().advance(Duration.ofHours(1));
        spec().assertTtlLeft(key, TTL.minusHours(1));
        Duration before = spec().ttlOnceStoreTimeMoved(key);

        for (int i = 0; i < 3; i++) {
            boundary.find(spec().run.runId(), key.toolCallId());
            boundary.referencability(spec().run.runId(), key.toolCallId());
            store().find(key, TIMEOUT);
        }

        assertThat(remainingTtl(key)).as("still live").isNotEmpty();
        assertThat(remainingTtl(key).get()).as("not renewed").isLessThanOrEqualTo(before);
        if (storeExpiresOnTheSuiteClock()) {
            assertThat(remainingTtl(key)).containsExactly(before);
            clock().advance(before.minusMillis(1));
            assertThat(spec().find(boundary, envelope)).isNotEmpty();
            clock().advance(Duration.ofMillis(1));
            assertThat(spec().find(boundary, envelope)).as("expired at the original expiry").isEmpty();
        }
    }

    @Test
    default void setsTheTtlAtCreationAndKeepsOnlyTheRemainderOnCompletion() {
        AtomicReference<Duration> ttlBeforeCompletion = new AtomicReference<>();

        Call call = spec().callRunning(request -> {
            spec().assertTtlLeft(request.key(), TTL);
            clock().advance(Duration.ofMinutes(10));
            ttlBeforeCompletion.set(spec().ttlOnceStoreTimeMoved(request.key()));
            return RAW;
        });

        assertThat(call.result().isRight()).isTrue();
        spec().assertTtlLeft(spec().keyOf(call.envelope()), TTL.minusMinutes(10));
        assertThat(remainingTtl(spec().keyOf(call.envelope())).get()).as("not renewed at completion")
                .isLessThanOrEqualTo(ttlBeforeCompletion.get());
    }

    @Test
    default void neverRecreatesARecordThatExpiredWhileTheToolRan() {
        Call call = spec().callRunning(request -> {
            expire(request.key());
            return RAW;
        });

        assertThat(call.code()).isEqualTo(ErrorCode.RECORD_EXPIRED);
        assertThat(call.found()).isEmpty();
        assertThat(remainingTtl(spec().keyOf(call.envelope()))).isEmpty();
    }

    // Scenario: Raw response is too large

    private static ToolBoundaryConfig rawLimited() {
        return ToolBoundaryConfig.custom().rawResponseLimitBytes(RAW_LIMIT).build();
    }

    @Test
    default void endsInResultTooLargeWithoutTruncatingOrProjecting() {
        CountingProjector neverCalled = FakeProjectors.counting(spec().projector);

        Call call = spec().call(spec().boundaryWith(rawLimited(),
                logSearch(FakeTools.returningBytes(RAW_LIMIT + 1), neverCalled)));

        assertThat(call.assertFailedWith(ErrorCode.RESULT_TOO_LARGE).rawResponse()).as("no truncated raw").isEmpty();
        assertThat(neverCalled.projections()).as("projections").isZero();
    }

    @Test
    default void acceptsARawResponseOfExactlyTheLimit() {
        Call call = spec().call(spec().boundaryWith(rawLimited(),
                logSearch(FakeTools.returningBytes(RAW_LIMIT), spec().projector)));

        assertThat(call.result().isRight()).isTrue();
        assertThat(call.record().rawResponse().get()).isEqualTo(Fixtures.textOfUtf8Bytes(RAW_LIMIT));
    }

    @Test
    default void endsInResultTooLargeWhenTheRawWouldNotFitTheRecord() {
        ToolBoundaryConfig tight = ToolBoundaryConfig.custom()
                .argumentsLimitBytes(256).rawResponseLimitBytes(2048).recordLimitBytes(2048).build();

        Call call = spec().call(spec().boundaryWith(tight,
                logSearch(FakeTools.returningBytes(2040), spec().projector)));

        assertThat(call.assertFailedWith(ErrorCode.RESULT_TOO_LARGE).rawResponse()).isEmpty();
        assertThat(spec().projector.projections()).isZero();
    }

    // Scenario: Agent result is too large

    @Test
    default void endsInResultTooLargeAndReturnsNothingOfTheResult() {
        int limit = (int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES;

        Call call = spec().callProjectedBy(FakeProjectors.returningBytes(limit + 1));

        assertThat(call.assertFailedWith(ErrorCode.RESULT_TOO_LARGE).rawResponse()).containsExactly(RAW);
    }

    @Test
    default void countsContentAndScopeTogether() {
        ToolBoundary boundary = spec().boundaryWith(ToolBoundaryConfig.custom().agentResultLimitBytes(10).build(),
                logSearch(spec().executor, FakeProjectors.noEvidence("123456", "abcde")));

        assertThat(codeOf(boundary.invoke(spec().run, spec().envelope()))).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
    }

    @Test
    default void boundsAProjectorThatEchoesTheRawResponse() {
        String raw = Fixtures.textOfUtf8Bytes((int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES + 1);

        Call call = spec().call(logSearch(FakeTools.returning(raw), FakeProjectors.echoingRaw()));

        assertThat(call.code()).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        assertThat(call.record().rawResponse()).containsExactly(raw);
    }

    @Test
    default void acceptsAResultOfExactlyTheLimit() {
        int limit = (int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES;

        assertThat(spec().callProjectedBy(FakeProjectors.returningBytes(limit)).result().get().byteSize())
                .isEqualTo(limit);
    }
}
