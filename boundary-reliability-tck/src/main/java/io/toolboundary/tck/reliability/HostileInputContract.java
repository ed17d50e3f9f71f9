package io.toolboundary.tck.reliability;

import static io.toolboundary.tck.reliability.HostileValues.ARGUMENTS;
import static io.toolboundary.tck.reliability.HostileValues.DEFAULT_TRIES;
import static io.toolboundary.tck.reliability.HostileValues.PAYLOAD_LIMIT_BYTES;
import static io.toolboundary.tck.reliability.HostileValues.REQUEST_MARKER;
import static io.toolboundary.tck.reliability.HostileValues.SEED_PROPERTY;
import static io.toolboundary.tck.reliability.HostileValues.TOOL;
import static io.toolboundary.tck.reliability.HostileValues.TRIES_PROPERTY;
import static io.toolboundary.tck.reliability.HostileValues.WRITER;

import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.tck.reliability.HostileInputs.Allowed;
import io.toolboundary.tck.store.StoreFixture;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Hostile input through {@link ToolBoundary#invoke} on a real store, as property-style runs over a seeded {@link
 * Random}. A store adapter's test runs it by implementing this interface, {@link #store()} and {@link #storeName()}.
 */
public interface HostileInputContract extends StoreFixture {

    /** Tries per test: {@value HostileValues#TRIES_PROPERTY} when set, else {@value HostileValues#DEFAULT_TRIES}. */
    default int tries() {
        return Integer.getInteger(TRIES_PROPERTY, DEFAULT_TRIES);
    }

    /** The base seed: {@value HostileValues#SEED_PROPERTY} when set, else a fixed number. */
    default long seed() {
        return Long.getLong(SEED_PROPERTY, 20_261_202L);
    }

    @Test
    default void rejectsEveryUnsafeIdentifierAndRunsEverySafeOneOnce() {
        long seed = seed() + 1;
        Random random = new Random(seed);
        HostileHarness harness = new HostileHarness(this, ToolBoundaryConfig.custom().build(), "hostile-ids", seed);
        ReliabilityTally tally = harness.tally;
        Map<String, CanonicalRecord> accepted = harness.accepted;
        List<String> safePool = new ArrayList<>(accepted.keySet());
        int acceptedCalls = 0;

        for (int i = 0; i < tries(); i++) {
            int field = random.nextInt(10);
            HostileInputs.IdSample sample = HostileInputs.id(random, safePool);
            String toolCallId = field < 7 ? sample.value() : "fresh-" + i;
            String runId = field == 7 || field == 8 ? sample.value() : harness.runId();
            String toolName = field == 9 ? sample.value() : TOOL;
            ToolCallEnvelope envelope = ToolCallEnvelope.of(runId, toolCallId, toolName, ARGUMENTS);

            Allowed expected = expectedForIds(field, sample, harness, accepted);
            Option<Either<BoundaryError, AgentResult>> outcome = harness.invoke(i, envelope);
            if (outcome.isEmpty()) {
                continue;
            }
            checkOutcome(tally, i, sample.category(), outcome.get(), expected);
            harness.checkNoLeak(i, outcome.get(), sample.value());
            if (outcome.get().isLeft() && runId.equals(sample.value()) && sample.safe() && !runId.equals(harness.runId())) {
                tally.check(harness.find(new RunId(runId), toolCallId, i).isEmpty(), i,
                        "a call claiming another run left a record there");
            }
            if (HostileInputs.isSafeId(toolCallId)) {
                Option<CanonicalRecord> stored = harness.find(toolCallId, i);
                CanonicalRecord earlier = accepted.get(toolCallId);
                if (outcome.get().isRight()) {
                    tally.check(earlier == null, i, "a used id was accepted again: " + sample.category());
                    tally.check(stored.exists(r -> r.status() == InvocationStatus.READY
                            && r.key().toolCallId().value().equals(toolCallId) && r.arguments().equals(ARGUMENTS)),
                            i, "accepted call has no exact READY record");
                    stored.forEach(r -> accepted.put(toolCallId, r));
                    safePool.add(toolCallId);
                    acceptedCalls++;
                } else if (earlier != null) {
                    tally.check(stored.contains(earlier), i, "a refused call changed the earlier record");
                } else {
                    tally.check(stored.isEmpty(), i, "a refused call left a record: " + outcome.get().getLeft().code());
                }
            }
        }
        harness.finish(acceptedCalls);
    }

