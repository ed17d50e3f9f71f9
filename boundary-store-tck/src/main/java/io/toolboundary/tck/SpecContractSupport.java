package io.toolboundary.tck;

import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.CountingProjector;
import io.toolboundary.testkit.MutableClock;
import static org.assertj.core.api.Assertions.assertThat;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.RunToken;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
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
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every group of the requirements suite shares: the hooks a store adapter implements and the
 * helpers the scenarios use. The groups extend it in a chain, and {@link ToolBoundarySpecContract},
 * the one class an adapter extends, runs them all.
 */
public abstract class SpecContractSupport {

    /** Where {@link #clock()} stands when a test begins. */
    public static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    /** The time to live the boundaries of this suite give each record: the boundary's default. */
    public static final Duration TTL = ToolBoundaryConfig.DEFAULT_RECORD_TTL;

    static final String RAW = "2030-01-01T00:00:01Z ERROR checkout: timeout after 30000 ms";
    static final String RESULT = "1 timeout in checkout";
    /** How far the store's own time must move before a TTL reading that a renewal must not exceed. */
    static final Duration STORE_TIME_STEP = Duration.ofMillis(5);
    /** The longest wait for the store's own time to move that far. */
    static final Duration STORE_TIME_PATIENCE = Duration.ofSeconds(10);

    final MutableClock clock = MutableClock.at(START);
    /** This test's run, opened in {@link #store()} with its token before the test begins. */
    final RunContext run = Fixtures.anyRunContext().opened(RunToken.random());
    final CountingExecutor executor = FakeTools.counting(FakeTools.returning(RAW));
    final CountingProjector projector = FakeProjectors.counting(FakeProjectors.evidenceFound(RESULT));
    /** Runs the later calls that prove a refused call reserved no budget. */
    final CountingExecutor budgetProbe = FakeTools.counting(FakeTools.returning(RAW));

    // ---------------------------------------------------------------------------------------------
    // Hooks
    // ---------------------------------------------------------------------------------------------

    /**
     * The store under test; may be the same instance for every test. Called after this class's fields
     * are set, so a subclass may build it on {@link #clock()} in a field initializer.
     *
     * @return the store the boundaries of the cases are built on
     */
    protected abstract CanonicalInvocationStore store();

    /**
     * The time the record under {@code key} has left, read without changing it.
     *
     * @param key the run and tool call whose record is read
     * @return none when there is no live record under the key
     */
    protected abstract Option<Duration> remainingTtl(InvocationKey key);

    /**
     * Ends the life of the record under {@code key} now, as if its time to live had run out. May be
     * called from inside a tool, while the boundary waits for it.
     *
     * @param key the run and tool call whose record is to expire
     */
    protected abstract void expire(InvocationKey key);

    /**
     * Whether the store measures its records' lives on {@link #clock()}: then a record created at
     * {@link #START} has exactly {@link #TTL} left until the clock moves, and dies when the clock
     * reaches its expiry.
     *
     * @return true when the store's time to live runs on {@link #clock()}; false when it runs on a clock
     *     of its own (such as a server's), so remaining times are only checked to be positive and at
     *     most {@link #TTL}, not exact
     */
    protected abstract boolean storeExpiresOnTheSuiteClock();

    // ---------------------------------------------------------------------------------------------
    // What subclasses may use
    // ---------------------------------------------------------------------------------------------

    /**
     * The clock of this test's boundaries; a new one for each test, standing at {@link #START}.
     *
     * @return this test's clock, which the cases move by hand
     */
    protected final MutableClock clock() {
        return clock;
    }

    // ---------------------------------------------------------------------------------------------
    // Helpers
    // ---------------------------------------------------------------------------------------------

    @BeforeEach
    void openTheTestsRun() {
        assertThat(store().openRun(run.runId(), run.runToken().get(), Duration.ofDays(365)))
                .as("open this test's run").isEqualTo(Either.right(run.runToken().get()));
    }

    /** A run no other test uses, opened in {@link #store()}. */
    RunContext openedRun() {
        return Fixtures.opened(boundary(), Fixtures.anyRunContext());
    }

    /** This test's run, as opened, with another deadline and budget. */
    RunContext sameRun(Instant deadline, int callBudget) {
        return new RunContext(run.runId(), true, deadline, callBudget, run.runToken());
    }

    ToolBoundary boundary() {
        return boundaryWith(logSearch(executor, projector));
    }

