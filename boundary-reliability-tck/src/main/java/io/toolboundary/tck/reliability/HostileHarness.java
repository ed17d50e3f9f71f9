package io.toolboundary.tck.reliability;

import static io.toolboundary.tck.reliability.HostileValues.ARGUMENTS;
import static io.toolboundary.tck.reliability.HostileValues.CREDENTIAL_MARKER;
import static io.toolboundary.tck.reliability.HostileValues.EXCEPTION_MARKER;
import static io.toolboundary.tck.reliability.HostileValues.RAW;
import static io.toolboundary.tck.reliability.HostileValues.RAW_MARKER;
import static io.toolboundary.tck.reliability.HostileValues.REQUEST_MARKER;
import static io.toolboundary.tck.reliability.HostileValues.TOOL;
import static io.toolboundary.tck.reliability.HostileValues.WRITER;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.tck.store.StoreFixture;
import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A boundary on the store under test, one run with a few READY records seeded in it and in another run, a counting
 * tool, a scripted projector, and the tally of the test.
 */
final class HostileHarness {

    /** The codes the boundary may answer a hostile call with; anything else is a violation. */
    private static final Set<ErrorCode> EXPECTED_CODES = EnumSet.of(ErrorCode.TOOL_CALL_ID_MISSING,
            ErrorCode.TOOL_CALL_ID_UNSAFE, ErrorCode.RUN_ID_INVALID, ErrorCode.RUN_MISMATCH, ErrorCode.RUN_INACTIVE,
            ErrorCode.RUN_DEADLINE_EXCEEDED, ErrorCode.TOOL_NAME_INVALID, ErrorCode.TOOL_NOT_REGISTERED,
            ErrorCode.TOOL_NOT_AUTHORIZED, ErrorCode.TOOL_NOT_READ_ONLY, ErrorCode.ARGUMENTS_TOO_LARGE,
            ErrorCode.ARGUMENTS_INVALID, ErrorCode.TEXT_NOT_UNICODE, ErrorCode.DUPLICATE_TOOL_CALL,
            ErrorCode.RESULT_TOO_LARGE, ErrorCode.EXECUTION_FAILED, ErrorCode.PROJECTION_FAILED);

    private final RunId runId = new RunId("run-" + UUID.randomUUID());
    private final RunId otherRunId = new RunId("run-" + UUID.randomUUID());
    private final RunContext run;
    private final Map<InvocationKey, AtomicInteger> executionsByKey = new LinkedHashMap<>();
    private final AtomicInteger executions = new AtomicInteger();
    final AtomicInteger projections = new AtomicInteger();
    final AtomicReference<HostilePayload> script = new AtomicReference<>();
    final ReliabilityTally tally;
    /** The seeded records of this run, by tool call id; a test adds the calls it saw accepted. */
    final Map<String, CanonicalRecord> accepted = new HashMap<>();
    private final ToolBoundaryConfig config;
    private final ToolBoundary boundary;
    private final Map<InvocationKey, CanonicalRecord> seeded = new LinkedHashMap<>();
    private final Supplier<CanonicalInvocationStore> store;

    /** A harness on {@code fixture}'s store whose tally is named {@code scenario/<store name>}. */
    HostileHarness(StoreFixture fixture, ToolBoundaryConfig config, String scenario, long seed) {
        this.store = fixture::store;
        this.config = config;
        ToolExecutor executor = request -> {
            executionsByKey.computeIfAbsent(request.key(), k -> new AtomicInteger()).incrementAndGet();
            executions.incrementAndGet();
            HostilePayload payload = script.get();
            if (payload != null && payload.kind() == HostilePayload.Kind.THROWING_TOOL) {
                throw new IllegalStateException(EXCEPTION_MARKER + " " + CREDENTIAL_MARKER + "s3cret at "
                        + request.key() + " " + request.arguments());
            }
            return payload == null ? RAW : payload.raw();
        };
        Projector projector = (ToolRequest request, String raw) -> {
            projections.incrementAndGet();
            HostilePayload payload = script.get();
            if (payload == null) {
                return Projection.evidenceFound("found");
            }
            if (payload.kind() == HostilePayload.Kind.THROWING_PROJECTOR) {
                throw new IllegalArgumentException(EXCEPTION_MARKER + " " + CREDENTIAL_MARKER + "s3cret " + raw);
            }
            return payload.projection();
        };
        this.boundary = ToolBoundary.builder()
                .store(store.get())
                .accessPolicy(AccessPolicy.allowAll())
                .clock(MutableClock.at(Instant.parse("2031-01-01T00:00:00Z")))
                .config(config)
                .tool(ToolBinding.readOnly(TOOL, executor, projector))
                .tool(ToolBinding.writable(WRITER, executor, projector))
                .build();
        this.run = Fixtures.opened(boundary,
                RunContext.active(runId, Instant.parse("9999-01-01T00:00:00Z"), RunContext.UNLIMITED));
        this.tally = new ReliabilityTally(scenario + "/" + fixture.storeName(), seed);
        seedRecords();
    }