    @Test
    default void rejectsEveryInvalidJsonArgumentAndStoresEveryValidOneExactly() {
        long seed = seed() + 2;
        Random random = new Random(seed);
        HostileHarness harness = new HostileHarness(this, ToolBoundaryConfig.custom().build(), "hostile-json", seed);
        ReliabilityTally tally = harness.tally;
        int acceptedCalls = 0;

        for (int i = 0; i < tries(); i++) {
            JsonInputs.JsonSample sample = JsonInputs.json(random, REQUEST_MARKER);
            String toolCallId = "json-" + i;
            ToolCallEnvelope envelope = ToolCallEnvelope.of(harness.runId(), toolCallId, TOOL, sample.json());
            Option<Either<BoundaryError, AgentResult>> outcome = harness.invoke(i, envelope);
            if (outcome.isEmpty()) {
                continue;
            }
            checkOutcome(tally, i, sample.category(), outcome.get(), sample.allowed());
            harness.checkNoLeak(i, outcome.get(), sample.json());
            Option<CanonicalRecord> stored = harness.find(toolCallId, i);
            if (outcome.get().isRight()) {
                acceptedCalls++;
                tally.check(stored.exists(r -> r.status() == InvocationStatus.READY && r.arguments().equals(sample.json())),
                        i, "accepted " + sample.category() + " arguments are not stored exactly");
            } else {
                tally.check(stored.isEmpty(), i, "refused " + sample.category() + " arguments left a record");
            }
        }
        harness.finish(acceptedCalls);
    }

    @Test
    default void enforcesEveryByteLimitExactlyWhateverTheWidthOfTheLastCharacter() {
        long seed = seed() + 3;
        Random random = new Random(seed);
        ToolBoundaryConfig config = ToolBoundaryConfig.custom()
                .argumentsLimitBytes(PAYLOAD_LIMIT_BYTES)
                .rawResponseLimitBytes(PAYLOAD_LIMIT_BYTES)
                .agentResultLimitBytes(PAYLOAD_LIMIT_BYTES)
                .recordLimitBytes(4 * PAYLOAD_LIMIT_BYTES)
                .build();
        HostileHarness harness = new HostileHarness(this, config, "hostile-payloads", seed);
        ReliabilityTally tally = harness.tally;
        int runs = 0;

        for (int i = 0; i < tries(); i++) {
            HostilePayload payload = HostilePayload.random(random);
            String toolCallId = "payload-" + i;
            harness.script.set(payload);
            int executions = harness.executions();
            int projections = harness.projections.get();
            ToolCallEnvelope envelope = ToolCallEnvelope.of(harness.runId(), toolCallId, TOOL, payload.arguments());
            Option<Either<BoundaryError, AgentResult>> outcome = harness.invoke(i, envelope);
            if (outcome.isEmpty()) {
                continue;
            }
            Either<BoundaryError, AgentResult> result = outcome.get();
            String what = payload.describe();
            harness.checkNoLeak(i, result, payload.arguments());
            Option<CanonicalRecord> stored = harness.find(toolCallId, i);
            boolean ran = harness.executions() > executions;
            boolean projected = harness.projections.get() > projections;
            boolean shouldRun = !(payload.kind() == HostilePayload.Kind.ARGUMENTS && payload.over());
            tally.check(ran == shouldRun, i, what + (shouldRun ? ": the tool did not run" : ": the tool ran"));
            if (shouldRun) {
                runs++;
            }
            ErrorCode expected = payload.expectedCode();
            if (expected == null) {
                tally.check(result.isRight() && result.get().content().equals(payload.content())
                        && result.get().scope().equals(payload.scope()), i, what + ": expected the exact result, got "
                        + describe(result));
                tally.check(stored.exists(r -> r.status() == InvocationStatus.READY && r.arguments().equals(payload.arguments())
                        && r.rawResponse().contains(payload.raw()) && r.agentResult().equals(result.toOption())),
                        i, what + ": READY record not exact");
                continue;
            }
            tally.check(result.isLeft() && result.getLeft().code() == expected, i,
                    what + ": expected " + expected + ", got " + describe(result));
            switch (payload.kind()) {
                case ARGUMENTS -> tally.check(stored.isEmpty(), i, what + ": oversized arguments left a record");
                case RAW -> {
                    tally.check(!projected, i, what + ": the projector saw an oversized raw response");
                    tally.check(stored.exists(r -> r.status() == InvocationStatus.ERROR
                            && r.errorCode().contains(ErrorCode.RESULT_TOO_LARGE) && r.rawResponse().isEmpty()),
                            i, what + ": record not ERROR/RESULT_TOO_LARGE without raw");
                }
                case PROJECTION, THROWING_PROJECTOR -> tally.check(stored.exists(r -> r.status() == InvocationStatus.ERROR
                        && r.errorCode().contains(expected) && r.rawResponse().contains(payload.raw())),
                        i, what + ": record not ERROR/" + expected + " with the raw response kept");
                case THROWING_TOOL -> tally.check(stored.exists(r -> r.status() == InvocationStatus.ERROR
                        && r.errorCode().contains(ErrorCode.EXECUTION_FAILED)), i, what + ": record not ERROR/EXECUTION_FAILED");
            }
        }
        harness.finish(runs);
    }

