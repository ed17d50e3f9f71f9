package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.toolboundary.adapter.redis.AmbiguityRig.Call;
import io.toolboundary.adapter.redis.AmbiguityRig.Tally;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.testsupport.redis.FaultProxy;
import io.toolboundary.testsupport.redis.FaultProxy.Mode;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Replies lost after the script ran, on a real {@code redis-server} behind a {@link FaultProxy}: the
 * store is made by {@code connectStandalone} through the proxy, and every call goes through
 * {@code ToolBoundary.invoke}. Each round breaks one call at a chosen point, heals the link, ends every
 * pair {@code onUnfinished} handed over with {@code endUnfinished}, and then checks against the server
 * itself (not through the proxy): no record PROJECTING, no disagreement between the agent's answer and the
 * record (see {@link AmbiguityRig#settle}), and a replay of the call never runs the tool again.
 *
 * <p>Rounds per scenario: {@value #DEFAULT_ROUNDS}, or {@code -Dtoolboundary.ambiguity.rounds=N}
 * ({@code -Psoak} sets 200). Each scenario prints one {@code RELIABILITY ambiguity/...} line.
 */
class AmbiguousOutcomeTest {

    static final int DEFAULT_ROUNDS = 20;
    static final int ROUNDS = Integer.getInteger("toolboundary.ambiguity.rounds", DEFAULT_ROUNDS);
    /** Short timeouts, so that a round whose link stays broken ends fast: begin gets 400 ms, the whole call 800 ms. */
    static final Duration RESPONSE_TIMEOUT = Duration.ofMillis(150);
    static final ToolBoundaryConfig BROKEN_LINK = ToolBoundaryConfig.custom().storeTimeout(Duration.ofMillis(800)).build();
    /** The shipped store budget, for rounds whose link heals: the retry that finds the script's own effect has room. */
    static final ToolBoundaryConfig HEALING_LINK = ToolBoundaryConfig.ofDefaults();

    private static RedisStoreOptions.Builder options() {
        return RedisStoreOptions.custom().responseTimeout(RESPONSE_TIMEOUT).connectTimeout(Duration.ofMillis(500));
    }

    @Test
    void aBeginWhoseReplyWasLostAndWhoseLinkStaysDownEndsNoRecordProjecting() {
        try (AmbiguityRig rig = AmbiguityRig.throughProxy(options())) {
            ToolBoundary boundary = rig.boundary(BROKEN_LINK);
            warmUp(rig, boundary);
            Tally tally = new Tally("ambiguity/begin-reply-lost-then-link-down");
            for (int round = 0; round < ROUNDS; round++) {
                Mode down = round % 2 == 0 ? Mode.REFUSE : Mode.BLACK_HOLE;
                String id = "a-" + round;
                long before = rig.scriptRuns();
                rig.proxy().mode(Mode.DROP_REPLIES);
                Future<Call> running = rig.invokeAsync(boundary, id);
                rig.awaitScriptRuns(before + 1);
                rig.proxy().mode(down);
                tally.faults++;
                Call call = AmbiguityRig.result(running);
                rig.proxy().mode(Mode.PASS);

                assertThat(rig.tool.executions(id)).as("the tool never runs on an unconfirmed begin").isZero();
                assertThat(call.code().getOrNull()).as(id).isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
                rig.settle(boundary, call, tally);
                tally.rounds++;
            }
            tally.check(rig);
            assertThat(tally.handedOver).as("a begin that ran unconfirmed and could not be ended is handed over")
                    .isPositive();
        }
    }

    @Test
    void aCompletionWhoseReplyWasLostAndWhoseLinkStaysDownTellsTheAgentTheOutcomeIsUnknown() {
        try (AmbiguityRig rig = AmbiguityRig.throughProxy(options())) {
            ToolBoundary boundary = rig.boundary(BROKEN_LINK);
            warmUp(rig, boundary);
            Tally tally = new Tally("ambiguity/complete-reply-lost-then-link-down");
            for (int round = 0; round < ROUNDS; round++) {
                Mode down = round % 2 == 0 ? Mode.REFUSE : Mode.BLACK_HOLE;
                String id = "b-" + round;
                rig.tool.closeGate();
                int entered = rig.tool.entered();
                Future<Call> running = rig.invokeAsync(boundary, id);
                await().atMost(Duration.ofSeconds(20)).until(() -> rig.tool.entered() == entered + 1);
                long before = rig.scriptRuns();
                rig.proxy().mode(Mode.DROP_REPLIES);
                rig.tool.openGate();
                rig.awaitScriptRuns(before + 1);
                rig.proxy().mode(down);
                tally.faults++;
                Call call = AmbiguityRig.result(running);
                rig.proxy().mode(Mode.PASS);

                assertThat(rig.tool.executions(id)).isEqualTo(1);
                assertThat(call.code().getOrNull()).as("the tool ran and the store did not confirm")
                        .isEqualTo(ErrorCode.STORE_OUTCOME_UNKNOWN);
                assertThat(rig.record(id).get("status")).as("the completion ran before its reply was lost")
                        .isEqualTo("READY");
                rig.settle(boundary, call, tally);
                tally.rounds++;
            }
            tally.check(rig);
        }
    }

    @Test
    void aReplyLostOnALinkThatHealsAtOnceIsRecoveredByTheRetry() {
        try (AmbiguityRig rig = AmbiguityRig.throughProxy(options())) {
            ToolBoundary boundary = rig.boundary(HEALING_LINK);
            warmUp(rig, boundary);
            Tally tally = new Tally("ambiguity/reply-lost-link-heals");
            for (int round = 0; round < ROUNDS; round++) {
                boolean atBegin = round % 2 == 0;
                String id = "c-" + round;
                Future<Call> running;
                long before;
                if (atBegin) {
                    before = rig.scriptRuns();
                    rig.proxy().mode(Mode.DROP_REPLIES);
                    running = rig.invokeAsync(boundary, id);
                } else {
                    rig.tool.closeGate();
                    int entered = rig.tool.entered();
                    running = rig.invokeAsync(boundary, id);
                    await().atMost(Duration.ofSeconds(20)).until(() -> rig.tool.entered() == entered + 1);
                    before = rig.scriptRuns();
                    rig.proxy().mode(Mode.DROP_REPLIES);
                    rig.tool.openGate();
                }
                rig.awaitScriptRuns(before + 1);
                rig.proxy().mode(Mode.PASS);
                tally.faults++;
                Call call = AmbiguityRig.result(running);

                assertThat(call.outcome().isRight()).as(id + " (lost " + (atBegin ? "begin" : "complete")
                        + " reply) answered " + call.code()).isTrue();
                assertThat(rig.tool.executions(id)).isEqualTo(1);
                assertThat(rig.record(id).get("status")).isEqualTo("READY");
                rig.settle(boundary, call, tally);
                tally.rounds++;
            }
            tally.check(rig);
            assertThat(tally.handedOver).isZero();
        }
    }

    @Test
    void aConnectionResetMidBeginNeverLeavesARecordProjectingNorRunsTheToolTwice() {
        try (AmbiguityRig rig = AmbiguityRig.throughProxy(options())) {
            ToolBoundary boundary = rig.boundary(BROKEN_LINK);
            warmUp(rig, boundary);
            long beginBytes = beginCommandBytes(rig, boundary);
            Random random = new Random(Long.getLong("toolboundary.ambiguity.seed", 11L));
            Tally tally = new Tally("ambiguity/connection-reset-mid-begin");
            for (int round = 0; round < ROUNDS; round++) {
                String id = "d-" + round;
                // Mostly inside the begin command; a third of the rounds at its end or just after it.
                long cut = round % 3 == 2
                        ? beginBytes - 16 + 1 + random.nextInt(80)
                        : 1 + random.nextInt((int) beginBytes - 16);
                rig.proxy().resetAfterClientBytes(cut);
                tally.faults++;
                Call call = rig.invoke(boundary, rig.run, id);
                if (rig.proxy().cutArmed()) {
                    // The cut was beyond this call's traffic.
                    rig.proxy().disarmCut();
                }
                assertThat(rig.tool.executions(id)).isLessThanOrEqualTo(1);
                rig.settle(boundary, call, tally);
                tally.rounds++;
            }
            tally.check(rig);
            System.out.println("FAULT ambiguity/connection-reset-mid-begin beginBytes=" + beginBytes
                    + " proxyResets=" + rig.proxy().resets());
        }
    }

    /** One successful call loads the begin and complete scripts; ending an absent record loads end.lua. */
    private static void warmUp(AmbiguityRig rig, ToolBoundary boundary) {
        assertThat(rig.invoke(boundary, rig.run, "warm-up").outcome().isRight()).isTrue();
        assertThat(boundary.endUnfinished(rig.key("warm-up-absent"), AttemptToken.random()).getLeft().code())
                .isEqualTo(ErrorCode.RECORD_EXPIRED);
    }

    /** The bytes one begin command sends: measured between the call's start and its tool's entry. */
    private static long beginCommandBytes(AmbiguityRig rig, ToolBoundary boundary) {
        FaultProxy proxy = rig.proxy();
        rig.tool.closeGate();
        int entered = rig.tool.entered();
        long before = proxy.bytesToServer();
        Future<Call> running = rig.invokeAsync(boundary, "d-measure");
        await().atMost(Duration.ofSeconds(20)).until(() -> rig.tool.entered() == entered + 1);
        long bytes = proxy.bytesToServer() - before;
        rig.tool.openGate();
        assertThat(AmbiguityRig.result(running).outcome().isRight()).isTrue();
        assertThat(bytes).as("one begin command").isGreaterThan(100);
        return bytes;
    }
}
