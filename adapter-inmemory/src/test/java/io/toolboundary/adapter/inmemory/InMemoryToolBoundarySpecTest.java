package io.toolboundary.adapter.inmemory;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.tck.boundary.FailuresSpecContract;
import io.toolboundary.tck.boundary.LimitsSpecContract;
import io.toolboundary.tck.boundary.PreflightSpecContract;
import io.toolboundary.tck.boundary.RecordLifecycleSpecContract;
import io.toolboundary.tck.boundary.RepeatedCallSpecContract;
import io.toolboundary.tck.boundary.ReusableBoundarySpecContract;
import io.toolboundary.tck.boundary.SpecState;
import io.toolboundary.tck.boundary.SpecValues;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The requirement text, scenario by scenario, through the boundary on the in-memory store, whose expiry
 * follows the suite's clock; plus what only this store can show: a refused call leaves it empty.
 */
class InMemoryToolBoundarySpecTest implements PreflightSpecContract, RecordLifecycleSpecContract, RepeatedCallSpecContract,
        LimitsSpecContract, FailuresSpecContract, ReusableBoundarySpecContract {

    private final MutableClock clock = MutableClock.at(SpecValues.START);
    private final SpecState spec = new SpecState();
    private final InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.create(clock);

    @Override
    public MutableClock clock() {
        return clock;
    }

    @Override
    public SpecState specState() {
        return spec;
    }

    @Override
    public CanonicalInvocationStore store() {
        return store;
    }

    @Override
    public Option<Duration> remainingTtl(InvocationKey key) {
        return store.remainingTtl(key);
    }

    @Override
    public void expire(InvocationKey key) {
        store.remainingTtl(key).forEach(clock()::advance);
    }

    @Override
    public boolean storeExpiresOnTheSuiteClock() {
        return true;
    }

    @Test
    void keepsNeitherRecordNorBudgetCounterForACallRefusedInPreflight() {
        RunContext run = OpenRuns.openIn(store, Fixtures.anyRunContext());
        int held = store.size();
        CountingExecutor executor = FakeTools.counting(FakeTools.returning("raw"));
        ToolBoundary boundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowOnly("log-search"))
                .clock(clock()).tool(ToolBinding.readOnly("log-search", executor, FakeProjectors.evidenceFound("1")))
                .tool(ToolBinding.readOnly("sql-query", executor, FakeProjectors.evidenceFound("1")))
                .build();
        List<ToolCallEnvelope> refused = List.of(
                Fixtures.envelope(run).withToolCallId(null).build(),
                Fixtures.envelope(Fixtures.anyRunContext()).build(),
                Fixtures.envelope(run).withToolName("rm-rf").build(),
                Fixtures.envelope(run).withToolName("sql-query").build(),
                Fixtures.envelope(run).withArguments("{\"a\":1,\"a\":2}").build());

        List<ErrorCode> codes = refused.stream()
                .map(envelope -> boundary.invoke(run, envelope).getLeft().code()).toList();

        assertThat(codes).containsExactly(ErrorCode.TOOL_CALL_ID_MISSING, ErrorCode.RUN_MISMATCH,
                ErrorCode.TOOL_NOT_REGISTERED, ErrorCode.TOOL_NOT_AUTHORIZED, ErrorCode.ARGUMENTS_INVALID);
        assertThat(executor.executions()).isZero();
        assertThat(store.size()).as("records and runs in the store").isEqualTo(held);
        assertThat(store.find(InvocationKey.of(run.runId(), new io.toolboundary.domain.ToolCallId(
                refused.get(4).toolCallId())), TIMEOUT).get()).isEmpty();
    }
}
