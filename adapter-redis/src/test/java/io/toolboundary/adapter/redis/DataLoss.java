package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A harness for the data-loss faults: a boundary on a Redis store whose tool counts its executions per
 * call (run id and tool_call_id), the calls a run made, and the tally a fault test prints as its RELIABILITY line. Every
 * wait is bounded; nothing sleeps.
 */
final class DataLoss {

    /** How long a call may keep meeting a store that is not back yet (reconnecting, failing over). */
    static final Duration STORE_BACK = Duration.ofSeconds(20);

    final ToolBoundary boundary;
    private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
    private final Map<ErrorCode, Integer> refusals = new EnumMap<>(ErrorCode.class);
    private int answered;

    DataLoss(CanonicalInvocationStore store) {
        this.boundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME, request -> {
                    executions.computeIfAbsent(request.key().runId().value() + "/" + request.key().toolCallId().value(),
                            id -> new AtomicInteger()).incrementAndGet();
                    return "raw of " + request.key().toolCallId().value();
                }, FakeProjectors.evidenceFound("found")))
                .build();
    }

    /** Opens a new run, waiting (bounded) for a store that is not back yet. */
    RunContext openRun() {
        RunContext unopened = Fixtures.anyRunContext();
        long deadline = System.nanoTime() + STORE_BACK.toNanos();
        while (true) {
            Either<BoundaryError, RunContext> opened = boundary.openRun(unopened);
            if (opened.isRight()) {
                return opened.get();
            }
            assertThat(System.nanoTime() - deadline).as("the run opened within %s, last %s", STORE_BACK, opened)
                    .isNegative();
        }
    }

    /** The envelopes of calls {@code call_<from>} to {@code call_<to - 1>} of {@code run}. */
    static List<ToolCallEnvelope> calls(RunContext run, int from, int to) {
        List<ToolCallEnvelope> calls = new ArrayList<>();
        for (int i = from; i < to; i++) {
            calls.add(Fixtures.envelope(run).withToolCallId("call_" + i).build());
        }
        return calls;
    }

    /**
     * Invokes {@code call}, again while the store answers that it is not reachable (bounded by
     * {@link #STORE_BACK}), and counts the answer.
     */
    Either<BoundaryError, AgentResult> invoke(RunContext run, ToolCallEnvelope call) {
        long deadline = System.nanoTime() + STORE_BACK.toNanos();
        Either<BoundaryError, AgentResult> answer = boundary.invoke(run, call);
        while (answer.isLeft() && answer.getLeft().code() == ErrorCode.STORE_UNAVAILABLE
                && System.nanoTime() - deadline < 0) {
            answer = boundary.invoke(run, call);
        }
        answered++;
        if (answer.isLeft()) {
            refusals.merge(answer.getLeft().code(), 1, Integer::sum);
        }
        return answer;
    }

    /** Invokes every call, asserting each is answered with a result. */
    void succeed(RunContext run, List<ToolCallEnvelope> calls) {
        for (ToolCallEnvelope call : calls) {
            assertThat(invoke(run, call).isRight()).as("call %s", call.toolCallId()).isTrue();
        }
    }

    /** How many times the tool ran in all. */
    int executions() {
        return executions.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /** The calls (run id/tool_call_id) whose tool ran more than once. */
    List<String> reexecuted() {
        return executions.entrySet().stream().filter(e -> e.getValue().get() > 1).map(Map.Entry::getKey).sorted().toList();
    }

    /** How many answers were refusals with {@code code}. */
    int refused(ErrorCode code) {
        return refusals.getOrDefault(code, 0);
    }

    /** The RELIABILITY line of a fault. */
    void print(String fault, String extra) {
        System.out.println("RELIABILITY " + fault + ": calls=" + answered + " executions=" + executions()
                + " refused=" + refusals + " reexecutions=" + reexecuted().size() + (extra.isEmpty() ? "" : " " + extra));
    }
}
