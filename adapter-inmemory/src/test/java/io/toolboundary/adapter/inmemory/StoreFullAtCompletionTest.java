package io.toolboundary.adapter.inmemory;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A store that is nearly full refuses the completion that carries the raw response but still has
 * room for a small one: the boundary then ends the record in ERROR/STORE_FULL instead of leaving it
 * PROJECTING.
 */
class StoreFullAtCompletionTest {

    private final InMemoryCanonicalInvocationStore memory = InMemoryCanonicalInvocationStore.create();
    private final RunContext run = OpenRuns.openIn(memory, Fixtures.anyRunContext());
    private final ToolCallEnvelope call = Fixtures.envelope(run).build();
    private final CountingExecutor tool = FakeTools.counting(FakeTools.returning("raw log lines"));

    @Test
    void endsTheRecordWithoutItsRawResponseWhenTheStoreIsTooFullForIt() {
        ToolBoundary boundary = boundaryOver(new RefusingLargeCompletions(memory));

        Either<?, ?> outcome = boundary.invoke(run, call);

        assertThat(outcome).isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_FULL)));
        CanonicalRecord record = memory.find(InvocationKey.of(run.runId(), new ToolCallId(call.toolCallId())), TIMEOUT).get().get();
        assertThat(record).isInstanceOf(CanonicalRecord.Failed.class);
        assertThat(record.errorCode()).isEqualTo(Option.some(ErrorCode.STORE_FULL));
        assertThat(record.rawResponse()).isEmpty();
        assertThat(tool.executions()).isEqualTo(1);
        assertThat(boundary.invoke(run, call)).isEqualTo(Either.left(BoundaryError.of(ErrorCode.DUPLICATE_TOOL_CALL)));
        assertThat(tool.executions()).isEqualTo(1);
    }

    @Test
    void handsTheRecordOverToTheHarnessWhenNotEvenASmallEndFits() {
        List<AttemptToken> unfinished = new CopyOnWriteArrayList<>();
        BoundaryListener harness = new BoundaryListener() {
            @Override
            public void onUnfinished(InvocationKey key, AttemptToken token) {
                unfinished.add(token);
            }
        };
        ToolBoundary boundary = boundaryOver(new RefusingEveryCompletion(memory), harness);
        InvocationKey key = InvocationKey.of(run.runId(), new ToolCallId(call.toolCallId()));

        assertThat(boundary.invoke(run, call))
                .isEqualTo(Either.left(BoundaryError.of(ErrorCode.STORE_OUTCOME_UNKNOWN)));
        assertThat(memory.find(key, TIMEOUT).get().get()).isInstanceOf(CanonicalRecord.Projecting.class);
        assertThat(unfinished).hasSize(1);

        // Once the store has room again, the harness ends the record by the token it was given.
        ToolBoundary healed = boundaryOver(memory, harness);
        assertThat(healed.endUnfinished(key, unfinished.get(0)).map(CanonicalRecord::errorCode))
                .isEqualTo(Either.right(Option.some(ErrorCode.STORE_OUTCOME_UNKNOWN)));
        assertThat(healed.invoke(run, call)).isEqualTo(Either.left(BoundaryError.of(ErrorCode.DUPLICATE_TOOL_CALL)));
        assertThat(tool.executions()).isEqualTo(1);
    }

    private ToolBoundary boundaryOver(CanonicalInvocationStore store) {
        return boundaryOver(store, BoundaryListener.noop());
    }

    private ToolBoundary boundaryOver(CanonicalInvocationStore store, BoundaryListener listener) {
        return ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll()).listener(listener)
                .tool(ToolBinding.readOnly("log-search", tool, FakeProjectors.evidenceFound("found"))).build();
    }

    /** Refuses, as a full Redis would, every completion that carries a raw response. */
    private static class RefusingLargeCompletions extends ForwardingStore {

        RefusingLargeCompletions(CanonicalInvocationStore store) {
            super(store);
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
                Duration timeout) {
            return record.rawResponse().isDefined()
                    ? Either.left(StoreFailure.full())
                    : delegate().complete(token, record, timeout);
        }
    }

    /** Refuses every completion and every end. */
    private static final class RefusingEveryCompletion extends RefusingLargeCompletions {
        RefusingEveryCompletion(CanonicalInvocationStore store) {
            super(store);
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
                Duration timeout) {
            return Either.left(StoreFailure.full());
        }

        @Override
        public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
                Instant now, Duration timeout) {
            return Either.left(StoreFailure.full());
        }
    }
}