    String runId() {
        return runId.value();
    }

    /** Stores a few READY records in this run and another one, before any hostile call. */
    private void seedRecords() {
        RunContext other = Fixtures.opened(boundary, RunContext.active(otherRunId, run.deadline(), RunContext.UNLIMITED));
        for (int i = 0; i < 4; i++) {
            String id = "seed-" + i;
            for (RunContext target : List.of(run, other)) {
                Either<BoundaryError, AgentResult> result = boundary.invoke(target,
                        ToolCallEnvelope.of(target.runId().value(), id, TOOL, ARGUMENTS));
                if (result.isLeft()) {
                    throw new IllegalStateException("could not store seed record: " + result.getLeft());
                }
                InvocationKey key = InvocationKey.of(target.runId(), new ToolCallId(id));
                seeded.put(key, store.get().find(key, TIMEOUT).get().get());
                if (target == run) {
                    accepted.put(id, seeded.get(key));
                }
            }
        }
    }

    int executions() {
        return executions.get();
    }

    /**
     * Ends the test: the seeded records are unchanged, no key ran twice, {@code expected} calls ran after seeding; then
     * reports the tally and fails when it found anything.
     */
    void finish(int expected) {
        seeded.forEach((key, record) -> tally.check(store.get().find(key, TIMEOUT).equals(Either.right(Option.of(record))),
                -1, "a record stored before the run changed: " + key.toolCallId()));
        executionsByKey.forEach((key, count) -> {
            if (count.get() > 1) {
                tally.duplicateExecution(-1, count.get() + " executions of one key");
            }
        });
        int afterSeeding = executions() - seeded.size();
        tally.check(afterSeeding == expected, -1, "executions " + afterSeeding + " != expected " + expected);
        tally.reportAndAssertClean();
    }

    /** The boundary's answer to {@code envelope} in this run, tallied; none when something escaped it. */
    Option<Either<BoundaryError, AgentResult>> invoke(int attempt, ToolCallEnvelope envelope) {
        try {
            Either<BoundaryError, AgentResult> outcome = boundary.invoke(run, envelope);
            tally.call(outcome.isLeft());
            if (outcome.isLeft() && !EXPECTED_CODES.contains(outcome.getLeft().code())) {
                tally.violation(attempt, "unexpected code " + outcome.getLeft().code());
            }
            return Option.of(outcome);
        } catch (Throwable failure) {
            tally.call(true);
            tally.unexpected(attempt, failure);
            return Option.none();
        }
    }

    Option<CanonicalRecord> find(String toolCallId, int attempt) {
        return find(runId, toolCallId, attempt);
    }

    Option<CanonicalRecord> find(RunId run, String toolCallId, int attempt) {
        try {
            Either<StoreFailure, Option<CanonicalRecord>> found =
                    store.get().find(InvocationKey.of(run, new ToolCallId(toolCallId)), TIMEOUT);
            if (found.isLeft()) {
                tally.violation(attempt, "find failed: " + found.getLeft().code());
                return Option.none();
            }
            return found.get();
        } catch (Throwable failure) {
            tally.unexpected(attempt, failure);
            return Option.none();
        }
    }

    void checkNoLeak(int attempt, Either<BoundaryError, AgentResult> outcome, String input) {
        List<String> seen = new ArrayList<>();
        if (outcome.isLeft()) {
            BoundaryError error = outcome.getLeft();
            seen.add(error.message());
            seen.add(error.toString());
            tally.check(catalogue(error.code()).contains(error.message()), attempt, "message not from the catalogue");
        } else {
            AgentResult result = outcome.get();
            seen.add(result.content());
            result.scope().forEach(seen::add);
        }
        Set<String> forbidden = new HashSet<>(List.of(RAW_MARKER, REQUEST_MARKER, EXCEPTION_MARKER,
                CREDENTIAL_MARKER, "call:", "{" + runId.value() + "}", runId.value(), otherRunId.value(),
                "Exception", "\tat "));
        if (input.length() >= 12 && outcome.isLeft()) {
            forbidden.add(input);
        }
        for (String text : seen) {
            for (String fragment : forbidden) {
                if (text.contains(fragment)) {
                    tally.leak(attempt, "agent text holds " + printable(fragment));
                }
            }
        }
    }

    /** The messages the agent may get with {@code code}: its fixed one, or that naming a configured limit of the code. */
    private Set<String> catalogue(ErrorCode code) {
        Set<String> messages = new HashSet<>(Set.of(code.safeMessage()));
        List<Long> limits = switch (code) {
            case ARGUMENTS_TOO_LARGE -> List.of(config.argumentsLimitBytes());
            case RESULT_TOO_LARGE -> List.of(config.rawResponseLimitBytes(), config.agentResultLimitBytes(),
                    config.recordLimitBytes());
            default -> List.of();
        };
        limits.forEach(limit -> messages.add(BoundaryError.overLimit(code, limit).message()));
        return messages;
    }

    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().limit(40).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c)
                : String.format("\\u%04x", c)));
        return out.toString();
    }
}
