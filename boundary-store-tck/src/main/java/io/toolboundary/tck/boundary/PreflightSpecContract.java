package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.SpecState.codeOf;
import static io.toolboundary.tck.boundary.SpecState.logSearch;
import static io.toolboundary.tck.boundary.SpecValues.RAW;
import static io.toolboundary.tck.boundary.SpecValues.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requirement "ToolBoundary SHALL enforce explicit preflight before execution": every check that refuses a call before
 * the tool runs, leaving no record and no budget spent.
 */
public interface PreflightSpecContract extends StoreFixture {

    /** This test's state; the test class holds a new {@link SpecState} in a field. */
    SpecState specState();

    private SpecState spec() {
        return specState().on(this);
    }

    // Requirement: ToolBoundary SHALL enforce explicit preflight before execution

    @Test
    default void rejectsMissingToolCallId() {
        spec().assertRefused(call -> call.withToolCallId(null), ErrorCode.TOOL_CALL_ID_MISSING);
    }

    @Test
    default void rejectsBlankToolCallId() {
        spec().assertRefused(call -> call.withToolCallId("  \t"), ErrorCode.TOOL_CALL_ID_MISSING);
    }

    @ParameterizedTest
    @ValueSource(strings = {"call*1", "call 1", "call/1", "{run}:call", "call\u00e91", "call\n1"})
    default void rejectsToolCallIdWithUnsafeCharacter(String unsafe) {
        spec().assertRefused(call -> call.withToolCallId(unsafe), ErrorCode.TOOL_CALL_ID_UNSAFE);
    }

    @Test
    default void rejectsToolCallIdOf129Characters() {
        spec().assertRefused(call -> call.withToolCallId("a".repeat(129)), ErrorCode.TOOL_CALL_ID_UNSAFE);
    }

    @Test
    default void acceptsToolCallIdOf128Characters() {
        spec().assertAccepted(spec().boundary(), call -> call.withToolCallId("a".repeat(128)));

        assertThat(spec().executor.executions()).isEqualTo(1);
    }

    @Test
    @DisplayName("Cross-Run Tool Call is rejected")
    default void rejectsCrossRunCall() {
        RunContext other = Fixtures.anyRunContext();
        ToolCallEnvelope envelope = Fixtures.envelope(other).build();
        ToolBoundary boundary = spec().boundary();

        Either<BoundaryError, AgentResult> result = boundary.invoke(spec().run, envelope);

        spec().assertRefusedBeforeExecution(result, envelope, ErrorCode.RUN_MISMATCH);
        assertThat(boundary.find(other.runId(), new ToolCallId(envelope.toolCallId())).get()).isEmpty();
        assertThat(spec().find(boundary, envelope)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "run*1", "run 1", "{run-1}"})
    default void rejectsInvalidRunId(String runId) {
        spec().assertRefused(call -> call.withRunId(runId), ErrorCode.RUN_ID_INVALID);
    }

    @Test
    default void rejectsCallOfInactiveRun() {
        spec().assertRefusedBeforeExecution(spec().boundary(), spec().run.deactivated(), spec().envelope(),
                ErrorCode.RUN_INACTIVE);
    }

    @Test
    default void rejectsCallAfterTheDeadline() {
        Instant deadline = START.minusSeconds(1);
        RunContext late = spec().sameRun(deadline, RunContext.UNLIMITED);
        ToolBoundary boundary = spec().builder()
                .clock(Clock.fixed(deadline.plusMillis(1), ZoneOffset.UTC))
                .build();

        spec().assertRefusedBeforeExecution(boundary, late, spec().envelope(), ErrorCode.RUN_DEADLINE_EXCEEDED);
    }

    @Test
    default void rejectsCallAtTheDeadlineInstant() {
        RunContext due = spec().sameRun(START, RunContext.UNLIMITED);

        spec().assertRefusedBeforeExecution(spec().boundary(), due, spec().envelope(), ErrorCode.RUN_DEADLINE_EXCEEDED);
    }

    @Test
    default void rejectsUnknownTool() {
        spec().assertRefused(call -> call.withToolName("rm-rf"), ErrorCode.TOOL_NOT_REGISTERED);
    }

    @Test
    default void rejectsMissingOrUnsafeToolName() {
        spec().assertRefused(call -> call.withToolName(null), ErrorCode.TOOL_NAME_INVALID);
        spec().assertRefused(call -> call.withToolName("log search"), ErrorCode.TOOL_NAME_INVALID);
    }

    // Scenario: Unauthorized or writable Tool is rejected

    /** A call of this test's run whose arguments carry a text no refusal may show. */
    private ToolCallEnvelope secretEnvelope() {
        return spec().envelopeBuilder().withArguments("{\"query\":\"SECRET-REQUEST-TEXT\"}").build();
    }

    @Test
    default void rejectsToolTheAccessPolicyDenies() {
        ToolCallEnvelope envelope = secretEnvelope();
        ToolBoundary boundary = spec().builder(ToolBoundaryConfig.ofDefaults(), spec().logSearch(),
                ToolBinding.readOnly("sql-query", FakeTools.returning(RAW), spec().projector))
                .accessPolicy(AccessPolicy.allowOnly("sql-query"))
                .build();

        Either<BoundaryError, AgentResult> result = boundary.invoke(spec().run, envelope);

        spec().assertRefusedBeforeExecution(result, envelope, ErrorCode.TOOL_NOT_AUTHORIZED);
        assertThat(result.getLeft().toString()).doesNotContain("SECRET-REQUEST-TEXT");
    }