    /** What the boundary may answer a call whose {@code field} (tool call id below 7, run id to 8, tool) is the sample. */
    private static Allowed expectedForIds(int field, HostileInputs.IdSample sample, HostileHarness harness,
            Map<String, CanonicalRecord> accepted) {
        if (field < 7) {
            return sample.blank() ? Allowed.only(ErrorCode.TOOL_CALL_ID_MISSING)
                    : !sample.safe() ? Allowed.only(ErrorCode.TOOL_CALL_ID_UNSAFE)
                    : accepted.containsKey(sample.value()) ? Allowed.only(ErrorCode.DUPLICATE_TOOL_CALL)
                    : Allowed.acceptedOnly();
        }
        if (field < 9) {
            return !sample.safe() ? Allowed.only(ErrorCode.RUN_ID_INVALID)
                    : sample.value().equals(harness.runId()) ? Allowed.acceptedOnly()
                    : Allowed.only(ErrorCode.RUN_MISMATCH);
        }
        return !sample.safe() ? Allowed.only(ErrorCode.TOOL_NAME_INVALID)
                : sample.value().equals(TOOL) ? Allowed.acceptedOnly()
                : sample.value().equals(WRITER) ? Allowed.only(ErrorCode.TOOL_NOT_READ_ONLY)
                : Allowed.only(ErrorCode.TOOL_NOT_REGISTERED);
    }

    private static void checkOutcome(ReliabilityTally tally, int attempt, String category,
            Either<BoundaryError, AgentResult> outcome, Allowed allowed) {
        if (outcome.isRight()) {
            tally.check(allowed.accepted(), attempt, category + ": accepted, allowed only " + allowed.codes());
            return;
        }
        ErrorCode code = outcome.getLeft().code();
        tally.check(code != ErrorCode.INTERNAL_ERROR, attempt, category + ": INTERNAL_ERROR");
        tally.check(allowed.codes().contains(code), attempt, category + ": " + code + " not in " + allowed.codes()
                + (allowed.accepted() ? " or accepted" : ""));
    }

    private static String describe(Either<BoundaryError, AgentResult> result) {
        return result.isLeft() ? result.getLeft().code().name() : "a result of " + result.get().byteSize() + " bytes";
    }
}
