package io.toolboundary.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.DuplicateCallPolicy;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The opt-in replay of READY records ({@link DuplicateCallPolicy#REPLAY_READY}) and the output a tool keeps
 * with a reported failure ({@link ToolFailure}), on the store a subclass supplies; run through
 * {@link ToolBoundarySpecContract}.
 */
public abstract class SpecReplayContract extends SpecLimitsAndFailuresContract {
    /** For the requirements suite only. */
    SpecReplayContract() {
    }

    @Nested
    @DisplayName("A repeated call MAY be answered from its READY record when the harness opts in")
    class ReplayOfReadyRecords {

        private final List<CanonicalRecord.Ready> replayed = new CopyOnWriteArrayList<>();
        private final BoundaryListener listener = new BoundaryListener() {
            @Override
            public void onReplayed(CanonicalRecord.Ready record) {
                replayed.add(record);
            }
        };

        private ToolBoundary replaying(ToolExecutor tool) {
            return builder(ToolBoundaryConfig.custom().duplicateCalls(DuplicateCallPolicy.REPLAY_READY).build(),
                    logSearch(tool, projector)).listener(listener).build();
        }

        @Test
        void answersARepeatedCallWithTheReadyRecordsResultWithoutRunningTheTool() {
            ToolBoundary boundary = replaying(executor);
            ToolCallEnvelope first = envelope();
            Either<BoundaryError, AgentResult> answered = boundary.invoke(run, first);
            CanonicalRecord stored = recordOf(boundary, first);

            Either<BoundaryError, AgentResult> again = boundary.invoke(run, Fixtures.envelope(run)
                    .withToolCallId(first.toolCallId()).withArguments("{ \"query\" : \"timeout\" }").build());

            assertThat(again).isEqualTo(answered);
            assertThat(again.get().content()).isEqualTo(RESULT);
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(projector.projections()).isEqualTo(1);
            assertThat(recordOf(boundary, first)).isEqualTo(stored);
            assertThat(replayed).containsExactly((CanonicalRecord.Ready) stored);
        }

        @Test
        void keepsTheSpecificationsRefusalByDefault() {
            ToolBoundary boundary = boundary();
            ToolCallEnvelope first = envelope();
            boundary.invoke(run, first);

            assertThat(ToolBoundaryConfig.ofDefaults().duplicateCalls()).isEqualTo(DuplicateCallPolicy.REFUSE);
            assertThat(codeOf(boundary.invoke(run, first))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(executor.executions()).isEqualTo(1);
        }

        @Test
        void refusesARepeatOfACallStillProjecting() {
            AtomicReference<Either<BoundaryError, AgentResult>> during = new AtomicReference<>();
            AtomicReference<ToolBoundary> self = new AtomicReference<>();
            ToolCallEnvelope first = envelope();
            CountingExecutor tool = FakeTools.counting(request -> {
                during.set(self.get().invoke(run, first));
                return RAW;
            });
            self.set(replaying(tool));

            assertThat(self.get().invoke(run, first).isRight()).isTrue();

            assertThat(codeOf(during.get())).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(tool.executions()).isEqualTo(1);
            assertThat(replayed).isEmpty();
        }

        @Test
        void refusesARepeatOfAFailedCall() {
            CountingExecutor failing = FakeTools.counting(FakeTools.throwing("password=hunter2 at db-1"));
            ToolBoundary boundary = replaying(failing);
            ToolCallEnvelope first = envelope();
            assertThat(codeOf(boundary.invoke(run, first))).isEqualTo(ErrorCode.EXECUTION_FAILED);

            assertThat(codeOf(boundary.invoke(run, first))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(failing.executions()).isEqualTo(1);
            assertThat(replayed).isEmpty();
        }

        @Test
        void refusesTheSameIdWithOtherArgumentsAsReused() {
            ToolBoundary boundary = replaying(executor);
            ToolCallEnvelope first = envelope();
            boundary.invoke(run, first);

            Either<BoundaryError, AgentResult> other = boundary.invoke(run, Fixtures.envelope(run)
                    .withToolCallId(first.toolCallId()).withArguments("{\"query\":\"oom\"}").build());

            assertThat(codeOf(other)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(replayed).isEmpty();
        }

        @Test
        void refusesARepeatWhoseRecordExpired() {
            ToolBoundary boundary = replaying(executor);
            ToolCallEnvelope first = envelope();
            boundary.invoke(run, first);
            expire(keyOf(first));

            assertThat(codeOf(boundary.invoke(run, first))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(replayed).isEmpty();
        }
    }

    @Nested
    @DisplayName("A tool that reports a failure with output SHALL end EXECUTION_FAILED, its output kept for the harness")
    class ReportedFailures {

        @Test
        void keepsTheOutputOfAReportedFailureAsTheRawResponse() {
            String output = "ERROR connect db-1 password=hunter2\nretry later";
            ToolBoundary boundary = boundaryWith(logSearch(request -> {
                throw new ToolFailure(output);
            }, projector));
            ToolCallEnvelope call = envelope();

            Either<BoundaryError, AgentResult> answered = boundary.invoke(run, call);

            assertThat(codeOf(answered)).isEqualTo(ErrorCode.EXECUTION_FAILED);
            assertThat(answered.getLeft().toString()).doesNotContain("hunter2");
            CanonicalRecord record = recordOf(boundary, call);
            assertFailed(record, ErrorCode.EXECUTION_FAILED);
            assertThat(record.rawResponse()).containsExactly(output);
            assertThat(projector.projections()).isZero();
        }

        @Test
        void keepsNoOutputOverTheRawResponseLimit() {
            ToolBoundary boundary = boundaryWith(ToolBoundaryConfig.custom().rawResponseLimitBytes(16).build(),
                    logSearch(request -> {
                        throw new ToolFailure("x".repeat(17));
                    }, projector));
            ToolCallEnvelope call = envelope();

            assertThat(codeOf(boundary.invoke(run, call))).isEqualTo(ErrorCode.EXECUTION_FAILED);
            CanonicalRecord record = recordOf(boundary, call);
            assertFailed(record, ErrorCode.EXECUTION_FAILED);
            assertThat(record.rawResponse()).isEmpty();
        }
    }
}
