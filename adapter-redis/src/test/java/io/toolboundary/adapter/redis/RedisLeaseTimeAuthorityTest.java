package io.toolboundary.adapter.redis;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Either;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * On Redis the server's {@code TIME} alone says when a lease has passed: a harness whose clock steps
 * forward cannot abandon a call that is still running; once the server's clock has passed the lease,
 * the late completion loses and the agent is told the stored record's code.
 */
class RedisLeaseTimeAuthorityTest {

    private final RedisDeployment redis = RedisServerFixture.standalone();
    private final RedisCanonicalInvocationStore store = SharedRedisStores.withDefaultOptions(redis);
    private final MutableClock harnessClock = MutableClock.at(Instant.now());

    @Test
    void aHarnessClockSteppingForwardCannotAbandonARunningCall() {
        Outcome outcome = callAbandoningMidway(key -> harnessClock.advance(Duration.ofDays(2)));

        assertThat(outcome.abandonedMeanwhile()).isEqualTo(Either.left(BoundaryError.of(ErrorCode.LEASE_NOT_EXPIRED)));
        assertThat(outcome.answer().isRight()).isTrue();
        assertThat(store.find(outcome.key(), TIMEOUT).get().get()).isInstanceOf(CanonicalRecord.Ready.class);
    }

    @Test
    void theServersClockPassingTheLeaseLetsTheHarnessAbandon() {
        Outcome outcome = callAbandoningMidway(key -> new RecordLife(redis, store).passLease(key));

        assertThat(outcome.abandonedMeanwhile().map(CanonicalRecord.Failed::code))
                .isEqualTo(Either.right(ErrorCode.EXECUTION_ABANDONED));
        assertThat(outcome.answer()).isEqualTo(Either.left(BoundaryError.of(ErrorCode.EXECUTION_ABANDONED)));
        assertThat(store.find(outcome.key(), TIMEOUT).get().get().errorCode()).contains(ErrorCode.EXECUTION_ABANDONED);
    }

    private record Outcome(InvocationKey key, Either<BoundaryError, ?> answer,
            Either<BoundaryError, CanonicalRecord.Failed> abandonedMeanwhile) {
    }

    private Outcome callAbandoningMidway(java.util.function.Consumer<InvocationKey> meanwhile) {
        RunContext unopened = RunContext.active(Fixtures.anyRunContext().runId(), Fixtures.FAR_FUTURE, 10);
        ToolCallEnvelope call = Fixtures.envelope(unopened).build();
        InvocationKey key = InvocationKey.of(unopened.runId(), new ToolCallId(call.toolCallId()));
        AtomicReference<Either<BoundaryError, CanonicalRecord.Failed>> abandoned = new AtomicReference<>();
        AtomicReference<ToolBoundary> self = new AtomicReference<>();
        ToolBoundary boundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .clock(harnessClock)
                .tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME, request -> {
                    meanwhile.accept(key);
                    abandoned.set(self.get().abandonExpired(key.runId(), key.toolCallId()));
                    return "raw";
                }, FakeProjectors.evidenceFound("found")))
                .build();
        self.set(boundary);
        RunContext run = Fixtures.opened(boundary, unopened);
        return new Outcome(key, boundary.invoke(run, call), abandoned.get());
    }
}
