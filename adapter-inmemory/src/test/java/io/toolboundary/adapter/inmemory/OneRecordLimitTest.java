package io.toolboundary.adapter.inmemory;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.CountingProjector;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * The record limit is set once, in the boundary's config, and travels to the store with each begin;
 * a store's own cap below it is refused when the boundary is built, so that no record is ever left
 * PROJECTING because of its size.
 */
class OneRecordLimitTest {

    private static final long KIB = 1024;

    private final RunContext run = Fixtures.anyRunContext().opened(RunToken.random());
    private final ToolCallEnvelope call = Fixtures.envelope(run).build();
    private final InvocationKey key = InvocationKey.of(run.runId(), new ToolCallId(call.toolCallId()));
    private final CountingExecutor tool = FakeTools.counting(FakeTools.returningBytes((int) (100 * KIB)));
    private final CountingProjector projector = FakeProjectors.counting(FakeProjectors.evidenceFound("found"));

    @Test
    void refusesToBuildOverAStoreWhoseCapIsBelowTheConfiguredRecordLimit() {
        InMemoryCanonicalInvocationStore capped = InMemoryCanonicalInvocationStore.create(Clock.systemUTC(), 64 * KIB);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> boundary(capped, ToolBoundaryConfig.ofDefaults()))
                .withMessageContaining(Long.toString(64 * KIB))
                .withMessageContaining("recordLimitBytes");
    }

    @Test
    void endsTheRecordInErrorWhenTheRawResponseIsOverTheConfiguredLimit() {
        InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(Clock.systemUTC(), 64 * KIB);
        ToolBoundaryConfig config = ToolBoundaryConfig.custom().argumentsLimitBytes(16 * KIB)
                .rawResponseLimitBytes(64 * KIB).recordLimitBytes(64 * KIB).build();

        OpenRuns.openIn(store, run);
        Either<BoundaryError, ?> answer = boundary(store, config).invoke(run, call);

        assertThat(answer).isEqualTo(Either.left(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE)));
        CanonicalRecord record = store.find(key, TIMEOUT).get().get();
        assertThat(record).isInstanceOf(CanonicalRecord.Failed.class);
        assertThat(record.errorCode()).isEqualTo(Option.some(ErrorCode.RESULT_TOO_LARGE));
        assertThat(tool.executions()).isEqualTo(1);
        assertThat(projector.projections()).isZero();
    }

    @Test
    void keepsARecordOfExactlyTheConfiguredLimitWhenTheStoreHasNoCap() {
        InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create();
        ToolBoundaryConfig config = ToolBoundaryConfig.custom().recordLimitBytes(4 * ToolBoundaryConfig.DEFAULT_RECORD_BYTES)
                .rawResponseLimitBytes(2 * ToolBoundaryConfig.DEFAULT_RECORD_BYTES).build();
        CountingExecutor large = FakeTools.counting(FakeTools.returningBytes((int) (2 * ToolBoundaryConfig.DEFAULT_RECORD_BYTES)));

        OpenRuns.openIn(store, run);
        Either<BoundaryError, ?> answer = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .config(config).tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME, large, projector)).build()
                .invoke(run, call);

        assertThat(answer.isRight()).as("a raw response over the old store limit, within the config's").isTrue();
        assertThat(store.find(key, TIMEOUT).get().get()).isInstanceOf(CanonicalRecord.Ready.class);
    }

    private ToolBoundary boundary(InMemoryCanonicalInvocationStore store, ToolBoundaryConfig config) {
        return ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll()).config(config)
                .tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME, tool, projector)).build();
    }
}
