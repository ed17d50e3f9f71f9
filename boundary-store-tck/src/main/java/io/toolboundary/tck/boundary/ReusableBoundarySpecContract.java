package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.SpecState.logSearch;
import static io.toolboundary.tck.boundary.SpecValues.RESULT;
import static io.toolboundary.tck.boundary.SpecValues.SQL_RAW_LIMIT;
import static io.toolboundary.tck.boundary.SpecValues.TTL;
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
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.ScriptedRun;
import io.vavr.control.Either;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Requirement "Stage 3A SHALL remain reusable and independent from legacy audit": a second tool plugs in by
 * registration only.
 */
public interface ReusableBoundarySpecContract extends StoreFixture {

    /** This test's state; the test class holds a new {@link SpecState} in a field. */
    SpecState specState();

    private SpecState spec() {
        return specState().on(this);
    }

    // Requirement: Stage 3A SHALL remain reusable and independent from legacy audit

    /** A second tool with its own executor, plugged in by registration only; a new one for each test. */
    private static CountingExecutor sqlTool() {
        return FakeTools.counting(request -> {
            String arguments = request.arguments();
            if (arguments.contains("broken")) {
                throw new SQLException("relation does not exist");
            }
            if (arguments.contains("huge")) {
                return Fixtures.textOfUtf8Bytes(SQL_RAW_LIMIT + 1);
            }
            return arguments.contains("orders") ? "id,total\n1,10.00\n2,12.50\n" : "id,total\n";
        });
    }

    /** The second tool's projector. */
    private static Projector rowCounter() {
        return (ToolRequest request, String raw) -> {
            long count = raw.lines().count() - 1;
            return count > 0
                    ? Projection.evidenceFound(count + " rows", "the queried table")
                    : Projection.noEvidence("0 rows", "the queried table");
        };
    }

    @Test
    @DisplayName("Fake projector tests pass")
    default void aSecondToolPlugsInWithoutAnyStoreOrLifecycleCode() {
        CountingExecutor sql = sqlTool();
        Projector rows = rowCounter();
        ToolBoundary boundary = spec().boundaryWith(
                ToolBoundaryConfig.custom().rawResponseLimitBytes(SQL_RAW_LIMIT).build(),
                spec().logSearch(),
                ToolBinding.readOnly("sql-query", sql, rows));

        List<ScriptedRun.Step> steps = ScriptedRun.on(boundary, spec().run)
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
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(statusOf(boundary, "q1")).isEqualTo(Referencability.CITABLE_EVIDENCE);
        assertThat(statusOf(boundary, "q2")).isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
        assertThat(statusOf(boundary, "q3")).isEqualTo(Referencability.NOT_REFERENCABLE);
        InvocationKey q1 = InvocationKey.of(spec().run.runId(), new ToolCallId("q1"));
        spec().assertTtlLeft(q1, TTL);
        expire(q1);
        assertThat(boundary.find(spec().run.runId(), new ToolCallId("q1")).get()).isEmpty();
    }

    @Test
    default void refusesACrossRunStepOfAScriptedRun() {
        CountingExecutor sql = sqlTool();
        Projector rows = rowCounter();
        ToolBoundary boundary = spec().boundaryWith(ToolBinding.readOnly("sql-query", sql, rows));
        List<ScriptedRun.Step> steps = ScriptedRun.on(boundary, spec().run)
                .call("sql-query", "{\"table\":\"orders\"}").withRunId(Fixtures.anyRunId())
                .play();

        assertThat(steps.get(0).error()).containsExactly(ErrorCode.RUN_MISMATCH);
        assertThat(sql.executions()).isZero();
    }

    @Test
    default void hidesTheStoreBehindTheAgentFacingCall() throws NoSuchMethodException {
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
        return boundary.referencability(spec().run.runId(), new ToolCallId(toolCallId)).get();
    }
}
