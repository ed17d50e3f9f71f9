package io.toolboundary.tck.boundary;

import static io.toolboundary.tck.boundary.SpecValues.RAW;
import static io.toolboundary.tck.boundary.SpecValues.RESULT;
import static io.toolboundary.tck.boundary.SpecValues.STORE_TIME_PATIENCE;
import static io.toolboundary.tck.boundary.SpecValues.STORE_TIME_STEP;
import static io.toolboundary.tck.boundary.SpecValues.TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.CountingProjector;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.Fixtures.EnvelopeBuilder;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * One test's state in the boundary spec suites, and the steps they share: its run (opened in the store on first use),
 * the tool and projector its boundaries run, the tool that probes its budgets afterwards, and the records its
 * boundaries replayed. A test class holds a new one in a field.
 */
public final class SpecState {

    /** This test's run, opened in the store on first use. */
    final RunContext run = Fixtures.anyRunContext().opened(RunToken.random());
    /** The log search tool's executor. */
    final CountingExecutor executor = FakeTools.counting(FakeTools.returning(RAW));
    /** The log search tool's projector. */
    final CountingProjector projector = FakeProjectors.counting(FakeProjectors.evidenceFound(RESULT));
    /** The READY records this test's replaying boundaries answered a repeated call from. */
    final List<CanonicalRecord.Ready> replayed = new CopyOnWriteArrayList<>();
    private final CountingExecutor budgetProbe = FakeTools.counting(FakeTools.returning(RAW));
    private StoreFixture fixture;

    /** A new state: a fresh run (not yet opened in any store), tool, projector and budget probe. */
    public SpecState() {
    }

    /** This state on {@code on}'s store and clock; opens the test's run there the first time. */
    synchronized SpecState on(StoreFixture on) {
        if (fixture == null) {
            fixture = on;
            assertThat(on.store().openRun(new RunOpening(run.runId(), run.runToken().get(), Duration.ofDays(365)),
                    TIMEOUT)).as("open this test's run").isEqualTo(Either.right(run.runToken().get()));
        }
        return this;
    }

    /** A run no other test uses, opened in the store. */
    RunContext openedRunContext() {
        return Fixtures.opened(boundary(), Fixtures.anyRunContext());
    }

    /** This test's run, as opened, with another deadline and budget. */
    RunContext sameRun(Instant deadline, int callBudget) {
        return new RunContext(run.runId(), true, deadline, callBudget, run.runToken());
    }

    /** The test's log search tool, on its executor and projector. */
    ToolBinding logSearch() {
        return logSearch(executor, projector);
    }

    ToolBoundary boundary() {
        return boundaryWith(logSearch());
    }

    ToolBoundary boundaryWith(ToolBinding... tools) {
        return boundaryWith(ToolBoundaryConfig.ofDefaults(), tools);
    }

    ToolBoundary boundaryWith(ToolBoundaryConfig config, ToolBinding... tools) {
        return builder(config, tools).build();
    }

    ToolBoundaryBuilder builder(ToolBoundaryConfig config, ToolBinding... tools) {
        return builderOn(fixture.store(), config, tools);
    }

    /** A builder of the default boundary with the test's log search tool. */
    ToolBoundaryBuilder builder() {
        return builder(ToolBoundaryConfig.ofDefaults(), logSearch());
    }

    /** A builder of the default boundary with the test's log search tool, on {@code store}. */
    ToolBoundaryBuilder builderOn(CanonicalInvocationStore store) {
        return builderOn(store, ToolBoundaryConfig.ofDefaults(), logSearch());
    }

    ToolBoundaryBuilder builderOn(CanonicalInvocationStore store, ToolBoundaryConfig config, ToolBinding... tools) {
        ToolBoundaryBuilder builder = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .clock(fixture.clock()).config(config);
        for (ToolBinding tool : tools) {
            builder.tool(tool);
        }
        return builder;
    }

