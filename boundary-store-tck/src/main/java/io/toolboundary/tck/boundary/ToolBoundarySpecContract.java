package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.SpecValues.RAW;
import static io.toolboundary.tck.boundary.SpecValues.RAW_LIMIT;
import static io.toolboundary.tck.boundary.SpecValues.RESULT;
import static io.toolboundary.tck.boundary.SpecValues.SQL_RAW_LIMIT;
import static io.toolboundary.tck.boundary.SpecValues.START;
import static io.toolboundary.tck.boundary.SpecValues.STORE_TIME_PATIENCE;
import static io.toolboundary.tck.boundary.SpecValues.STORE_TIME_STEP;
import static io.toolboundary.tck.boundary.SpecValues.TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.DuplicateCallPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.RunOpening;
import io.toolboundary.application.StoreFailure;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolFailure;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.Completion;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.Refusal;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.FaultyStores;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.CountingProjector;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.toolboundary.testkit.ScriptedRun;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every Requirement and Scenario of the canonical tool invocation store, run through a
 * {@link ToolBoundary} on the store the test class supplies. A comment with the Requirement's exact
 * title heads each group of tests; a test named after a Scenario carries its exact title.
 *
 * <p>A test class runs it by implementing this interface and {@link #store()}, {@link #clock()} (a new
 * {@link MutableClock} at {@link SpecValues#START} for each test, which the boundaries read),
 * {@link #remainingTtl(InvocationKey)}, {@link #expire(InvocationKey)},
 * {@link #storeExpiresOnTheSuiteClock()} and {@link #specState()}. How time and TTLs are checked is
 * explained in docs/store-tck.md.
 */
public interface ToolBoundarySpecContract extends StoreFixture {

    /**
     * This test's state; the test class holds a new {@link SpecState} in a field.
     *
     * @return this test's run, tool, projector and budget probe
     */
    SpecState specState();

    private RunContext run() {
        return specState().run();
    }

    private CountingExecutor executor() {
        return specState().executor();
    }

    private CountingProjector projector() {
        return specState().projector();
    }

    private CountingExecutor budgetProbe() {
        return specState().budgetProbe();
    }

    private List<CanonicalRecord.Ready> replayed() {
        return specState().replayed();
    }

    // ---------------------------------------------------------------------------------------------
    // Steps the tests share
    // ---------------------------------------------------------------------------------------------

    /** Opens this test's run in the store before the test begins. */
    @BeforeEach
    default void openTheTestsRun() {
        assertThat(store().openRun(new RunOpening(run().runId(), run().runToken().get(), Duration.ofDays(365)), TIMEOUT))
                .as("open this test's run").isEqualTo(Either.right(run().runToken().get()));
    }

    /** A run no other test uses, opened in {@link #store()}. */
    private RunContext openedRunContext() {
        return Fixtures.opened(boundary(), Fixtures.anyRunContext());
    }

    /** This test's run, as opened, with another deadline and budget. */
    private RunContext sameRun(Instant deadline, int callBudget) {
        return new RunContext(run().runId(), true, deadline, callBudget, run().runToken());
    }

    private ToolBoundary boundary() {
        return boundaryWith(logSearch(executor(), projector()));
    }

    private ToolBoundary boundaryWith(ToolBinding... tools) {
        return boundaryWith(ToolBoundaryConfig.ofDefaults(), tools);
    }

    private ToolBoundary boundaryWith(ToolBoundaryConfig config, ToolBinding... tools) {
        return builder(config, tools).build();
    }

    private ToolBoundaryBuilder builder(ToolBoundaryConfig config, ToolBinding... tools) {
        return builderOn(store(), config, tools);
    }

    private ToolBoundaryBuilder builderOn(CanonicalInvocationStore store, ToolBoundaryConfig config,
            ToolBinding... tools) {
        ToolBoundaryBuilder builder = ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .clock(clock())
                .config(config);
        for (ToolBinding tool : tools) {
            builder.tool(tool);
        }
        return builder;
    }

    private static ToolBinding logSearch(ToolExecutor executor, Projector projector) {
        return ToolBinding.readOnly("log-search", executor, projector);
    }

    private ToolCallEnvelope envelope() {
        return Fixtures.envelope(run()).build();
    }

    private InvocationKey keyOf(ToolCallEnvelope envelope) {
        return InvocationKey.of(run().runId(), new ToolCallId(envelope.toolCallId()));
    }

    private Option<CanonicalRecord> find(ToolBoundary boundary, ToolCallEnvelope envelope) {
        return boundary.records().find(run().runId(), new ToolCallId(envelope.toolCallId())).get();
    }

    private CanonicalRecord recordOf(ToolBoundary boundary, ToolCallEnvelope envelope) {
        return find(boundary, envelope).getOrElseThrow(() -> new AssertionError("no record for " + envelope));
    }

    private void assertRefusedBeforeExecution(ToolBoundary boundary, RunContext context, ToolCallEnvelope envelope,
            ErrorCode code) {
        assertRefusedBeforeExecution(boundary.invoke(context, envelope), envelope, code);
    }

    /**
     * The call was refused before anything happened: the code, no execution, no projection, no record
     * under its key (in this test's run or the run the envelope claims), and no budget reserved.
     */
    private void assertRefusedBeforeExecution(Either<BoundaryError, AgentResult> result, ToolCallEnvelope envelope,
            ErrorCode code) {
        assertThat(result.isLeft()).as("refused").isTrue();
        assertThat(result.getLeft().code()).isEqualTo(code);
        assertThat(executor().executions()).as("executions").isZero();
        assertThat(projector().projections()).as("projections").isZero();
        ToolCallId.of(envelope.toolCallId()).forEach(toolCallId -> {
            assertThat(store().find(InvocationKey.of(run().runId(), toolCallId), TIMEOUT).get())
                    .as("record under the run's key").isEmpty();
            RunId.of(envelope.runId()).forEach(claimed -> assertThat(
                    store().find(InvocationKey.of(claimed, toolCallId), TIMEOUT).get())
                    .as("record under the claimed run's key").isEmpty());
        });
        assertNoBudgetReserved();
    }

    /**
     * A later call of this test's run still runs when the run and the tool allow exactly one call more
     * than the probes before it: nothing else used their budgets.
     */
    private void assertNoBudgetReserved() {
        int allowed = budgetProbe().executions() + 1;
        ToolBoundary probing = boundaryWith(
                logSearch(budgetProbe(), FakeProjectors.evidenceFound(RESULT)).withCallBudgetPerRun(allowed));

        Either<BoundaryError, AgentResult> later = probing.invoke(
                sameRun(Fixtures.FAR_FUTURE, allowed), envelope());

        assertThat(later.isRight()).as("a later call within the budget left, got %s", later).isTrue();
    }

    private static ErrorCode codeOf(Either<BoundaryError, AgentResult> result) {
        assertThat(result.isLeft()).as("the call failed").isTrue();
        return result.getLeft().code();
    }

    private static void assertFailed(CanonicalRecord record, ErrorCode code) {
        assertThat(record.status()).isEqualTo(InvocationStatus.ERROR);
        assertThat(record.evidence()).containsExactly(EvidenceStatus.ERROR);
        assertThat(record.errorCode()).containsExactly(code);
        assertThat(record.agentResult()).isEmpty();
        assertThat(record.referencability()).isEqualTo(Referencability.NOT_REFERENCABLE);
    }

    /**
     * The record's remaining TTL once the store's own time has moved {@link #STORE_TIME_STEP} past its
     * creation, so that a renewal would show as a larger TTL: at once on a store that follows the clock
     * the test has moved; on a server, after polling it for a few milliseconds of its own time.
     */
    private Duration ttlOnceStoreTimeMoved(InvocationKey key) {
        Duration movedOn = TTL.minus(STORE_TIME_STEP);
        long giveUpAt = System.nanoTime() + STORE_TIME_PATIENCE.toNanos();
        while (true) {
            Duration left = remainingTtl(key).getOrElseThrow(() -> new AssertionError("no live record under " + key));
            if (left.compareTo(movedOn) <= 0) {
                return left;
            }
            assertThat(System.nanoTime() - giveUpAt).as("the store's time moved within %s", STORE_TIME_PATIENCE)
                    .isNegative();
            Thread.onSpinWait();
        }
    }

    /** The record is live with at most {@code bySuiteClock} left, exactly that when the store follows the clock. */
    private void assertTtlLeft(InvocationKey key, Duration bySuiteClock) {
        Option<Duration> left = remainingTtl(key);
        assertThat(left).as("remaining TTL of a live record").isNotEmpty();
        assertThat(left.get()).isPositive().isLessThanOrEqualTo(TTL);
        if (storeExpiresOnTheSuiteClock()) {
            assertThat(left.get()).isEqualTo(bySuiteClock);
        }
    }

    // Requirement: ToolBoundary SHALL enforce explicit preflight before execution

    @Test
    default void rejectsMissingToolCallId() {
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withToolCallId(null).build(),
                ErrorCode.TOOL_CALL_ID_MISSING);
    }

    @Test
    default void rejectsBlankToolCallId() {
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withToolCallId("  \t").build(),
                ErrorCode.TOOL_CALL_ID_MISSING);
    }

    @ParameterizedTest
    @ValueSource(strings = {"call*1", "call 1", "call/1", "{run}:call", "call\u00e91", "call\n1"})
    default void rejectsToolCallIdWithUnsafeCharacter(String unsafe) {
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withToolCallId(unsafe).build(),
                ErrorCode.TOOL_CALL_ID_UNSAFE);
    }

    @Test
    default void rejectsToolCallIdOf129Characters() {
        assertRefusedBeforeExecution(boundary(), run(),
                Fixtures.envelope(run()).withToolCallId("a".repeat(129)).build(),
                ErrorCode.TOOL_CALL_ID_UNSAFE);
    }

    @Test
    default void acceptsToolCallIdOf128Characters() {
        ToolCallEnvelope envelope = Fixtures.envelope(run()).withToolCallId("a".repeat(128)).build();

        assertThat(boundary().invoke(run(), envelope).isRight()).isTrue();
        assertThat(executor().executions()).isEqualTo(1);
    }

    @Test
    @DisplayName("Cross-Run Tool Call is rejected")
    default void rejectsCrossRunCall() {
        RunContext other = Fixtures.anyRunContext();
        ToolCallEnvelope envelope = Fixtures.envelope(other).build();
        ToolBoundary boundary = boundary();

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertRefusedBeforeExecution(result, envelope, ErrorCode.RUN_MISMATCH);
        assertThat(boundary.records().find(other.runId(), new ToolCallId(envelope.toolCallId())).get()).isEmpty();
        assertThat(find(boundary, envelope)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "run*1", "run 1", "{run-1}"})
    default void rejectsInvalidRunId(String runId) {
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withRunId(runId).build(),
                ErrorCode.RUN_ID_INVALID);
    }

    @Test
    default void rejectsCallOfInactiveRun() {
        assertRefusedBeforeExecution(boundary(), run().deactivated(), envelope(), ErrorCode.RUN_INACTIVE);
    }

    @Test
    default void rejectsCallAfterTheDeadline() {
        Instant deadline = START.minusSeconds(1);
        RunContext late = sameRun(deadline, RunContext.UNLIMITED);
        ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(), logSearch(executor(), projector()))
                .clock(Clock.fixed(deadline.plusMillis(1), ZoneOffset.UTC))
                .build();

        assertRefusedBeforeExecution(boundary, late, envelope(), ErrorCode.RUN_DEADLINE_EXCEEDED);
    }

    @Test
    default void rejectsCallAtTheDeadlineInstant() {
        RunContext due = sameRun(START, RunContext.UNLIMITED);

        assertRefusedBeforeExecution(boundary(), due, envelope(), ErrorCode.RUN_DEADLINE_EXCEEDED);
    }

    @Test
    default void rejectsUnknownTool() {
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withToolName("rm-rf").build(),
                ErrorCode.TOOL_NOT_REGISTERED);
    }

    @Test
    default void rejectsMissingOrUnsafeToolName() {
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withToolName(null).build(),
                ErrorCode.TOOL_NAME_INVALID);
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withToolName("log search").build(),
                ErrorCode.TOOL_NAME_INVALID);
    }

    // Scenario: Unauthorized or writable Tool is rejected

    /** A call of this test's run whose arguments carry a text no refusal may show. */
    private ToolCallEnvelope secretEnvelope() {
        return Fixtures.envelope(run()).withArguments("{\"query\":\"SECRET-REQUEST-TEXT\"}").build();
    }

    @Test
    default void rejectsToolTheAccessPolicyDenies() {
        ToolCallEnvelope envelope = secretEnvelope();
        ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(), logSearch(executor(), projector()),
                ToolBinding.readOnly("sql-query", FakeTools.returning(RAW), projector()))
                .accessPolicy(AccessPolicy.allowOnly("sql-query"))
                .build();

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertRefusedBeforeExecution(result, envelope, ErrorCode.TOOL_NOT_AUTHORIZED);
        assertThat(result.getLeft().toString()).doesNotContain("SECRET-REQUEST-TEXT");
    }

    @Test
    default void rejectsToolWhenTheAccessPolicyFails() {
        ToolCallEnvelope envelope = secretEnvelope();
        ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(), logSearch(executor(), projector()))
                .accessPolicy((r, tool) -> {
                    throw new IllegalStateException("policy down");
                })
                .build();

        assertRefusedBeforeExecution(boundary, run(), envelope, ErrorCode.TOOL_NOT_AUTHORIZED);
    }

    @Test
    default void rejectsWritableTool() {
        ToolCallEnvelope envelope = secretEnvelope();
        ToolBoundary boundary = boundaryWith(ToolBinding.writable("log-search", executor(), projector()));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertRefusedBeforeExecution(result, envelope, ErrorCode.TOOL_NOT_READ_ONLY);
        assertThat(result.getLeft().toString()).doesNotContain("SECRET-REQUEST-TEXT");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "null", "42", "\"query\"", "[{\"query\":\"timeout\"}]", "{\"query\":", "{query:1}"})
    default void rejectsArgumentsThatAreNotOneJsonObject(String arguments) {
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withArguments(arguments).build(),
                ErrorCode.ARGUMENTS_INVALID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1} {\"b\":2}", "{\"a\":1}x", "{\"a\":1}]", "{\"a\":1} null"})
    default void rejectsArgumentsWithTrailingContent(String arguments) {
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withArguments(arguments).build(),
                ErrorCode.ARGUMENTS_INVALID);
    }

    @Test
    default void acceptsArgumentsWithTrailingWhitespace() {
        assertThat(boundary().invoke(run(), Fixtures.envelope(run()).withArguments("{\"a\":1}\n  ").build()).isRight())
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1,\"a\":2}", "{\"outer\":{\"a\":1,\"a\":1}}"})
    default void rejectsArgumentsWithDuplicateKeys(String arguments) {
        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withArguments(arguments).build(),
                ErrorCode.ARGUMENTS_INVALID);
    }

    @Test
    default void rejectsArgumentsNestedTooDeep() {
        String deep = "{\"a\":".repeat(ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH + 1) + "1"
                + "}".repeat(ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH + 1);

        assertRefusedBeforeExecution(boundary(), run(), Fixtures.envelope(run()).withArguments(deep).build(),
                ErrorCode.ARGUMENTS_INVALID);
    }

    @Test
    default void acceptsArgumentsNestedWithinTheLimit() {
        String nested = "{\"a\":".repeat(10) + "1" + "}".repeat(10);

        assertThat(boundary().invoke(run(), Fixtures.envelope(run()).withArguments(nested).build()).isRight()).isTrue();
    }

    @Test
    default void rejectsArgumentsOverTheRequestLimitCountedInUtf8Bytes() {
        ToolBoundary boundary = boundaryWith(ToolBoundaryConfig.custom().argumentsLimitBytes(64).build(),
                logSearch(executor(), projector()));
        String overBytes = "{\"q\":\"" + "\u00e9".repeat(29) + "\"}"; // 37 chars, 66 bytes

        assertRefusedBeforeExecution(boundary, run(), Fixtures.envelope(run()).withArguments(overBytes).build(),
                ErrorCode.ARGUMENTS_TOO_LARGE);
    }

    @Test
    default void acceptsArgumentsOfExactlyTheRequestLimit() {
        ToolBoundary boundary = boundaryWith(ToolBoundaryConfig.custom().argumentsLimitBytes(64).build(),
                logSearch(executor(), projector()));
        String atLimit = "{\"q\":\"" + "\u00e9".repeat(28) + "\"}"; // 64 bytes

        assertThat(boundary.invoke(run(), Fixtures.envelope(run()).withArguments(atLimit).build()).isRight()).isTrue();
    }

    @Test
    default void rejectsArgumentsThatAreNotUnicode() {
        assertRefusedBeforeExecution(boundary(), run(),
                Fixtures.envelope(run()).withArguments("{\"q\":\"\ud800\"}").build(),
                ErrorCode.TEXT_NOT_UNICODE);
    }

    @Test
    default void rejectsCallWhenTheRunBudgetIsExhausted() {
        RunContext budgeted = sameRun(Fixtures.FAR_FUTURE, 2);
        ToolBoundary boundary = boundary();
        boundary.invoke(budgeted, envelope());
        boundary.invoke(budgeted, envelope());
        ToolCallEnvelope third = envelope();

        Either<BoundaryError, AgentResult> result = boundary.invoke(budgeted, third);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.RUN_BUDGET_EXHAUSTED);
        assertThat(executor().executions()).isEqualTo(2);
        assertThat(find(boundary, third)).isEmpty();
    }

    @Test
    default void rejectsCallWhenTheToolBudgetIsExhaustedButLetsOtherToolsRun() {
        CountingExecutor sql = FakeTools.counting(FakeTools.returning("1 row"));
        ToolBoundary boundary = boundaryWith(logSearch(executor(), projector()).withCallBudgetPerRun(1),
                ToolBinding.readOnly("sql-query", sql, FakeProjectors.evidenceFound("1 row")));
        boundary.invoke(run(), envelope());
        ToolCallEnvelope second = envelope();

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), second);
        Either<BoundaryError, AgentResult> other = boundary.invoke(run(),
                Fixtures.envelope(run()).withToolName("sql-query").build());

        assertThat(codeOf(result)).isEqualTo(ErrorCode.TOOL_BUDGET_EXHAUSTED);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(find(boundary, second)).isEmpty();
        assertThat(other.isRight()).isTrue();
        assertThat(sql.executions()).isEqualTo(1);
    }

    // Requirement: Canonical invocation SHALL keep complete data in one record

    @Test
    @DisplayName("Tool begins execution")
    default void createsProjectingRecordBeforeTheToolRuns() {
        String arguments = "{ \"query\" : \"timeout\",\n  \"limit\": 5.0 }";
        ToolCallEnvelope envelope = Fixtures.envelope(run()).withToolCallId("call_AbC-1.2:3").withArguments(arguments)
                .build();
        AtomicReference<Option<CanonicalRecord>> seenByTool = new AtomicReference<>();
        ToolBoundary boundary = boundaryWith(logSearch(request -> {
            seenByTool.set(store().find(request.key(), TIMEOUT).get());
            return RAW;
        }, projector()));

        boundary.invoke(run(), envelope);

        CanonicalRecord during = seenByTool.get().getOrElseThrow(() -> new AssertionError("no record while running"));
        assertThat(during.status()).isEqualTo(InvocationStatus.PROJECTING);
        assertThat(during.arguments()).isEqualTo(arguments);
        assertThat(during.key().toolCallId().value()).isEqualTo("call_AbC-1.2:3");
        assertThat(during.key().runId()).isEqualTo(run().runId());
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
    default void completesTheSameRecordReadyAndReturnsOnlyTheBoundedResult() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundary();

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(result.isRight()).isTrue();
        assertThat(result.get()).isEqualTo(new AgentResult(RESULT, EvidenceStatus.EVIDENCE_FOUND, Option.none()));
        assertThat(result.get().content()).doesNotContain(RAW);
        CanonicalRecord record = recordOf(boundary, envelope);
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.rawResponse()).containsExactly(RAW);
        assertThat(record.agentResult()).containsExactly(result.get());
        assertThat(record.arguments()).isEqualTo(envelope.arguments());
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(projector().projections()).isEqualTo(1);
    }

    @Test
    default void keepsEveryFieldOfTheInvocationInOneRecord() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(logSearch(request -> {
            clock().advance(Duration.ofSeconds(5));
            return RAW;
        }, projector()));

        boundary.invoke(run(), envelope);

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
    default void keepsTheCompleteRawResponseNeverAPreview() {
        String raw = Fixtures.textOfUtf8Bytes(500_000);
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(logSearch(FakeTools.returning(raw), projector()));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(result.get().content()).isEqualTo(RESULT);
        assertThat(recordOf(boundary, envelope).rawResponse().get()).isEqualTo(raw);
    }

    @Test
    default void keepsTheErrorCodeInTheRecordOfAFailedCall() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(logSearch(FakeTools.throwing("down"), projector()));

        boundary.invoke(run(), envelope);

        CanonicalRecord record = recordOf(boundary, envelope);
        assertFailed(record, ErrorCode.EXECUTION_FAILED);
        assertThat(record.arguments()).isEqualTo(envelope.arguments());
    }

    // Requirement: Invocation lifecycle and evidence semantics SHALL be enforced centrally

    @Test
    @DisplayName("No evidence projection completes")
    default void completesNoEvidenceAsScopedNegativeObservation() {
        ToolCallEnvelope envelope = envelope();
        String scope = "service checkout, logs 10:00-10:15 UTC";
        ToolBoundary boundary = boundaryWith(logSearch(executor(), FakeProjectors.noEvidence("no timeouts", scope)));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(result.get().evidence()).isEqualTo(EvidenceStatus.NO_EVIDENCE);
        assertThat(result.get().scope()).containsExactly(scope);
        CanonicalRecord record = recordOf(boundary, envelope);
        assertThat(record.status()).isEqualTo(InvocationStatus.READY);
        assertThat(record.evidence()).containsExactly(EvidenceStatus.NO_EVIDENCE);
        assertThat(record.agentResult().flatMap(AgentResult::scope)).containsExactly(scope);
        assertThat(record.referencability()).isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
        assertThat(boundary.records().referencability(run().runId(), record.key().toolCallId()).get())
                .isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
    }

    @Test
    default void neverRunsAReplayedCallAgainAfterItsRecordExpired() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundary();
        boundary.invoke(run(), envelope);
        expire(keyOf(envelope));

        Either<BoundaryError, AgentResult> replay = boundary.invoke(run(), envelope);

        assertThat(codeOf(replay)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(find(boundary, envelope)).isEmpty();
    }

    @Test
    default void neverRetriesOrUpgradesNoEvidence() {
        ToolCallEnvelope envelope = envelope();
        CountingProjector nothing = FakeProjectors.counting(FakeProjectors.noEvidence("no timeouts", "checkout logs"));
        ToolBoundary boundary = boundaryWith(logSearch(executor(), nothing));
        boundary.invoke(run(), envelope);
        CanonicalRecord first = recordOf(boundary, envelope);

        Either<BoundaryError, AgentResult> again = boundary.invoke(run(), envelope);

        assertThat(codeOf(again)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(nothing.projections()).isEqualTo(1);
        assertThat(recordOf(boundary, envelope)).isEqualTo(first);
        assertThat(first.evidence()).containsExactly(EvidenceStatus.NO_EVIDENCE);
    }

    @Test
    default void labelsEvidenceFoundAsCitable() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundary();

        boundary.invoke(run(), envelope);

        assertThat(boundary.records().referencability(run().runId(), new ToolCallId(envelope.toolCallId())).get())
                .isEqualTo(Referencability.CITABLE_EVIDENCE);
    }

    // Scenario: Projection fails

    private void assertProjectionEndedInError(Projector broken, ErrorCode code) {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(logSearch(executor(), broken));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(codeOf(result)).isEqualTo(code);
        CanonicalRecord record = recordOf(boundary, envelope);
        assertFailed(record, code);
        assertThat(record.rawResponse()).as("raw kept for the harness").containsExactly(RAW);
        assertThat(boundary.records().referencability(run().runId(), record.key().toolCallId()).get())
                .isEqualTo(Referencability.NOT_REFERENCABLE);
    }

    @Test
    default void endsInProjectionFailedWhenTheProjectorThrows() {
        assertProjectionEndedInError(FakeProjectors.throwing("parser broke"), ErrorCode.PROJECTION_FAILED);
    }

    @Test
    default void endsInProjectionInvalidForAnErrorEvidenceStatus() {
        assertProjectionEndedInError(FakeProjectors.invalidEvidenceStatus(), ErrorCode.PROJECTION_INVALID);
    }

    @Test
    default void endsInProjectionInvalidForNoEvidenceWithoutScope() {
        assertProjectionEndedInError(FakeProjectors.noEvidenceWithBlankScope(), ErrorCode.PROJECTION_INVALID);
    }

    @Test
    default void endsInProjectionInvalidWhenTheProjectorReturnsNull() {
        assertProjectionEndedInError(FakeProjectors.returningNull(), ErrorCode.PROJECTION_INVALID);
    }

    @Test
    default void endsInTextNotUnicodeForALoneSurrogate() {
        assertProjectionEndedInError(FakeProjectors.evidenceFound("broken \udc00"), ErrorCode.TEXT_NOT_UNICODE);
    }

    @Test
    default void refusesToMoveAReadyRecordAgain() {
        AttemptToken token = AttemptToken.random();
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(), logSearch(executor(), projector()))
                .tokens(() -> token).build();
        boundary.invoke(run(), envelope);
        CanonicalRecord ready = recordOf(boundary, envelope);
        CanonicalRecord.Final overwrite = (CanonicalRecord.Final) CanonicalRecord.restore(ready.key(), ready.tool(),
                ready.arguments(), ready.requestFingerprint(), ready.createdAt(),
                Option.some(new Completion.Failed(ErrorCode.EXECUTION_FAILED, Option.none(), START.plusSeconds(1))));

        Either<StoreFailure, Completion> refused = store().complete(overwrite.key(), token, overwrite.completion(), TIMEOUT);

        assertThat(refused.getLeft()).isEqualTo(StoreFailure.refused(new Refusal.Conflict()));
        assertThat(recordOf(boundary, envelope)).isEqualTo(ready);
    }

    @Test
    default void refusesToMoveAnErrorRecordToReady() {
        AttemptToken token = AttemptToken.random();
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = builder(ToolBoundaryConfig.ofDefaults(),
                logSearch(FakeTools.throwing("down"), projector())).tokens(() -> token).build();
        boundary.invoke(run(), envelope);
        CanonicalRecord failed = recordOf(boundary, envelope);
        CanonicalRecord.Final upgrade = (CanonicalRecord.Final) CanonicalRecord.restore(failed.key(), failed.tool(),
                failed.arguments(), failed.requestFingerprint(), failed.createdAt(), Option.some(new Completion.Succeeded(
                        RAW, new AgentResult(RESULT, EvidenceStatus.EVIDENCE_FOUND, Option.none()), START.plusSeconds(1))));

        Either<StoreFailure, Completion> refused = store().complete(upgrade.key(), token, upgrade.completion(), TIMEOUT);

        assertThat(refused.getLeft()).isEqualTo(StoreFailure.refused(new Refusal.Conflict()));
        assertThat(recordOf(boundary, envelope)).isEqualTo(failed);
    }

    // Requirement: Tool Call ID and Run ownership SHALL be preserved

    // Scenario: Duplicate Tool Call ID is submitted

    @Test
    default void refusesARepeatWithTheSameArgumentsWithoutRunningTheTool() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundary();
        boundary.invoke(run(), envelope);
        CanonicalRecord first = recordOf(boundary, envelope);
        clock().advance(Duration.ofMinutes(1));

        Either<BoundaryError, AgentResult> second = boundary.invoke(run(), envelope);

        assertThat(codeOf(second)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(projector().projections()).isEqualTo(1);
        assertThat(recordOf(boundary, envelope)).isEqualTo(first);
    }

    @Test
    default void readsArgumentsThatDifferOnlyInWhitespaceAsTheSame() {
        ToolBoundary boundary = boundary();
        ToolCallEnvelope compact = Fixtures.envelope(run()).withArguments("{\"query\":\"timeout\"}").build();
        boundary.invoke(run(), compact);

        Either<BoundaryError, AgentResult> spaced = boundary.invoke(run(),
                Fixtures.envelope(run()).withToolCallId(compact.toolCallId())
                        .withArguments(" { \"query\" : \"timeout\" } ").build());

        assertThat(codeOf(spaced)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(executor().executions()).isEqualTo(1);
    }

    @Test
    default void refusesAReuseWithOtherArgumentsWithoutRunningTheTool() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundary();
        boundary.invoke(run(), envelope);
        CanonicalRecord first = recordOf(boundary, envelope);

        Either<BoundaryError, AgentResult> reused = boundary.invoke(run(),
                Fixtures.envelope(run()).withToolCallId(envelope.toolCallId())
                        .withArguments("{\"query\":\"out of memory\"}").build());

        assertThat(codeOf(reused)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(recordOf(boundary, envelope)).isEqualTo(first);
    }

    @Test
    default void refusesARepeatWhileTheFirstCallIsStillRunning() {
        ToolCallEnvelope envelope = envelope();
        AtomicReference<ToolBoundary> self = new AtomicReference<>();
        AtomicReference<Either<BoundaryError, AgentResult>> nested = new AtomicReference<>();
        CountingExecutor reentrant = FakeTools.counting(request -> {
            nested.set(self.get().invoke(run(), envelope));
            return RAW;
        });
        self.set(boundaryWith(logSearch(reentrant, projector())));

        Either<BoundaryError, AgentResult> first = self.get().invoke(run(), envelope);

        assertThat(codeOf(nested.get())).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(reentrant.executions()).isEqualTo(1);
        assertThat(first.isRight()).isTrue();
        assertThat(recordOf(self.get(), envelope).status()).isEqualTo(InvocationStatus.READY);
    }

    @Test
    default void refusesARepeatOfAFailedCall() {
        ToolCallEnvelope envelope = envelope();
        CountingExecutor failing = FakeTools.counting(FakeTools.throwing("down"));
        ToolBoundary boundary = boundaryWith(logSearch(failing, projector()));
        boundary.invoke(run(), envelope);

        Either<BoundaryError, AgentResult> retry = boundary.invoke(run(), envelope);

        assertThat(codeOf(retry)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(failing.executions()).isEqualTo(1);
        assertFailed(recordOf(boundary, envelope), ErrorCode.EXECUTION_FAILED);
    }

    @Test
    @DisplayName("Framework ID is preserved")
    default void keepsTheExactFrameworkToolCallId() {
        String frameworkId = "call_AbC-1.2:3";
        ToolCallEnvelope envelope = Fixtures.envelope(run()).withToolCallId(frameworkId).build();
        AtomicReference<InvocationKey> keySeenByTool = new AtomicReference<>();
        ToolBoundary boundary = boundaryWith(logSearch(request -> {
            keySeenByTool.set(request.key());
            return RAW;
        }, projector()));

        boundary.invoke(run(), envelope);

        assertThat(keySeenByTool.get()).isEqualTo(InvocationKey.of(run().runId(), new ToolCallId(frameworkId)));
        CanonicalRecord record = boundary.records().find(run().runId(), new ToolCallId(frameworkId)).get()
                .getOrElseThrow(() -> new AssertionError("no record under the exact id"));
        assertThat(record.key().toolCallId().value()).isEqualTo(frameworkId);
        assertThat(record.key().runId()).isEqualTo(run().runId());
        assertThat(boundary.records().find(run().runId(), new ToolCallId("call_abc-1.2:3")).get()).isEmpty();
    }

    @Test
    default void keysTheRecordByTheRunContextSoTwoRunsKeepTheirOwnRecords() {
        RunContext otherRun = openedRunContext();
        ToolBoundary boundary = boundary();

        Either<BoundaryError, AgentResult> inFirst = boundary.invoke(run(),
                Fixtures.envelope(run()).withToolCallId("call_1").build());
        Either<BoundaryError, AgentResult> inSecond = boundary.invoke(otherRun,
                Fixtures.envelope(otherRun).withToolCallId("call_1").build());

        assertThat(inFirst.isRight()).isTrue();
        assertThat(inSecond.isRight()).isTrue();
        assertThat(executor().executions()).isEqualTo(2);
        assertThat(boundary.records().find(run().runId(), new ToolCallId("call_1")).get()).isNotEmpty();
        assertThat(boundary.records().find(otherRun.runId(), new ToolCallId("call_1")).get()).isNotEmpty();
    }

    @Test
    default void neverGeneratesAFallbackIdForAMissingOne() {
        ToolBoundary boundary = boundary();

        assertRefusedBeforeExecution(boundary, run(), Fixtures.envelope(run()).withToolCallId("").build(),
                ErrorCode.TOOL_CALL_ID_MISSING);
    }

    // Requirement: TTL and size limits SHALL fail closed

    @Test
    @DisplayName("Read does not renew TTL")
    default void readsNeverExtendTheRecordsLife() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundary();
        boundary.invoke(run(), envelope);
        InvocationKey key = keyOf(envelope);
        clock().advance(Duration.ofHours(1));
        assertTtlLeft(key, TTL.minusHours(1));
        Duration before = ttlOnceStoreTimeMoved(key);

        for (int i = 0; i < 3; i++) {
            boundary.records().find(run().runId(), key.toolCallId());
            boundary.records().referencability(run().runId(), key.toolCallId());
            store().find(key, TIMEOUT);
        }

        assertThat(remainingTtl(key)).as("still live").isNotEmpty();
        assertThat(remainingTtl(key).get()).as("not renewed").isLessThanOrEqualTo(before);
        if (storeExpiresOnTheSuiteClock()) {
            assertThat(remainingTtl(key)).containsExactly(before);
            clock().advance(before.minusMillis(1));
            assertThat(find(boundary, envelope)).isNotEmpty();
            clock().advance(Duration.ofMillis(1));
            assertThat(find(boundary, envelope)).as("expired at the original expiry").isEmpty();
        }
    }

    @Test
    default void setsTheTtlAtCreationAndKeepsOnlyTheRemainderOnCompletion() {
        ToolCallEnvelope envelope = envelope();
        AtomicReference<Duration> ttlBeforeCompletion = new AtomicReference<>();
        ToolBoundary boundary = boundaryWith(logSearch(request -> {
            assertTtlLeft(request.key(), TTL);
            clock().advance(Duration.ofMinutes(10));
            ttlBeforeCompletion.set(ttlOnceStoreTimeMoved(request.key()));
            return RAW;
        }, projector()));

        assertThat(boundary.invoke(run(), envelope).isRight()).isTrue();

        assertTtlLeft(keyOf(envelope), TTL.minusMinutes(10));
        assertThat(remainingTtl(keyOf(envelope)).get()).as("not renewed at completion")
                .isLessThanOrEqualTo(ttlBeforeCompletion.get());
    }

    @Test
    default void neverRecreatesARecordThatExpiredWhileTheToolRan() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(logSearch(request -> {
            expire(request.key());
            return RAW;
        }, projector()));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.RECORD_EXPIRED);
        assertThat(find(boundary, envelope)).isEmpty();
        assertThat(remainingTtl(keyOf(envelope))).isEmpty();
    }

    // Scenario: Raw response is too large

    private static ToolBoundaryConfig rawLimited() {
        return ToolBoundaryConfig.custom().rawResponseLimitBytes(RAW_LIMIT).build();
    }

    @Test
    default void endsInResultTooLargeWithoutTruncatingOrProjecting() {
        CountingProjector neverCalled = FakeProjectors.counting(projector());
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(rawLimited(),
                logSearch(FakeTools.returningBytes(RAW_LIMIT + 1), neverCalled));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        CanonicalRecord record = recordOf(boundary, envelope);
        assertFailed(record, ErrorCode.RESULT_TOO_LARGE);
        assertThat(record.rawResponse()).as("no truncated raw").isEmpty();
        assertThat(neverCalled.projections()).as("projections").isZero();
    }

    @Test
    default void acceptsARawResponseOfExactlyTheLimit() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(rawLimited(),
                logSearch(FakeTools.returningBytes(RAW_LIMIT), projector()));

        assertThat(boundary.invoke(run(), envelope).isRight()).isTrue();
        assertThat(recordOf(boundary, envelope).rawResponse().get()).isEqualTo(Fixtures.textOfUtf8Bytes(RAW_LIMIT));
    }

    @Test
    default void endsInResultTooLargeWhenTheRawWouldNotFitTheRecord() {
        ToolBoundaryConfig tight = ToolBoundaryConfig.custom()
                .argumentsLimitBytes(256).rawResponseLimitBytes(2048).recordLimitBytes(2048).build();
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(tight, logSearch(FakeTools.returningBytes(2040), projector()));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        assertFailed(recordOf(boundary, envelope), ErrorCode.RESULT_TOO_LARGE);
        assertThat(recordOf(boundary, envelope).rawResponse()).isEmpty();
        assertThat(projector().projections()).isZero();
    }

    // Scenario: Agent result is too large

    @Test
    default void endsInResultTooLargeAndReturnsNothingOfTheResult() {
        ToolCallEnvelope envelope = envelope();
        int limit = (int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES;
        ToolBoundary boundary = boundaryWith(logSearch(executor(), FakeProjectors.returningBytes(limit + 1)));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        CanonicalRecord record = recordOf(boundary, envelope);
        assertFailed(record, ErrorCode.RESULT_TOO_LARGE);
        assertThat(record.rawResponse()).containsExactly(RAW);
    }

    @Test
    default void countsContentAndScopeTogether() {
        ToolBoundary boundary = boundaryWith(ToolBoundaryConfig.custom().agentResultLimitBytes(10).build(),
                logSearch(executor(), FakeProjectors.noEvidence("123456", "abcde")));

        assertThat(codeOf(boundary.invoke(run(), envelope()))).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
    }

    @Test
    default void boundsAProjectorThatEchoesTheRawResponse() {
        ToolCallEnvelope envelope = envelope();
        String raw = Fixtures.textOfUtf8Bytes((int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES + 1);
        ToolBoundary boundary = boundaryWith(logSearch(FakeTools.returning(raw), FakeProjectors.echoingRaw()));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        assertThat(recordOf(boundary, envelope).rawResponse()).containsExactly(raw);
    }

    @Test
    default void acceptsAResultOfExactlyTheLimit() {
        int limit = (int) ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES;
        ToolBoundary boundary = boundaryWith(logSearch(executor(), FakeProjectors.returningBytes(limit)));

        assertThat(boundary.invoke(run(), envelope()).get().byteSize()).isEqualTo(limit);
    }

    // Requirement: Tool and store failures SHALL return safe errors

    @Test
    @DisplayName("Tool execution throws")
    default void endsInExecutionFailedAndReturnsNoRawResponse() {
        ToolCallEnvelope envelope = envelope();
        CountingProjector notCalled = FakeProjectors.counting(projector());
        ToolBoundary boundary = boundaryWith(logSearch(FakeTools.throwing("connection reset: " + RAW), notCalled));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.EXECUTION_FAILED);
        assertThat(result.getLeft().toString()).doesNotContain(RAW).doesNotContain("connection reset");
        CanonicalRecord record = recordOf(boundary, envelope);
        assertFailed(record, ErrorCode.EXECUTION_FAILED);
        assertThat(record.rawResponse()).isEmpty();
        assertThat(notCalled.projections()).isZero();
    }

    @Test
    default void endsInExecutionFailedWhenTheToolAnswersNothing() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(logSearch(request -> null, projector()));

        assertThat(codeOf(boundary.invoke(run(), envelope))).isEqualTo(ErrorCode.EXECUTION_FAILED);
        assertFailed(recordOf(boundary, envelope), ErrorCode.EXECUTION_FAILED);
    }

    @Test
    default void endsInTextNotUnicodeWhenTheRawResponseHasALoneSurrogate() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(logSearch(FakeTools.returning("bad \ud800 raw"), projector()));

        assertThat(codeOf(boundary.invoke(run(), envelope))).isEqualTo(ErrorCode.TEXT_NOT_UNICODE);
        assertFailed(recordOf(boundary, envelope), ErrorCode.TEXT_NOT_UNICODE);
        assertThat(recordOf(boundary, envelope).rawResponse()).isEmpty();
        assertThat(projector().projections()).isZero();
    }

    @Test
    default void keepsTheRawResponseForTheHarnessWhenProjectionFails() {
        ToolCallEnvelope envelope = envelope();
        ToolBoundary boundary = boundaryWith(logSearch(executor(), FakeProjectors.throwing("bad format")));

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(codeOf(result)).isEqualTo(ErrorCode.PROJECTION_FAILED);
        assertThat(result.getLeft().toString()).doesNotContain(RAW);
        assertThat(recordOf(boundary, envelope).rawResponse()).containsExactly(RAW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"STORE_UNAVAILABLE", "STORE_OUTCOME_UNKNOWN", "STORE_FULL", "STORE_DATA_INVALID"})
    default void runsNothingWhenTheStoreRefusesToBegin(ErrorCode code) {
        StoreFailure failure = java.util.Map.of(ErrorCode.STORE_UNAVAILABLE, StoreFailure.unavailable(),
                ErrorCode.STORE_OUTCOME_UNKNOWN, StoreFailure.outcomeUnknown(), ErrorCode.STORE_FULL, StoreFailure.full(),
                ErrorCode.STORE_DATA_INVALID, StoreFailure.dataInvalid()).get(code);
        ToolBoundary boundary = builderOn(FaultyStores.refusingBegin(store(), failure),
                ToolBoundaryConfig.ofDefaults(), logSearch(executor(), projector())).build();
        ToolCallEnvelope envelope = envelope();

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope);

        assertThat(codeOf(result)).isEqualTo(code);
        assertThat(executor().executions()).isZero();
        assertThat(find(boundary, envelope)).isEmpty();
    }

    @Test
    default void answersOutcomeUnknownAndHandsTheRecordOverWhenTheCompletionFails() {
        List<InvocationKey> unfinished = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<AttemptToken> tokens = new java.util.concurrent.CopyOnWriteArrayList<>();
        BoundaryListener harness = new BoundaryListener() {
            @Override
            public void onUnfinished(InvocationKey key, AttemptToken token) {
                unfinished.add(key);
                tokens.add(token);
            }
        };
        ToolBoundary boundary = builderOn(FaultyStores.refusingComplete(store(), StoreFailure.unavailable()),
                ToolBoundaryConfig.ofDefaults(), logSearch(executor(), projector())).listener(harness).build();

        ToolCallEnvelope call = envelope();
        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), call);

        // The tool ran, so "unavailable" (nothing happened) would not be true.
        assertThat(codeOf(result)).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(unfinished).singleElement().isEqualTo(keyOf(call));
        ToolBoundary healed = builderOn(store(), ToolBoundaryConfig.ofDefaults(), logSearch(executor(), projector())).build();
        assertThat(healed.endUnfinished(unfinished.get(0), tokens.get(0)).map(CanonicalRecord::errorCode))
                .isEqualTo(Either.right(Option.some(ErrorCode.STORE_OUTCOME_UNKNOWN)));
        assertThat(codeOf(healed.invoke(run(), call))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(executor().executions()).isEqualTo(1);
    }

    @Test
    default void closesWithInternalErrorWhenTheStoreCrashes() {
        ToolBoundary boundary = builderOn(
                FaultyStores.crashingOnBegin(store(), "pool exhausted at redis://10.0.0.1"),
                ToolBoundaryConfig.ofDefaults(), logSearch(executor(), projector())).build();

        Either<BoundaryError, AgentResult> result = boundary.invoke(run(), envelope());

        assertThat(codeOf(result)).isEqualTo(ErrorCode.INTERNAL_ERROR);
        assertThat(result.getLeft().toString()).doesNotContain("redis");
        assertThat(executor().executions()).isZero();
    }

    // Requirement: A repeated call MAY be answered from its READY record when the harness opts in

    private ToolBoundary replaying(ToolExecutor tool) {
        BoundaryListener listener = new BoundaryListener() {
            @Override
            public void onReplayed(CanonicalRecord.Ready record) {
                replayed().add(record);
            }
        };
        return builder(ToolBoundaryConfig.custom().duplicateCalls(DuplicateCallPolicy.REPLAY_READY).build(),
                logSearch(tool, projector())).listener(listener).build();
    }

    @Test
    default void answersARepeatedCallWithTheReadyRecordsResultWithoutRunningTheTool() {
        ToolBoundary boundary = replaying(executor());
        ToolCallEnvelope first = envelope();
        Either<BoundaryError, AgentResult> answered = boundary.invoke(run(), first);
        CanonicalRecord stored = recordOf(boundary, first);

        Either<BoundaryError, AgentResult> again = boundary.invoke(run(), Fixtures.envelope(run())
                .withToolCallId(first.toolCallId()).withArguments("{ \"query\" : \"timeout\" }").build());

        assertThat(again).isEqualTo(answered);
        assertThat(again.get().content()).isEqualTo(RESULT);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(projector().projections()).isEqualTo(1);
        assertThat(recordOf(boundary, first)).isEqualTo(stored);
        assertThat(replayed()).containsExactly((CanonicalRecord.Ready) stored);
    }

    @Test
    default void keepsTheSpecificationsRefusalByDefault() {
        ToolBoundary boundary = boundary();
        ToolCallEnvelope first = envelope();
        boundary.invoke(run(), first);

        assertThat(ToolBoundaryConfig.ofDefaults().duplicateCalls()).isEqualTo(DuplicateCallPolicy.REFUSE);
        assertThat(codeOf(boundary.invoke(run(), first))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(executor().executions()).isEqualTo(1);
    }

    @Test
    default void refusesARepeatOfACallStillProjecting() {
        AtomicReference<Either<BoundaryError, AgentResult>> during = new AtomicReference<>();
        AtomicReference<ToolBoundary> self = new AtomicReference<>();
        ToolCallEnvelope first = envelope();
        CountingExecutor tool = FakeTools.counting(request -> {
            during.set(self.get().invoke(run(), first));
            return RAW;
        });
        self.set(replaying(tool));

        assertThat(self.get().invoke(run(), first).isRight()).isTrue();

        assertThat(codeOf(during.get())).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(tool.executions()).isEqualTo(1);
        assertThat(replayed()).isEmpty();
    }

    @Test
    default void refusesARepeatOfAFailedCallWhenReplaying() {
        CountingExecutor failing = FakeTools.counting(FakeTools.throwing("password=hunter2 at db-1"));
        ToolBoundary boundary = replaying(failing);
        ToolCallEnvelope first = envelope();
        assertThat(codeOf(boundary.invoke(run(), first))).isEqualTo(ErrorCode.EXECUTION_FAILED);

        assertThat(codeOf(boundary.invoke(run(), first))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(failing.executions()).isEqualTo(1);
        assertThat(replayed()).isEmpty();
    }

    @Test
    default void refusesTheSameIdWithOtherArgumentsAsReused() {
        ToolBoundary boundary = replaying(executor());
        ToolCallEnvelope first = envelope();
        boundary.invoke(run(), first);

        Either<BoundaryError, AgentResult> other = boundary.invoke(run(), Fixtures.envelope(run())
                .withToolCallId(first.toolCallId()).withArguments("{\"query\":\"oom\"}").build());

        assertThat(codeOf(other)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(replayed()).isEmpty();
    }

    @Test
    default void refusesARepeatWhoseRecordExpired() {
        ToolBoundary boundary = replaying(executor());
        ToolCallEnvelope first = envelope();
        boundary.invoke(run(), first);
        expire(keyOf(first));

        assertThat(codeOf(boundary.invoke(run(), first))).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(replayed()).isEmpty();
    }

    // Requirement: A tool that reports a failure with output SHALL end EXECUTION_FAILED, its output kept for the harness

    @Test
    default void keepsTheOutputOfAReportedFailureAsTheRawResponse() {
        String output = "ERROR connect db-1 password=hunter2\nretry later";
        ToolBoundary boundary = boundaryWith(logSearch(request -> {
            throw new ToolFailure(output);
        }, projector()));
        ToolCallEnvelope call = envelope();

        Either<BoundaryError, AgentResult> answered = boundary.invoke(run(), call);

        assertThat(codeOf(answered)).isEqualTo(ErrorCode.EXECUTION_FAILED);
        assertThat(answered.getLeft().toString()).doesNotContain("hunter2");
        CanonicalRecord record = recordOf(boundary, call);
        assertFailed(record, ErrorCode.EXECUTION_FAILED);
        assertThat(record.rawResponse()).containsExactly(output);
        assertThat(projector().projections()).isZero();
    }

    @Test
    default void keepsNoOutputOverTheRawResponseLimit() {
        ToolBoundary boundary = boundaryWith(ToolBoundaryConfig.custom().rawResponseLimitBytes(16).build(),
                logSearch(request -> {
                    throw new ToolFailure("x".repeat(17));
                }, projector()));
        ToolCallEnvelope call = envelope();

        assertThat(codeOf(boundary.invoke(run(), call))).isEqualTo(ErrorCode.EXECUTION_FAILED);
        CanonicalRecord record = recordOf(boundary, call);
        assertFailed(record, ErrorCode.EXECUTION_FAILED);
        assertThat(record.rawResponse()).isEmpty();
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
        ToolBoundary boundary = boundaryWith(
                ToolBoundaryConfig.custom().rawResponseLimitBytes(SQL_RAW_LIMIT).build(),
                logSearch(executor(), projector()),
                ToolBinding.readOnly("sql-query", sql, rows));

        List<ScriptedRun.Step> steps = ScriptedRun.on(boundary, run())
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
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(statusOf(boundary, "q1")).isEqualTo(Referencability.CITABLE_EVIDENCE);
        assertThat(statusOf(boundary, "q2")).isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
        assertThat(statusOf(boundary, "q3")).isEqualTo(Referencability.NOT_REFERENCABLE);
        InvocationKey q1 = InvocationKey.of(run().runId(), new ToolCallId("q1"));
        assertTtlLeft(q1, TTL);
        expire(q1);
        assertThat(boundary.records().find(run().runId(), new ToolCallId("q1")).get()).isEmpty();
    }

    @Test
    default void refusesACrossRunStepOfAScriptedRun() {
        CountingExecutor sql = sqlTool();
        Projector rows = rowCounter();
        List<ScriptedRun.Step> steps = ScriptedRun.on(boundaryWith(ToolBinding.readOnly("sql-query", sql, rows)), run())
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
        return boundary.records().referencability(run().runId(), new ToolCallId(toolCallId)).get();
    }

    // Requirement: A repeated tool_call_id SHALL be compared by tool and canonical arguments (RFC 8785)

    private ToolBoundary twoTools(CountingExecutor sql) {
        return boundaryWith(logSearch(executor(), projector()),
                ToolBinding.readOnly("sql-query", sql, FakeProjectors.evidenceFound(RESULT)));
    }

    private Either<BoundaryError, AgentResult> repeat(ToolBoundary boundary, ToolCallEnvelope first,
            String toolName, String arguments) {
        return boundary.invoke(run(), Fixtures.envelope(run()).withToolCallId(first.toolCallId())
                .withToolName(toolName).withArguments(arguments).build());
    }

    @Test
    default void readsReorderedMembersAsADuplicate() {
        CountingExecutor sql = FakeTools.counting(FakeTools.returning(RAW));
        ToolBoundary boundary = twoTools(sql);
        ToolCallEnvelope first = Fixtures.envelope(run())
                .withArguments("{\"a\":1,\"b\":{\"y\":[1,2],\"x\":\"\u00e9\"}}").build();
        assertThat(boundary.invoke(run(), first).isRight()).isTrue();
        CanonicalRecord stored = recordOf(boundary, first);

        Either<BoundaryError, AgentResult> reordered = repeat(boundary, first, first.toolName(),
                "{\"b\":{\"x\":\"\\u00e9\",\"y\":[1,2]},\"a\":1}");

        assertThat(codeOf(reordered)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(recordOf(boundary, first)).isEqualTo(stored);
    }

    @Test
    default void readsOneAndOnePointZeroAsADuplicate() {
        CountingExecutor sql = FakeTools.counting(FakeTools.returning(RAW));
        ToolBoundary boundary = twoTools(sql);
        ToolCallEnvelope first = Fixtures.envelope(run()).withArguments("{\"limit\":1,\"ratio\":1e2}").build();
        assertThat(boundary.invoke(run(), first).isRight()).isTrue();

        Either<BoundaryError, AgentResult> same = repeat(boundary, first, first.toolName(),
                "{\"limit\":1.0,\"ratio\":100}");
        Either<BoundaryError, AgentResult> other = repeat(boundary, first, first.toolName(),
                "{\"limit\":1.5,\"ratio\":100}");

        assertThat(codeOf(same)).isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
        assertThat(codeOf(other)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
        assertThat(executor().executions()).isEqualTo(1);
    }

    @Test
    default void readsTheSameArgumentsForAnotherToolAsAReusedIdAndNeverRunsThatTool() {
        CountingExecutor sql = FakeTools.counting(FakeTools.returning(RAW));
        ToolBoundary boundary = twoTools(sql);
        ToolCallEnvelope first = Fixtures.envelope(run()).withToolName("log-search")
                .withArguments("{\"query\":\"timeout\"}").build();
        assertThat(boundary.invoke(run(), first).isRight()).isTrue();
        CanonicalRecord stored = recordOf(boundary, first);

        Either<BoundaryError, AgentResult> otherTool = repeat(boundary, first, "sql-query", first.arguments());

        assertThat(codeOf(otherTool)).isEqualTo(ErrorCode.TOOL_CALL_ID_REUSED);
        assertThat(sql.executions()).as("executions of the other tool").isZero();
        assertThat(executor().executions()).isEqualTo(1);
        assertThat(recordOf(boundary, first)).isEqualTo(stored);
        assertThat(codeOf(repeat(boundary, first, "log-search", first.arguments())))
                .isEqualTo(ErrorCode.DUPLICATE_TOOL_CALL);
    }
}