    @Test
    default void rejectsToolWhenTheAccessPolicyFails() {
        ToolCallEnvelope envelope = secretEnvelope();
        ToolBoundary boundary = spec().builder()
                .accessPolicy((r, tool) -> {
                    throw new IllegalStateException("policy down");
                })
                .build();

        spec().assertRefusedBeforeExecution(boundary, spec().run, envelope, ErrorCode.TOOL_NOT_AUTHORIZED);
    }

    @Test
    default void rejectsWritableTool() {
        ToolCallEnvelope envelope = secretEnvelope();
        ToolBoundary boundary =
                spec().boundaryWith(ToolBinding.writable("log-search", spec().executor, spec().projector));

        Either<BoundaryError, AgentResult> result = boundary.invoke(spec().run, envelope);

        spec().assertRefusedBeforeExecution(result, envelope, ErrorCode.TOOL_NOT_READ_ONLY);
        assertThat(result.getLeft().toString()).doesNotContain("SECRET-REQUEST-TEXT");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "null", "42", "\"query\"", "[{\"query\":\"timeout\"}]", "{\"query\":", "{query:1}"})
    default void rejectsArgumentsThatAreNotOneJsonObject(String arguments) {
        spec().assertRefused(call -> call.withArguments(arguments), ErrorCode.ARGUMENTS_INVALID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1} {\"b\":2}", "{\"a\":1}x", "{\"a\":1}]", "{\"a\":1} null"})
    default void rejectsArgumentsWithTrailingContent(String arguments) {
        spec().assertRefused(call -> call.withArguments(arguments), ErrorCode.ARGUMENTS_INVALID);
    }

    @Test
    default void acceptsArgumentsWithTrailingWhitespace() {
        spec().assertAccepted(spec().boundary(), call -> call.withArguments("{\"a\":1}\n  "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1,\"a\":2}", "{\"outer\":{\"a\":1,\"a\":1}}"})
    default void rejectsArgumentsWithDuplicateKeys(String arguments) {
        spec().assertRefused(call -> call.withArguments(arguments), ErrorCode.ARGUMENTS_INVALID);
    }

    @Test
    default void rejectsArgumentsNestedTooDeep() {
        String deep = "{\"a\":".repeat(ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH + 1) + "1"
                + "}".repeat(ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH + 1);

        spec().assertRefused(call -> call.withArguments(deep), ErrorCode.ARGUMENTS_INVALID);
    }

    @Test
    default void acceptsArgumentsNestedWithinTheLimit() {
        String nested = "{\"a\":".repeat(10) + "1" + "}".repeat(10);

        spec().assertAccepted(spec().boundary(), call -> call.withArguments(nested));
    }

    @Test
    default void rejectsArgumentsOverTheRequestLimitCountedInUtf8Bytes() {
        ToolBoundary boundary = spec().boundaryWith(ToolBoundaryConfig.custom().argumentsLimitBytes(64).build(),
                spec().logSearch());
        String overBytes = "{\"q\":\"" + "\u00e9".repeat(29) + "\"}"; // 37 chars, 66 bytes

        spec().assertRefusedBeforeExecution(boundary, spec().run,
                spec().envelopeBuilder().withArguments(overBytes).build(), ErrorCode.ARGUMENTS_TOO_LARGE);
    }

    @Test
    default void acceptsArgumentsOfExactlyTheRequestLimit() {
        ToolBoundary boundary = spec().boundaryWith(ToolBoundaryConfig.custom().argumentsLimitBytes(64).build(),
                spec().logSearch());
        String atLimit = "{\"q\":\"" + "\u00e9".repeat(28) + "\"}"; // 64 bytes

        spec().assertAccepted(boundary, call -> call.withArguments(atLimit));
    }

    @Test
    default void rejectsArgumentsThatAreNotUnicode() {
        spec().assertRefused(call -> call.withArguments("{\"q\":\"\ud800\"}"), ErrorCode.TEXT_NOT_UNICODE);
    }

    @Test
    default void rejectsCallWhenTheRunBudgetIsExhausted() {
        RunContext budgeted = spec().sameRun(Fixtures.FAR_FUTURE, 2);
        ToolBoundary boundary = spec().boundary();
        boundary.invoke(budgeted, spec().envelope());
        boundary.invoke(budgeted, spec().envelope());
        ToolCallEnvelope third = spec().envelope();

        Either<BoundaryError, AgentResult> result = boundary.invoke(budgeted, third);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.RUN_BUDGET_EXHAUSTED);
        assertThat(spec().executor.executions()).isEqualTo(2);
        assertThat(spec().find(boundary, third)).isEmpty();
    }

    @Test
    default void rejectsCallWhenTheToolBudgetIsExhaustedButLetsOtherToolsRun() {
        CountingExecutor sql = FakeTools.counting(FakeTools.returning("1 row"));
        ToolBoundary boundary = spec().boundaryWith(spec().logSearch().withCallBudgetPerRun(1),
                ToolBinding.readOnly("sql-query", sql, FakeProjectors.evidenceFound("1 row")));
        boundary.invoke(spec().run, spec().envelope());
        ToolCallEnvelope second = spec().envelope();

        Either<BoundaryError, AgentResult> result = boundary.invoke(spec().run, second);
        Either<BoundaryError, AgentResult> other = boundary.invoke(spec().run,
                spec().envelopeBuilder().withToolName("sql-query").build());

        assertThat(codeOf(result)).isEqualTo(ErrorCode.TOOL_BUDGET_EXHAUSTED);
        assertThat(spec().executor.executions()).isEqualTo(1);
        assertThat(spec().find(boundary, second)).isEmpty();
        assertThat(other.isRight()).isTrue();
        assertThat(sql.executions()).isEqualTo(1);
    }
}
