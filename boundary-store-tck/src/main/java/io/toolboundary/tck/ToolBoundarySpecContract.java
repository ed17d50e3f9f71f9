package io.toolboundary.tck;

import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.MutableClock;
import io.toolboundary.testkit.ScriptedRun;
import static org.assertj.core.api.Assertions.assertThat;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Every Requirement and Scenario of the canonical tool invocation store, run through
 * {@link ToolBoundary} on the store a subclass supplies. The nested classes are the Requirements and
 * carry their exact titles; a test or nested class named after a Scenario carries its exact title.
 *
 * <p>A store adapter runs all of it by extending this class and implementing four hooks: the store
 * under test, a record's remaining TTL, ending a record's life now, and whether the store's expiry
 * follows this suite's {@link #clock()}. Every test works in a run of its own, so a subclass may hand
 * all tests one shared store on one shared server.
 *
 * <p>Time: the boundary reads {@link #clock()}, a {@link MutableClock} standing at {@link #START}
 * that the suite owns (a new one for each test) and moves where a scenario needs time to pass; it
 * decides deadlines and the records' timestamps. The store's expiry is the adapter's business: an
 * embedded store may follow {@link #clock()}, then TTL assertions are exact; a server keeps its own
 * time, then they are bounds (a TTL never grows on a read or at completion, never exceeds the TTL
 * given at creation) and {@link #expire(InvocationKey)} stands for time running out.
 */
public abstract class ToolBoundarySpecContract extends SpecReplayContract {
    @Nested
    @DisplayName("Stage 3A SHALL remain reusable and independent from legacy audit")
    class ReusableAndIndependent {

        private static final int SQL_RAW_LIMIT = 4096;

        /** A second tool with its own executor and projector, plugged in by registration only. */
        private final CountingExecutor sql = FakeTools.counting(request -> {
            String arguments = request.arguments();
            if (arguments.contains("broken")) {
                throw new SQLException("relation does not exist");
            }
            if (arguments.contains("huge")) {
                return Fixtures.textOfUtf8Bytes(SQL_RAW_LIMIT + 1);
            }
            return arguments.contains("orders") ? "id,total\n1,10.00\n2,12.50\n" : "id,total\n";
        });
        private final Projector rows = (ToolRequest request, String raw) -> {
            long count = raw.lines().count() - 1;
            return count > 0
                    ? Projection.evidenceFound(count + " rows", "the queried table")
                    : Projection.noEvidence("0 rows", "the queried table");
        };

        @Test
        @DisplayName("Fake projector tests pass")
        void aSecondToolPlugsInWithoutAnyStoreOrLifecycleCode() {
            ToolBoundary boundary = boundaryWith(
                    ToolBoundaryConfig.custom().rawResponseLimitBytes(SQL_RAW_LIMIT).build(),
                    logSearch(executor, projector),
                    ToolBinding.readOnly("sql-query", sql, rows));

            List<ScriptedRun.Step> steps = ScriptedRun.on(boundary, run)
                    .call("sql-query", "{\"table\":\"orders\"}").withToolCallId("q1")
                    .call("sql-query", "{\"table\":\"refunds\"}").withToolCallId("q2")
                    .call("sql-query", "{\"table\":\"broken\"}").withToolCallId("q3")
                    .call("sql-query", "{\"table\":\"orders\"}").withToolCallId("q1")
                    .call("sql-query", "{\"table\":\"huge\"}").withToolCallId("q4")
                    .call("log-search", "{\"query\":\"timeout\"}").withToolCallId("l1")
                    .play();

            assertThat(steps.get(0).agentResult().map(AgentResult::content)).containsExactly("2 rows");
            assertThat(steps.get(1).agentResult().map(AgentResult::evidence)).containsExactly(EvidenceStatus.NO_EVIDENCE);
            assertThat(steps.get(2).error()).containsExactly(ErrorCode.EXECUTION_FAILED);
            assertThat(steps.get(3).error()).containsExactly(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(steps.get(4).error()).containsExactly(ErrorCode.RESULT_TOO_LARGE);
            assertThat(steps.get(5).agentResult().map(AgentResult::content)).containsExactly(RESULT);
            assertThat(sql.executions()).isEqualTo(4);
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(statusOf(boundary, "q1")).isEqualTo(Referencability.CITABLE_EVIDENCE);
            assertThat(statusOf(boundary, "q2")).isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
            assertThat(statusOf(boundary, "q3")).isEqualTo(Referencability.NOT_REFERENCABLE);
            InvocationKey q1 = InvocationKey.of(run.runId(), new ToolCallId("q1"));
            assertTtlLeft(q1, TTL);
            expire(q1);
            assertThat(boundary.records().find(run.runId(), new ToolCallId("q1")).get()).isEmpty();
        }

        @Test
        void refusesACrossRunStepOfAScriptedRun() {
            List<ScriptedRun.Step> steps = ScriptedRun.on(boundaryWith(ToolBinding.readOnly("sql-query", sql, rows)), run)
                    .call("sql-query", "{\"table\":\"orders\"}").withRunId(Fixtures.anyRunId())
                    .play();

            assertThat(steps.get(0).error()).containsExactly(ErrorCode.RUN_MISMATCH);
            assertThat(sql.executions()).isZero();
        }

        @Test
        void hidesTheStoreBehindTheAgentFacingCall() throws NoSuchMethodException {
            Type returned = ToolBoundary.class.getMethod("invoke", RunContext.class, ToolCallEnvelope.class)
                    .getGenericReturnType();

            assertThat(returned).isInstanceOf(ParameterizedType.class);
            ParameterizedType either = (ParameterizedType) returned;
            assertThat(either.getRawType()).isEqualTo(Either.class);
            assertThat(either.getActualTypeArguments()).containsExactly(BoundaryError.class, AgentResult.class);
            assertThat(AgentResult.class.getDeclaredFields())
                    .filteredOn(field -> !java.lang.reflect.Modifier.isStatic(field.getModifiers()))
                    .isNotEmpty()
                    .extracting(field -> field.getType().getPackageName())
                    .allMatch(name -> name.equals("java.lang") || name.equals("io.vavr.control")
                            || name.equals("io.toolboundary.domain"));
        }

        private Referencability statusOf(ToolBoundary boundary, String toolCallId) {
            return boundary.records().referencability(run.runId(), new ToolCallId(toolCallId)).get();
        }
    }

    @Nested
    @DisplayName("A repeated tool_call_id SHALL be compared by tool and canonical arguments (RFC 8785)")
    class CanonicalArguments {

        private final CountingExecutor sql = FakeTools.counting(FakeTools.returning(RAW));

        private ToolBoundary twoTools() {
            return boundaryWith(logSearch(executor, projector),
                    ToolBinding.readOnly("sql-query", sql, FakeProjectors.evidenceFound(RESULT)));
        }

        private Either<BoundaryError, AgentResult> repeat(ToolBoundary boundary, ToolCallEnvelope first,
                String toolName, String arguments) {
            return boundary.invoke(run, Fixtures.envelope(run).withToolCallId(first.toolCallId())
                    .withToolName(toolName).withArguments(arguments).build());
        }

        @Test
        void readsReorderedMembersAsADuplicate() {
            ToolBoundary boundary = twoTools();
            ToolCallEnvelope first = Fixtures.envelope(run)
                    .withArguments("{\"a\":1,\"b\":{\"y\":[1,2],\"x\":\"\u00e9\"}}").build();
            assertThat(boundary.invoke(run, first).isRight()).isTrue();
            CanonicalRecord stored = recordOf(boundary, first);

            Either<BoundaryError, AgentResult> reordered = repeat(boundary, first, first.toolName(),
                    "{\"b\":{\"x\":\"\\u00e9\",\"y\":[1,2]},\"a\":1}");

            assertThat(codeOf(reordered)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(recordOf(boundary, first)).isEqualTo(stored);
        }

        @Test
        void readsOneAndOnePointZeroAsADuplicate() {
            ToolBoundary boundary = twoTools();
            ToolCallEnvelope first = Fixtures.envelope(run).withArguments("{\"limit\":1,\"ratio\":1e2}").build();
            assertThat(boundary.invoke(run, first).isRight()).isTrue();

            Either<BoundaryError, AgentResult> same = repeat(boundary, first, first.toolName(),
                    "{\"limit\":1.0,\"ratio\":100}");
            Either<BoundaryError, AgentResult> other = repeat(boundary, first, first.toolName(),
                    "{\"limit\":1.5,\"ratio\":100}");

            assertThat(codeOf(same)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
            assertThat(codeOf(other)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
            assertThat(executor.executions()).isEqualTo(1);
        }

        @Test
        void readsTheSameArgumentsForAnotherToolAsAReusedIdAndNeverRunsThatTool() {
            ToolBoundary boundary = twoTools();
            ToolCallEnvelope first = Fixtures.envelope(run).withToolName("log-search")
                    .withArguments("{\"query\":\"timeout\"}").build();
            assertThat(boundary.invoke(run, first).isRight()).isTrue();
            CanonicalRecord stored = recordOf(boundary, first);

            Either<BoundaryError, AgentResult> otherTool = repeat(boundary, first, "sql-query", first.arguments());

            assertThat(codeOf(otherTool)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
            assertThat(sql.executions()).as("executions of the other tool").isZero();
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(recordOf(boundary, first)).isEqualTo(stored);
            assertThat(codeOf(repeat(boundary, first, "log-search", first.arguments())))
                    .isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        }
    }
}
