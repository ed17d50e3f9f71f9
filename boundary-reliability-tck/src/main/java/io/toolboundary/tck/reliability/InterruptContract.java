package io.toolboundary.tck.reliability;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.ForwardingStore;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.CountingExecutor;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Interrupts at each point of a call, on a real store: an interrupt never leaves a record behind, the agent's answer
 * always agrees with the record, the caller's interrupt flag is always kept, and a replay never runs the tool again.
 * Each point runs {@link #rounds()} calls and prints one {@code RELIABILITY interrupts/<point>/<store>} line.
 */
public interface InterruptContract extends StoreFixture {

    /** Rounds per interrupt point; {@code -Dtoolboundary.interrupt.rounds=N} sets another number. */
    String ROUNDS_PROPERTY = "toolboundary.interrupt.rounds";

    /** Rounds per point: {@value #ROUNDS_PROPERTY} when set, else 100. */
    default int rounds() {
        return Integer.getInteger(ROUNDS_PROPERTY, 100);
    }

    /** Clears the test thread's interrupt flag, whatever a round left. */
    @AfterEach
    default void clearTheTestThreadsFlag() {
        Thread.interrupted();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(InterruptPoint.class)
    default void anInterruptNeverLeavesARecordBehindNorDisagreesWithIt(InterruptPoint point) {
        ReliabilityTally tally = new ReliabilityTally("interrupts/" + point.name().toLowerCase() + "/" + storeName(), 0);
        long projectingLeft = 0;
        long disagreements = 0;
        long flagLost = 0;
        for (int round = 0; round < rounds(); round++) {
            RunContext unopened = Fixtures.anyRunContext();
            ToolCallEnvelope call = Fixtures.envelope(unopened).build();
            InvocationKey key = InvocationKey.of(unopened.runId(), new ToolCallId(call.toolCallId()));
            CountingExecutor tool = FakeTools.counting(toolFor(point));
            ToolBoundary boundary = ToolBoundary.builder().store(interrupting(store(), point))
                    .accessPolicy(AccessPolicy.allowAll())
                    .tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME, tool, FakeProjectors.evidenceFound("found")))
                    .build();
            RunContext run = Fixtures.opened(boundary, unopened);

            Either<BoundaryError, AgentResult> answer;
            try {
                if (point == InterruptPoint.BEFORE_INVOKE) {
                    Thread.currentThread().interrupt();
                }
                answer = boundary.invoke(run, call);
            } catch (RuntimeException | Error escaped) {
                tally.unexpected(round, escaped);
                continue;
            } finally {
                boolean flagged = Thread.interrupted();
                if (!flagged) {
                    flagLost++;
                    tally.violation(round, "the caller's interrupt flag was lost");
                }
            }
            tally.call(answer.isLeft());

            Option<CanonicalRecord> stored = store().find(key, TIMEOUT).getOrElseThrow(
                    error -> new AssertionError("find failed: " + error));
            if (stored.isDefined() && stored.get() instanceof CanonicalRecord.Projecting) {
                projectingLeft++;
                tally.violation(round, "record left PROJECTING");
            }
            if (!agrees(answer, stored)) {
                disagreements++;
                tally.violation(round, "agent got " + answer + " but the record is " + stored.map(r -> r.status()));
            }
            int executions = tool.executions();
            Either<BoundaryError, AgentResult> replay = boundary.invoke(run, call);
            Thread.interrupted();
            if (tool.executions() != executions) {
                tally.duplicateExecution(round, "a replay ran the tool again");
            }
            tally.check(replay.isLeft() && replay.getLeft().code() == ErrorCode.DUPLICATE_TOOL_CALL, round,
                    "a replay was answered " + replay);
        }
        System.out.println("RELIABILITY interrupts/" + point.name().toLowerCase() + "/" + storeName()
                + " rounds=" + rounds() + " projectingLeft=" + projectingLeft + " disagreements=" + disagreements
                + " flagLost=" + flagLost);
        tally.reportAndAssertClean();
        assertThat(projectingLeft + disagreements + flagLost).isZero();
    }

    /**
     * The agent's answer agrees with the record: a result with a READY record holding it, an error with an ERROR record
     * holding that code.
     */
    private static boolean agrees(Either<BoundaryError, AgentResult> answer, Option<CanonicalRecord> stored) {
        if (stored.isEmpty()) {
            return false;
        }
        CanonicalRecord record = stored.get();
        if (answer.isRight()) {
            return record instanceof CanonicalRecord.Ready ready && ready.result().equals(answer.get());
        }
        return record instanceof CanonicalRecord.Failed failed && failed.code() == answer.getLeft().code();
    }

    /** The real store, with the caller's flag set as begin or complete starts. */
    private static CanonicalInvocationStore interrupting(CanonicalInvocationStore store, InterruptPoint point) {
        return new ForwardingStore(store) {
            @Override
            public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
                if (point == InterruptPoint.DURING_BEGIN) {
                    Thread.currentThread().interrupt();
                }
                return delegate().begin(start, timeout);
            }

            @Override
            public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token,
                    CanonicalRecord.Final record, Duration timeout) {
                if (point == InterruptPoint.DURING_COMPLETE) {
                    Thread.currentThread().interrupt();
                }
                return delegate().complete(token, record, timeout);
            }
        };
    }

    private static ToolExecutor toolFor(InterruptPoint point) {
        String raw = "10:00:02 ERROR timeout calling payments";
        return switch (point) {
            case DURING_TOOL -> request -> {
                Thread.currentThread().interrupt();
                return raw;
            };
            case TOOL_GIVES_UP -> request -> {
                Thread.currentThread().interrupt();
                throw new InterruptedException("interrupted while searching");
            };
            default -> request -> raw;
        };
    }
}