    /** {@code store}, keeping in {@code token} the attempt token of the latest begin that reaches it. */
    static CanonicalInvocationStore recordingTokens(CanonicalInvocationStore store,
            AtomicReference<AttemptToken> token) {
        return new ForwardingStore(store) {
            @Override
            public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
                token.set(start.token());
                return super.begin(start, timeout);
            }
        };
    }

    static ToolBinding logSearch(ToolExecutor executor, Projector projector) {
        return ToolBinding.readOnly("log-search", executor, projector);
    }

    /** One call of this test's run through a boundary: the boundary, the call and what the agent was answered. */
    record Call(SpecState spec, ToolBoundary boundary, ToolCallEnvelope envelope,
            Either<BoundaryError, AgentResult> result) {

        /** The code of the error the agent was answered, asserting it was one. */
        ErrorCode code() {
            return codeOf(result);
        }

        /** The call's record, asserting there is one. */
        CanonicalRecord record() {
            return spec.recordOf(boundary, envelope);
        }

        /** The call's record, if any. */
        Option<CanonicalRecord> found() {
            return spec.find(boundary, envelope);
        }

        /** The call's key. */
        InvocationKey key() {
            return spec.keyOf(envelope);
        }

        /** What the agent is answered when it makes the same call again through the same boundary. */
        Either<BoundaryError, AgentResult> again() {
            return boundary.invoke(spec.run, envelope);
        }

        /** What the agent is answered for this call's tool call id in a call changed by {@code change}. */
        Either<BoundaryError, AgentResult> again(UnaryOperator<EnvelopeBuilder> change) {
            EnvelopeBuilder same = Fixtures.envelope(spec.run).withToolCallId(envelope.toolCallId())
                    .withToolName(envelope.toolName()).withArguments(envelope.arguments());
            return boundary.invoke(spec.run, change.apply(same).build());
        }

        /** How the boundary labels the call's record for citing. */
        Referencability referencability() {
            return boundary.referencability(spec.run.runId(), key().toolCallId()).get();
        }

        /** Asserts the agent was answered {@code code} and the record ended ERROR with it; returns the record. */
        CanonicalRecord assertFailedWith(ErrorCode code) {
            assertThat(code()).isEqualTo(code);
            CanonicalRecord record = record();
            assertFailed(record, code);
            return record;
        }
    }

    /** A new call of this test's run through {@code boundary}. */
    Call call(ToolBoundary boundary) {
        return call(boundary, UnaryOperator.identity());
    }

    /** A new call of this test's run, changed by {@code change}, through {@code boundary}. */
    Call call(ToolBoundary boundary, UnaryOperator<EnvelopeBuilder> change) {
        ToolCallEnvelope envelope = change.apply(envelopeBuilder()).build();
        return new Call(this, boundary, envelope, boundary.invoke(run, envelope));
    }

    /** A new call of this test's run through the default boundary with {@code tool} alone. */
    Call call(ToolBinding tool) {
        return call(boundaryWith(tool));
    }

    /** A new call of this test's run through the default boundary with the log search tool running {@code tool}. */
    Call callRunning(ToolExecutor tool) {
        return call(boundaryWith(logSearch(tool, projector)));
    }

    /** A new call of this test's run through the default boundary with the log search tool projected by {@code p}. */
    Call callProjectedBy(Projector p) {
        return call(boundaryWith(logSearch(executor, p)));
    }

    /** A call of this test's run, to be changed. */
    EnvelopeBuilder envelopeBuilder() {
        return Fixtures.envelope(run);
    }

    ToolCallEnvelope envelope() {
        return envelopeBuilder().build();
    }

    InvocationKey keyOf(ToolCallEnvelope envelope) {
        return InvocationKey.of(run.runId(), new ToolCallId(envelope.toolCallId()));
    }

    Option<CanonicalRecord> find(ToolBoundary boundary, ToolCallEnvelope envelope) {
        return boundary.find(run.runId(), new ToolCallId(envelope.toolCallId())).get();
    }

    CanonicalRecord recordOf(ToolBoundary boundary, ToolCallEnvelope envelope) {
        return find(boundary, envelope).getOrElseThrow(() -> new AssertionError("no record for " + envelope));
    }

    void assertRefusedBeforeExecution(ToolBoundary boundary, RunContext context, ToolCallEnvelope envelope,
            ErrorCode code) {
        assertRefusedBeforeExecution(boundary.invoke(context, envelope), envelope, code);
    }

    /** A call of this test's run, changed by {@code change}, is refused before execution with {@code code}. */
    void assertRefused(UnaryOperator<EnvelopeBuilder> change, ErrorCode code) {
        assertRefusedBeforeExecution(boundary(), run, change.apply(Fixtures.envelope(run)).build(), code);
    }

    /** A call of this test's run, changed by {@code change}, is answered with a result by {@code boundary}. */
    void assertAccepted(ToolBoundary boundary, UnaryOperator<EnvelopeBuilder> change) {
        Either<BoundaryError, AgentResult> answer = boundary.invoke(run, change.apply(Fixtures.envelope(run)).build());
        assertThat(answer.isRight()).as("accepted, got %s", answer).isTrue();
    }

    /**
     * Refused before anything happened: the code, no execution, no projection, no record under its key (in this test's
     * run or the run the envelope claims), and no budget reserved.
     */
    void assertRefusedBeforeExecution(Either<BoundaryError, AgentResult> result, ToolCallEnvelope envelope,
            ErrorCode code) {
        assertThat(codeOf(result)).isEqualTo(code);
        assertThat(executor.executions()).as("executions").isZero();
        assertThat(projector.projections()).as("projections").isZero();
        ToolCallId.of(envelope.toolCallId()).forEach(toolCallId -> {
            assertThat(fixture.store().find(InvocationKey.of(run.runId(), toolCallId), TIMEOUT).get())
                    .as("record under the run's key").isEmpty();
            RunId.of(envelope.runId()).forEach(claimed -> assertThat(
                    fixture.store().find(InvocationKey.of(claimed, toolCallId), TIMEOUT).get())
                    .as("record under the claimed run's key").isEmpty());
        });
        assertNoBudgetReserved();
    }

    /** A later call still runs when the run and the tool allow one call more than the probes before it. */
    void assertNoBudgetReserved() {
        int allowed = budgetProbe.executions() + 1;
        ToolBoundary probing = boundaryWith(
                logSearch(budgetProbe, FakeProjectors.evidenceFound(RESULT)).withCallBudgetPerRun(allowed));

        Either<BoundaryError, AgentResult> later = probing.invoke(sameRun(Fixtures.FAR_FUTURE, allowed), envelope());

        assertThat(later.isRight()).as("a later call within the budget left, got %s", later).isTrue();
    }

    static ErrorCode codeOf(Either<BoundaryError, AgentResult> result) {
        assertThat(result.isLeft()).as("the call failed").isTrue();
        return result.getLeft().code();
    }

    static void assertFailed(CanonicalRecord record, ErrorCode code) {
        assertThat(record.status()).isEqualTo(InvocationStatus.ERROR);
        assertThat(record.evidence()).containsExactly(EvidenceStatus.ERROR);
        assertThat(record.errorCode()).containsExactly(code);
        assertThat(record.agentResult()).isEmpty();
        assertThat(record.referencability()).isEqualTo(Referencability.NOT_REFERENCABLE);
    }

    /**
     * The record's remaining TTL once the store's own time has moved {@code STORE_TIME_STEP} past its creation: at once
     * on a store that follows the test's clock; on a server, after polling it.
     */
    Duration ttlOnceStoreTimeMoved(InvocationKey key) {
        Duration movedOn = TTL.minus(STORE_TIME_STEP);
        long giveUpAt = System.nanoTime() + STORE_TIME_PATIENCE.toNanos();
        while (true) {
            Duration left = fixture.remainingTtl(key)
                    .getOrElseThrow(() -> new AssertionError("no live record under " + key));
            if (left.compareTo(movedOn) <= 0) {
                return left;
            }
            assertThat(System.nanoTime() - giveUpAt).as("the store's time moved within %s", STORE_TIME_PATIENCE)
                    .isNegative();
            Thread.onSpinWait();
        }
    }

    /** The record is live with at most {@code bySuiteClock} left, exactly that when the store follows the clock. */
    void assertTtlLeft(InvocationKey key, Duration bySuiteClock) {
        Option<Duration> left = fixture.remainingTtl(key);
        assertThat(left).as("remaining TTL of a live record").isNotEmpty();
        assertThat(left.get()).isPositive().isLessThanOrEqualTo(TTL);
        if (fixture.storeExpiresOnTheSuiteClock()) {
            assertThat(left.get()).isEqualTo(bySuiteClock);
        }
    }
}