    ToolBoundary boundaryWith(ToolBinding... tools) {
        return boundaryWith(ToolBoundaryConfig.ofDefaults(), tools);
    }

    ToolBoundary boundaryWith(ToolBoundaryConfig config, ToolBinding... tools) {
        return builder(config, tools).build();
    }

    ToolBoundaryBuilder builder(ToolBoundaryConfig config, ToolBinding... tools) {
        return builderOn(store(), config, tools);
    }

    ToolBoundaryBuilder builderOn(CanonicalInvocationStore store, ToolBoundaryConfig config,
            ToolBinding... tools) {
        ToolBoundaryBuilder builder = ToolBoundary.builder()
                .store(store)
                .accessPolicy(AccessPolicy.allowAll())
                .clock(clock)
                .config(config);
        for (ToolBinding tool : tools) {
            builder.tool(tool);
        }
        return builder;
    }

    static ToolBinding logSearch(ToolExecutor executor, Projector projector) {
        return ToolBinding.readOnly("log-search", executor, projector);
    }

    ToolCallEnvelope envelope() {
        return Fixtures.envelope(run).build();
    }

    InvocationKey keyOf(ToolCallEnvelope envelope) {
        return InvocationKey.of(run.runId(), new ToolCallId(envelope.toolCallId()));
    }

    Option<CanonicalRecord> find(ToolBoundary boundary, ToolCallEnvelope envelope) {
        return boundary.records().find(run.runId(), new ToolCallId(envelope.toolCallId())).get();
    }

    CanonicalRecord recordOf(ToolBoundary boundary, ToolCallEnvelope envelope) {
        return find(boundary, envelope).getOrElseThrow(() -> new AssertionError("no record for " + envelope));
    }

    void assertRefusedBeforeExecution(ToolBoundary boundary, RunContext context, ToolCallEnvelope envelope,
            ErrorCode code) {
        assertRefusedBeforeExecution(boundary.invoke(context, envelope), envelope, code);
    }

    /**
     * The call was refused before anything happened: the code, no execution, no projection, no record
     * under its key (in this test's run or the run the envelope claims), and no budget reserved.
     */
    void assertRefusedBeforeExecution(Either<BoundaryError, AgentResult> result, ToolCallEnvelope envelope,
            ErrorCode code) {
        assertThat(result.isLeft()).as("refused").isTrue();
        assertThat(result.getLeft().code()).isEqualTo(code);
        assertThat(executor.executions()).as("executions").isZero();
        assertThat(projector.projections()).as("projections").isZero();
        ToolCallId.of(envelope.toolCallId()).forEach(toolCallId -> {
            assertThat(store().find(InvocationKey.of(run.runId(), toolCallId)).get())
                    .as("record under the run's key").isEmpty();
            RunId.of(envelope.runId()).forEach(claimed -> assertThat(
                    store().find(InvocationKey.of(claimed, toolCallId)).get())
                    .as("record under the claimed run's key").isEmpty());
        });
        assertNoBudgetReserved();
    }

    /**
     * A later call of this test's run still runs when the run and the tool allow exactly one call more
     * than the probes before it: nothing else used their budgets.
     */
    void assertNoBudgetReserved() {
        int allowed = budgetProbe.executions() + 1;
        ToolBoundary probing = boundaryWith(
                logSearch(budgetProbe, FakeProjectors.evidenceFound(RESULT)).withCallBudgetPerRun(allowed));

        Either<BoundaryError, AgentResult> later = probing.invoke(
                sameRun(Fixtures.FAR_FUTURE, allowed), envelope());

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
     * The record's remaining TTL once the store's own time has moved {@link #STORE_TIME_STEP} past its
     * creation, so that a renewal would show as a larger TTL: at once on a store that follows the clock
     * the test has moved; on a server, after polling it for a few milliseconds of its own time.
     */
    Duration ttlOnceStoreTimeMoved(InvocationKey key) {
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
    void assertTtlLeft(InvocationKey key, Duration bySuiteClock) {
        Option<Duration> left = remainingTtl(key);
        assertThat(left).as("remaining TTL of a live record").isNotEmpty();
        assertThat(left.get()).isPositive().isLessThanOrEqualTo(TTL);
        if (storeExpiresOnTheSuiteClock()) {
            assertThat(left.get()).isEqualTo(bySuiteClock);
        }
    }
}
