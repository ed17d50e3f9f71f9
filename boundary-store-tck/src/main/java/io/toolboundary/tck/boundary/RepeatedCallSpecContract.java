package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.SpecState.assertFailed;
import static io.toolboundary.tck.boundary.SpecState.codeOf;
import static io.toolboundary.tck.boundary.SpecState.logSearch;
import static io.toolboundary.tck.boundary.SpecValues.RAW;
import static io.toolboundary.tck.boundary.SpecValues.RESULT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.boundary.SpecState.Call;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Requirements "Tool Call ID and Run ownership SHALL be preserved", "A repeated tool_call_id SHALL be compared by tool
 * and canonical arguments (RFC 8785)" and "A repeated call MAY be answered from its READY record when the harness opts
 * in".
 */
public interface RepeatedCallSpecContract extends StoreFixture {

    /** This test's state; the test class holds a new {@link SpecState} in a field. */
    SpecState specState();

    private SpecState spec() {
        return specState().on(this);
    }

    // Requirement: Tool Call ID and Run ownership SHALL be preserved

    // Scenario: Duplicate Tool Call ID is submitted

    @Test
    default void refusesARepeatWithTheSameArgumentsWithoutRunningTheTool() {
        Call call = spec().call(spec().boundary());
        CanonicalRecord first = call.record();
        clock().advance(Duration.ofMinutes(1));

        Either<BoundaryError, AgentResult> second = call.again();

        assertThat(codeOf(second)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(spec().projector.projections()).isEqualTo(1);
        assertThat(call.record()).isEqualTo(first);
    }

    @Test
    default void readsArgumentsThatDifferOnlyInWhitespaceAsTheSame() {
        Call compact = spec().call(spec().boundary(), call -> call.withArguments("{\"query\":\"timeout\"}"));

        Either<BoundaryError, AgentResult> spaced = compact.again(e -> e.withArguments(" { \"query\" : \"timeout\" } "));

        assertThat(codeOf(spaced)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(spec().executor.executions()).isEqualTo(1);
    }

    @Test
    default void refusesAReuseWithOtherArgumentsWithoutRunningTheTool() {
        Call call = spec().call(spec().boundary());
        CanonicalRecord first = call.record();

        Either<BoundaryError, AgentResult> reused = call.again(e -> e.withArguments("{\"query\":\"out of memory\"}"));

        assertThat(codeOf(reused)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(call.record()).isEqualTo(first);
    }

    @Test
    default void refusesARepeatWhileTheFirstCallIsStillRunning() {
        ToolCallEnvelope envelope = spec().envelope();
        AtomicReference<ToolBoundary> self = new AtomicReference<>();
        AtomicReference<Either<BoundaryError, AgentResult>> nested = new AtomicReference<>();
        CountingExecutor reentrant = FakeTools.counting(request -> {
            nested.set(self.get().invoke(spec().run, envelope));
            return RAW;
        });
        self.set(spec().boundaryWith(logSearch(reentrant, spec().projector)));

        Either<BoundaryError, AgentResult> first = self.get().invoke(spec().run, envelope);

        assertThat(codeOf(nested.get())).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(reentrant.executions()).isEqualTo(1);
        assertThat(first.isRight()).isTrue();
        assertThat(spec().recordOf(self.get(), envelope).status()).isEqualTo(InvocationStatus.READY);
    }

    @Test
    default void refusesARepeatOfAFailedCall() {
        CountingExecutor failing = FakeTools.counting(FakeTools.throwing("down"));
        Call call = spec().callRunning(failing);

        Either<BoundaryError, AgentResult> retry = call.again();

        assertThat(codeOf(retry)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(failing.executions()).isEqualTo(1);
        assertFailed(call.record(), ErrorCode.EXECUTION_FAILED);
    }

    @Test
    @DisplayName("Framework ID is preserved")
    default void keepsTheExactFrameworkToolCallId() {
        String frameworkId = "call_AbC-1.2:3";
        ToolCallEnvelope envelope = spec().envelopeBuilder().withToolCallId(frameworkId).build();
        AtomicReference<InvocationKey> keySeenByTool = new AtomicReference<>();
        ToolBoundary boundary = spec().boundaryWith(logSearch(request -> {
            keySeenByTool.set(request.key());
            return RAW;
        }, spec().projector));

        boundary.invoke(spec().run, envelope);

        assertThat(keySeenByTool.get()).isEqualTo(InvocationKey.of(spec().run.runId(), new ToolCallId(frameworkId)));
        CanonicalRecord record = boundary.find(spec().run.runId(), new ToolCallId(frameworkId)).get()
                .getOrElseThrow(() -> new AssertionError("no record under the exact id"));
        assertThat(record.key().toolCallId().value()).isEqualTo(frameworkId);
        assertThat(record.key().runId()).isEqualTo(spec().run.runId());
        assertThat(boundary.find(spec().run.runId(), new ToolCallId("call_abc-1.2:3")).get()).isEmpty();
    }

    @Test
    default void keysTheRecordByTheRunContextSoTwoRunsKeepTheirOwnRecords() {
        RunContext otherRun = spec().openedRunContext();
        ToolBoundary boundary = spec().boundary();

        Either<BoundaryError, AgentResult> inFirst = boundary.invoke(spec().run,
                spec().envelopeBuilder().withToolCallId("call_1").build());
        Either<BoundaryError, AgentResult> inSecond = boundary.invoke(otherRun,
                Fixtures.envelope(otherRun).withToolCallId("call_1").build());

        assertThat(inFirst.isRight()).isTrue();
        assertThat(inSecond.isRight()).isTrue();
        assertThat(spec().executor.executions()).isEqualTo(2);
        assertThat(boundary.find(spec().run.runId(), new ToolCallId("call_1")).get()).isNotEmpty();
        assertThat(boundary.find(otherRun.runId(), new ToolCallId("call_1")).get()).isNotEmpty();
    }

    @Test
    default void neverGeneratesAFallbackIdForAMissingOne() {
        spec().assertRefused(call -> call.withToolCallId(""), ErrorCode.TOOL_CALL_ID_MISSING);
    }

    // Requirement: A repeated tool_call_id SHALL be compared by tool and canonical arguments (RFC 8785)

    private ToolBoundary twoTools(CountingExecutor sql) {
        return spec().boundaryWith(spec().logSearch(),
                ToolBinding.readOnly("sql-query", sql, FakeProjectors.evidenceFound(RESULT)));
    }

    @Test
    default void readsReorderedMembersAsADuplicate() {
        CountingExecutor sql = FakeTools.counting(FakeTools.returning(RAW));
        Call first = spec().call(twoTools(sql), e -> e.withArguments("{\"a\":1,\"b\":{\"y\":[1,2],\"x\":\"\u00e9\"}}"));
        assertThat(first.result().isRight()).isTrue();
        CanonicalRecord stored = first.record();

        Either<BoundaryError, AgentResult> reordered = first.again(call -> call.withArguments(
                "{\"b\":{\"x\":\"\\u00e9\",\"y\":[1,2]},\"a\":1}"));

        assertThat(codeOf(reordered)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(first.record()).isEqualTo(stored);
    }

    @Test
    default void readsOneAndOnePointZeroAsADuplicate() {
        CountingExecutor sql = FakeTools.counting(FakeTools.returning(RAW));
        Call first = spec().call(twoTools(sql), call -> call.withArguments("{\"limit\":1,\"ratio\":1e2}"));
        assertThat(first.result().isRight()).isTrue();

        Either<BoundaryError, AgentResult> same = first.again(e -> e.withArguments("{\"limit\":1.0,\"ratio\":100}"));
        Either<BoundaryError, AgentResult> other = first.again(e -> e.withArguments("{\"limit\":1.5,\"ratio\":100}"));

        assertThat(codeOf(same)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(codeOf(other)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
        assertThat(spec().executor.executions()).isEqualTo(1);
    }

    @Test
    default void readsTheSameArgumentsForAnotherToolAsAReusedIdAndNeverRunsThatTool() {
        CountingExecutor sql = FakeTools.counting(FakeTools.returning(RAW));
        Call first = spec().call(twoTools(sql),
                call -> call.withToolName("log-search").withArguments("{\"query\":\"timeout\"}"));
        assertThat(first.result().isRight()).isTrue();
        CanonicalRecord stored = first.record();

        Either<BoundaryError, AgentResult> otherTool = first.again(call -> call.withToolName("sql-query"));

        assertThat(codeOf(otherTool)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
        assertThat(sql.executions()).as("executions of the other tool").isZero();
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(first.record()).isEqualTo(stored);
        assertThat(codeOf(first.again(e -> e.withToolName("log-search")))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
    }

    // Requirement: A repeated call MAY be answered from its READY record when the harness opts in

    private ToolBoundary replaying(ToolExecutor tool) {
        BoundaryListener listener = new BoundaryListener() {
            @Override
            public void onReplayed(CanonicalRecord.Ready record) {
                spec().replayed.add(record);
            }
        };
        return spec().builder(ToolBoundaryConfig.custom().replayReadyDuplicates(true).build(),
                logSearch(tool, spec().projector)).listener(listener).build();
    }

    @Test
    default void answersARepeatedCallWithTheReadyRecordsResultWithoutRunningTheTool() {
        Call call = spec().call(replaying(spec().executor));
        CanonicalRecord stored = call.record();

        Either<BoundaryError, AgentResult> again = call.again(e -> e.withArguments("{ \"query\" : \"timeout\" }"));

        assertThat(again).isEqualTo(call.result());
        assertThat(again.get().content()).isEqualTo(RESULT);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(spec().projector.projections()).isEqualTo(1);
        assertThat(call.record()).isEqualTo(stored);
        assertThat(spec().replayed).containsExactly((CanonicalRecord.Ready) stored);
    }

    @Test
    default void keepsTheSpecificationsRefusalByDefault() {
        Call call = spec().call(spec().boundary());

        assertThat(ToolBoundaryConfig.ofDefaults().replayReadyDuplicates()).isFalse();
        assertThat(codeOf(call.again())).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(spec().executor.executions()).isEqualTo(1);
    }

    @Test
    default void refusesARepeatOfACallStillProjecting() {
        AtomicReference<Either<BoundaryError, AgentResult>> during = new AtomicReference<>();
        AtomicReference<ToolBoundary> self = new AtomicReference<>();
        ToolCallEnvelope first = spec().envelope();
        CountingExecutor tool = FakeTools.counting(request -> {
            during.set(self.get().invoke(spec().run, first));
            return RAW;
        });
        self.set(replaying(tool));

        assertThat(self.get().invoke(spec().run, first).isRight()).isTrue();

        assertThat(codeOf(during.get())).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(tool.executions()).isEqualTo(1);
        assertThat(spec().replayed).isEmpty();
    }

    @Test
    default void refusesARepeatOfAFailedCallWhenReplaying() {
        CountingExecutor failing = FakeTools.counting(FakeTools.throwing("password=hunter2 at db-1"));
        Call call = spec().call(replaying(failing));
        assertThat(call.code()).isEqualTo(ErrorCode.EXECUTION_FAILED);

        assertThat(codeOf(call.again())).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(failing.executions()).isEqualTo(1);
        assertThat(spec().replayed).isEmpty();
    }

    @Test
    default void refusesTheSameIdWithOtherArgumentsAsReused() {
        Call call = spec().call(replaying(spec().executor));

        Either<BoundaryError, AgentResult> other = call.again(again -> again.withArguments("{\"query\":\"oom\"}"));

        assertThat(codeOf(other)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(spec().replayed).isEmpty();
    }

    @Test
    default void refusesARepeatWhoseRecordExpired() {
        Call call = spec().call(replaying(spec().executor));
        expire(call.key());

        assertThat(codeOf(call.again())).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(spec().replayed).isEmpty();
    }
}
