package io.toolboundary.tck;

import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.CountingExecutor;
import static org.assertj.core.api.Assertions.assertThat;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The requirements suite's groups on preflight and the complete record; run through {@link ToolBoundarySpecContract}.
 */
public abstract class SpecPreflightContract extends SpecContractSupport {
    /** For the requirements suite only. */
    SpecPreflightContract() {
    }

    @Nested
    @DisplayName("ToolBoundary SHALL enforce explicit preflight before execution")
    class ExplicitPreflight {

        @Test
        void rejectsMissingToolCallId() {
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withToolCallId(null).build(),
                    ErrorCode.TOOL_CALL_ID_MISSING);
        }

        @Test
        void rejectsBlankToolCallId() {
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withToolCallId("  \t").build(),
                    ErrorCode.TOOL_CALL_ID_MISSING);
        }

        @ParameterizedTest
        @ValueSource(strings = {"call*1", "call 1", "call/1", "{run}:call", "call\u00e91", "call\n1"})
        void rejectsToolCallIdWithUnsafeCharacter(String unsafe) {
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withToolCallId(unsafe).build(),
                    ErrorCode.TOOL_CALL_ID_UNSAFE);
        }

        @Test
        void rejectsToolCallIdOf129Characters() {
            assertRefusedBeforeExecution(boundary(), run,
                    Fixtures.envelope(run).withToolCallId("a".repeat(129)).build(),
                    ErrorCode.TOOL_CALL_ID_UNSAFE);
        }

        @Test
        void acceptsToolCallIdOf128Characters() {
            ToolCallEnvelope envelope = Fixtures.envelope(run).withToolCallId("a".repeat(128)).build();

            assertThat(boundary().invoke(run, envelope).isRight()).isTrue();
            assertThat(executor.executions()).isEqualTo(1);
        }

        @Test
        @DisplayName("Cross-Run Tool Call is rejected")
        void rejectsCrossRunCall() {
            RunContext other = Fixtures.anyRunContext();
            ToolCallEnvelope envelope = Fixtures.envelope(other).build();
            ToolBoundary boundary = boundary();

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

            assertRefusedBeforeExecution(result, envelope, ErrorCode.RUN_MISMATCH);
            assertThat(boundary.records().find(other.runId(), new ToolCallId(envelope.toolCallId())).get()).isEmpty();
            assertThat(find(boundary, envelope)).isEmpty();
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "run*1", "run 1", "{run-1}"})
        void rejectsInvalidRunId(String runId) {
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withRunId(runId).build(),
                    ErrorCode.RUN_ID_INVALID);
        }

        @Test
        void rejectsCallOfInactiveRun() {
            assertRefusedBeforeExecution(boundary(), run.deactivated(), envelope(), ErrorCode.RUN_INACTIVE);
        }

        @Test
        void rejectsCallAfterTheDeadline() {
            Instant deadline = START.minusSeconds(1);
            RunContext late = sameRun(deadline, RunContext.UNLIMITED);
            ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(), logSearch(executor, projector))
                    .clock(Clock.fixed(deadline.plusMillis(1), ZoneOffset.UTC))
                    .build();

            assertRefusedBeforeExecution(boundary, late, envelope(), ErrorCode.RUN_DEADLINE_EXCEEDED);
        }

        @Test
        void rejectsCallAtTheDeadlineInstant() {
            RunContext due = sameRun(START, RunContext.UNLIMITED);

            assertRefusedBeforeExecution(boundary(), due, envelope(), ErrorCode.RUN_DEADLINE_EXCEEDED);
        }

        @Test
        void rejectsUnknownTool() {
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withToolName("rm-rf").build(),
                    ErrorCode.TOOL_NOT_REGISTERED);
        }

        @Test
        void rejectsMissingOrUnsafeToolName() {
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withToolName(null).build(),
                    ErrorCode.TOOL_NAME_INVALID);
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withToolName("log search").build(),
                    ErrorCode.TOOL_NAME_INVALID);
        }

        @Nested
        @DisplayName("Unauthorized or writable Tool is rejected")
        class UnauthorizedOrWritable {

            /** Made once the outer suite has opened {@code run}: a nested instance is built before that. */
            private ToolCallEnvelope envelope;

            @BeforeEach
            void makeTheEnvelope() {
                envelope = Fixtures.envelope(run).withArguments("{\"query\":\"SECRET-REQUEST-TEXT\"}").build();
            }

            @Test
            void rejectsToolTheAccessPolicyDenies() {
                ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(), logSearch(executor, projector),
                        ToolBinding.readOnly("sql-query", FakeTools.returning(RAW), projector))
                        .accessPolicy(AccessPolicy.allowOnly("sql-query"))
                        .build();

                Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

                assertRefusedBeforeExecution(result, envelope, ErrorCode.TOOL_NOT_AUTHORIZED);
                assertThat(result.getLeft().toString()).doesNotContain("SECRET-REQUEST-TEXT");
            }

            @Test
            void rejectsToolWhenTheAccessPolicyFails() {
                ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(), logSearch(executor, projector))
                        .accessPolicy((r, tool) -> {
                            throw new IllegalStateException("policy down");
                        })
                        .build();

                assertRefusedBeforeExecution(boundary, run, envelope, ErrorCode.TOOL_NOT_AUTHORIZED);
            }

            @Test
            void rejectsWritableTool() {
                ToolBoundary boundary = boundaryWith(ToolBinding.writable("log-search", executor, projector));

                Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

                assertRefusedBeforeExecution(result, envelope, ErrorCode.TOOL_NOT_READ_ONLY);
                assertThat(result.getLeft().toString()).doesNotContain("SECRET-REQUEST-TEXT");
            }
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "null", "42", "\"query\"", "[{\"query\":\"timeout\"}]", "{\"query\":", "{query:1}"})
        void rejectsArgumentsThatAreNotOneJsonObject(String arguments) {
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withArguments(arguments).build(),
                    ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{\"a\":1} {\"b\":2}", "{\"a\":1}x", "{\"a\":1}]", "{\"a\":1} null"})
        void rejectsArgumentsWithTrailingContent(String arguments) {
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withArguments(arguments).build(),
                    ErrorCode.ARGUMENTS_INVALID);
        }

        @Test
        void acceptsArgumentsWithTrailingWhitespace() {
            assertThat(boundary().invoke(run, Fixtures.envelope(run).withArguments("{\"a\":1}\n  ").build()).isRight())
                    .isTrue();
        }

        @ParameterizedTest
        @ValueSource(strings = {"{\"a\":1,\"a\":2}", "{\"outer\":{\"a\":1,\"a\":1}}"})
        void rejectsArgumentsWithDuplicateKeys(String arguments) {
            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withArguments(arguments).build(),
                    ErrorCode.ARGUMENTS_INVALID);
        }

        @Test
        void rejectsArgumentsNestedTooDeep() {
            String deep = "{\"a\":".repeat(ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH + 1) + "1"
                    + "}".repeat(ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH + 1);

            assertRefusedBeforeExecution(boundary(), run, Fixtures.envelope(run).withArguments(deep).build(),
                    ErrorCode.ARGUMENTS_INVALID);
        }

        @Test
        void acceptsArgumentsNestedWithinTheLimit() {
            String nested = "{\"a\":".repeat(10) + "1" + "}".repeat(10);

            assertThat(boundary().invoke(run, Fixtures.envelope(run).withArguments(nested).build()).isRight()).isTrue();
        }

        @Test
        void rejectsArgumentsOverTheRequestLimitCountedInUtf8Bytes() {
            ToolBoundary boundary = boundaryWith(ToolBoundaryConfig.custom().argumentsLimitBytes(64).build(),
                    logSearch(executor, projector));
            String overBytes = "{\"q\":\"" + "\u00e9".repeat(29) + "\"}"; // 37 chars, 66 bytes

            assertRefusedBeforeExecution(boundary, run, Fixtures.envelope(run).withArguments(overBytes).build(),
                    ErrorCode.ARGUMENTS_TOO_LARGE);
        }

        @Test
        void acceptsArgumentsOfExactlyTheRequestLimit() {
            ToolBoundary boundary = boundaryWith(ToolBoundaryConfig.custom().argumentsLimitBytes(64).build(),
                    logSearch(executor, projector));
            String atLimit = "{\"q\":\"" + "\u00e9".repeat(28) + "\"}"; // 64 bytes

            assertThat(boundary.invoke(run, Fixtures.envelope(run).withArguments(atLimit).build()).isRight()).isTrue();
        }

        @Test
        void rejectsArgumentsThatAreNotUnicode() {
            assertRefusedBeforeExecution(boundary(), run,
                    Fixtures.envelope(run).withArguments("{\"q\":\"\ud800\"}").build(),
                    ErrorCode.TEXT_NOT_UNICODE);
        }

        @Test
        void rejectsCallWhenTheRunBudgetIsExhausted() {
            RunContext budgeted = sameRun(Fixtures.FAR_FUTURE, 2);
            ToolBoundary boundary = boundary();
            boundary.invoke(budgeted, envelope());
            boundary.invoke(budgeted, envelope());
            ToolCallEnvelope third = envelope();

            Either<BoundaryError, AgentResult> result = boundary.invoke(budgeted, third);

            assertThat(codeOf(result)).isEqualTo(ErrorCode.RUN_BUDGET_EXHAUSTED);
            assertThat(executor.executions()).isEqualTo(2);
            assertThat(find(boundary, third)).isEmpty();
        }

        @Test
        void rejectsCallWhenTheToolBudgetIsExhaustedButLetsOtherToolsRun() {
            CountingExecutor sql = FakeTools.counting(FakeTools.returning("1 row"));
            ToolBoundary boundary = boundaryWith(logSearch(executor, projector).withCallBudgetPerRun(1),
                    ToolBinding.readOnly("sql-query", sql, FakeProjectors.evidenceFound("1 row")));
            boundary.invoke(run, envelope());
            ToolCallEnvelope second = envelope();

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, second);
            Either<BoundaryError, AgentResult> other = boundary.invoke(run,
                    Fixtures.envelope(run).withToolName("sql-query").build());

            assertThat(codeOf(result)).isEqualTo(ErrorCode.TOOL_BUDGET_EXHAUSTED);
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(find(boundary, second)).isEmpty();
            assertThat(other.isRight()).isTrue();
            assertThat(sql.executions()).isEqualTo(1);
        }
    }

    @Nested
    @DisplayName("Canonical invocation SHALL keep complete data in one record")
    class CompleteDataInOneRecord {

        @Test
        @DisplayName("Tool begins execution")
        void createsProjectingRecordBeforeTheToolRuns() {
            String arguments = "{ \"query\" : \"timeout\",\n  \"limit\": 5.0 }";
            ToolCallEnvelope envelope = Fixtures.envelope(run).withToolCallId("call_AbC-1.2:3").withArguments(arguments)
                    .build();
            AtomicReference<Option<CanonicalRecord>> seenByTool = new AtomicReference<>();
            ToolBoundary boundary = boundaryWith(logSearch(request -> {
                seenByTool.set(store().find(request.key()).get());
                return RAW;
            }, projector));

            boundary.invoke(run, envelope);

            CanonicalRecord during = seenByTool.get().getOrElseThrow(() -> new AssertionError("no record while running"));
            assertThat(during.status()).isEqualTo(InvocationStatus.PROJECTING);
            assertThat(during.arguments()).isEqualTo(arguments);
            assertThat(during.key().toolCallId().value()).isEqualTo("call_AbC-1.2:3");
            assertThat(during.key().runId()).isEqualTo(run.runId());
            assertThat(during.tool().value()).isEqualTo("log-search");
            assertThat(during.createdAt()).isEqualTo(START);
            assertThat(during.agentResult()).isEmpty();
            assertThat(during.rawResponse()).isEmpty();
            assertThat(during.evidence()).isEmpty();
            assertThat(during.errorCode()).isEmpty();
            assertThat(during.referencability()).isEqualTo(Referencability.NOT_REFERENCABLE);
        }

        @Test
        @DisplayName("Projector succeeds")
        void completesTheSameRecordReadyAndReturnsOnlyTheBoundedResult() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundary();

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

            assertThat(result.isRight()).isTrue();
            assertThat(result.get()).isEqualTo(new AgentResult(RESULT, EvidenceStatus.EVIDENCE_FOUND, Option.none()));
            assertThat(result.get().content()).doesNotContain(RAW);
            CanonicalRecord record = recordOf(boundary, envelope);
            assertThat(record.status()).isEqualTo(InvocationStatus.READY);
            assertThat(record.rawResponse()).containsExactly(RAW);
            assertThat(record.agentResult()).containsExactly(result.get());
            assertThat(record.arguments()).isEqualTo(envelope.arguments());
            assertThat(executor.executions()).isEqualTo(1);
            assertThat(projector.projections()).isEqualTo(1);
        }

        @Test
        void keepsEveryFieldOfTheInvocationInOneRecord() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundaryWith(logSearch(request -> {
                clock.advance(Duration.ofSeconds(5));
                return RAW;
            }, projector));

            boundary.invoke(run, envelope);

            CanonicalRecord record = recordOf(boundary, envelope);
            assertThat(record.key()).isEqualTo(keyOf(envelope));
            assertThat(record.tool().value()).isEqualTo("log-search");
            assertThat(record.arguments()).isEqualTo(envelope.arguments());
            assertThat(record.rawResponse()).containsExactly(RAW);
            assertThat(record.agentResult().map(AgentResult::content)).containsExactly(RESULT);
            assertThat(record.status()).isEqualTo(InvocationStatus.READY);
            assertThat(record.evidence()).containsExactly(EvidenceStatus.EVIDENCE_FOUND);
            assertThat(record.errorCode()).isEmpty();
            assertThat(record.createdAt()).isEqualTo(START);
            assertThat(record.updatedAt()).isEqualTo(START.plusSeconds(5));
        }

        @Test
        void keepsTheCompleteRawResponseNeverAPreview() {
            String raw = Fixtures.textOfUtf8Bytes(500_000);
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundaryWith(logSearch(FakeTools.returning(raw), projector));

            Either<BoundaryError, AgentResult> result = boundary.invoke(run, envelope);

            assertThat(result.get().content()).isEqualTo(RESULT);
            assertThat(recordOf(boundary, envelope).rawResponse().get()).isEqualTo(raw);
        }

        @Test
        void keepsTheErrorCodeInTheRecordOfAFailedCall() {
            ToolCallEnvelope envelope = envelope();
            ToolBoundary boundary = boundaryWith(logSearch(FakeTools.throwing("down"), projector));

            boundary.invoke(run, envelope);

            CanonicalRecord record = recordOf(boundary, envelope);
            assertFailed(record, ErrorCode.EXECUTION_FAILED);
            assertThat(record.arguments()).isEqualTo(envelope.arguments());
        }
    }
}
