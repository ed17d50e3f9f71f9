package io.toolboundary.tck.reliability;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.MutableClock;
import io.toolboundary.tck.reliability.HostileInputs.Allowed;
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
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Hostile input through {@link ToolBoundary#invoke} on a real store, as property-style runs over a
 * seeded {@link Random}. A store adapter runs it by extending this class and supplying its store.
 *
 * <p>Each try must end in a successful call or an error from the set its generator allows (never
 * {@code INTERNAL_ERROR}); no throwable may escape; a call refused before the store creates no
 * record; records stored before the run stay exactly as they were; no tool runs twice for one key;
 * and nothing the agent receives (an error's message and text, a result's content and scope) holds
 * the raw response, the request, an exception text, a credential or a store key. Each test prints one
 * {@code RELIABILITY} line with its counts (see {@link ReliabilityTally}) and fails on any finding.
 *
 * <p>Tries per test: {@value #DEFAULT_TRIES}, or the value of the system property
 * {@value #TRIES_PROPERTY}. The seed can be set with {@value #SEED_PROPERTY}.
 */
public abstract class HostileInputContract {

    /** The system property that sets the number of tries per test. */
    public static final String TRIES_PROPERTY = "toolboundary.fuzz.tries";

    /** The system property that sets the seed of every run (each test adds its own offset). */
    public static final String SEED_PROPERTY = "toolboundary.fuzz.seed";

    /** Tries per test when {@value #TRIES_PROPERTY} is not set. */
    public static final int DEFAULT_TRIES = 1000;

    /** The byte limit of the payload test: request, raw response and agent result. */
    public static final int PAYLOAD_LIMIT_BYTES = 1024;

    /** Carried by every raw response; must never reach the agent. */
    public static final String RAW_MARKER = "RAW-7c1e9a";

    /** Carried by every valid request; must never reach the agent in an error. */
    public static final String REQUEST_MARKER = "REQ-4b8d2f";

    /** Carried by every exception a tool or projector throws; must never reach the agent. */
    public static final String EXCEPTION_MARKER = "EXC-93f0d1";

    /** A credential fragment carried by raw responses and exception texts. */
    public static final String CREDENTIAL_MARKER = "password=";

    private static final String TOOL = "fuzz_tool";
    private static final String WRITER = "fuzz_writer";
    private static final String RAW = "{\"hits\":1,\"" + RAW_MARKER + "\":\"" + CREDENTIAL_MARKER + "hunter2\"}";
    private static final String ARGUMENTS = "{\"q\":\"" + REQUEST_MARKER + "\"}";
    private static final Set<ErrorCode> PREFLIGHT = EnumSet.of(ErrorCode.TOOL_CALL_ID_MISSING,
            ErrorCode.TOOL_CALL_ID_UNSAFE, ErrorCode.RUN_ID_INVALID, ErrorCode.RUN_MISMATCH, ErrorCode.RUN_INACTIVE,
            ErrorCode.RUN_DEADLINE_EXCEEDED, ErrorCode.TOOL_NAME_INVALID, ErrorCode.TOOL_NOT_REGISTERED,
            ErrorCode.TOOL_NOT_AUTHORIZED, ErrorCode.TOOL_NOT_READ_ONLY, ErrorCode.REQUEST_TOO_LARGE,
            ErrorCode.ARGUMENTS_INVALID, ErrorCode.TEXT_NOT_UNICODE);

    // ---------------------------------------------------------------------------------------------
    // Hooks
    // ---------------------------------------------------------------------------------------------

    /**
     * The store under test; may be the same instance for every test (each test uses its own runs).
     *
     * @return the store the boundaries of the tests are built on
     */
    protected abstract CanonicalInvocationStore store();

    /**
     * The store's name in the printed lines, for example {@code in-memory}.
     *
     * @return the name that ends each scenario in the {@code RELIABILITY} lines
     */
    protected abstract String storeName();

    /**
     * Tries per test: {@value #TRIES_PROPERTY} when set, else {@value #DEFAULT_TRIES}.
     *
     * @return how many hostile inputs each test sends through the boundary
     */
    protected int tries() {
        return Integer.getInteger(TRIES_PROPERTY, DEFAULT_TRIES);
    }

    /**
     * The base seed: {@value #SEED_PROPERTY} when set, else a fixed number.
     *
     * @return the seed each test offsets by its own number to seed its random inputs
     */
    protected long seed() {
        return Long.getLong(SEED_PROPERTY, 20_261_202L);
    }

    // ---------------------------------------------------------------------------------------------
    // Tests
    // ---------------------------------------------------------------------------------------------

    @Test
    void rejectsEveryUnsafeIdentifierAndRunsEverySafeOneOnce() {
        long seed = seed() + 1;
        Random random = new Random(seed);
        Harness harness = new Harness(ToolBoundaryConfig.custom().build());
        ReliabilityTally tally = new ReliabilityTally("hostile-ids/" + storeName(), seed);
        Map<String, CanonicalRecord> accepted = new HashMap<>();
        harness.seedRecords(accepted);
        Map<InvocationKey, CanonicalRecord> before = harness.snapshot();
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
            Option<Either<BoundaryError, AgentResult>> outcome = harness.invoke(i, envelope, tally);
            if (outcome.isEmpty()) {
                continue;
            }
            checkOutcome(tally, i, sample.category(), outcome.get(), expected);
            harness.checkNoLeak(tally, i, outcome.get(), sample.value());
            if (outcome.get().isLeft() && runId.equals(sample.value()) && sample.safe() && !runId.equals(harness.runId())) {
                tally.check(harness.find(new RunId(runId), toolCallId, tally, i).isEmpty(), i,
                        "a call claiming another run left a record there");
            }
            if (HostileInputs.isSafeId(toolCallId)) {
                Option<CanonicalRecord> stored = harness.find(toolCallId, tally, i);
                CanonicalRecord earlier = accepted.get(toolCallId);
                if (outcome.get().isRight()) {
                    tally.check(earlier == null, i, "a used id was accepted again: " + sample.category());
                    tally.check(stored.exists(r -> r.status() == InvocationStatus.READY
                            && r.key().toolCallId().value().equals(toolCallId) && r.request().equals(ARGUMENTS)),
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
        harness.checkUnchanged(tally, before);
        harness.checkExecutions(tally, acceptedCalls);
        tally.reportAndAssertClean();
    }

    @Test
    void rejectsEveryInvalidJsonArgumentAndStoresEveryValidOneExactly() {
        long seed = seed() + 2;
        Random random = new Random(seed);
        Harness harness = new Harness(ToolBoundaryConfig.custom().build());
        ReliabilityTally tally = new ReliabilityTally("hostile-json/" + storeName(), seed);
        Map<String, CanonicalRecord> accepted = new HashMap<>();
        harness.seedRecords(accepted);
        Map<InvocationKey, CanonicalRecord> before = harness.snapshot();
        int acceptedCalls = 0;

        for (int i = 0; i < tries(); i++) {
            HostileInputs.JsonSample sample = HostileInputs.json(random, REQUEST_MARKER);
            String toolCallId = "json-" + i;
            ToolCallEnvelope envelope = ToolCallEnvelope.of(harness.runId(), toolCallId, TOOL, sample.json());
            Option<Either<BoundaryError, AgentResult>> outcome = harness.invoke(i, envelope, tally);
            if (outcome.isEmpty()) {
                continue;
            }
            checkOutcome(tally, i, sample.category(), outcome.get(), sample.allowed());
            harness.checkNoLeak(tally, i, outcome.get(), sample.json());
            Option<CanonicalRecord> stored = harness.find(toolCallId, tally, i);
            if (outcome.get().isRight()) {
                acceptedCalls++;
                tally.check(stored.exists(r -> r.status() == InvocationStatus.READY && r.request().equals(sample.json())),
                        i, "accepted " + sample.category() + " arguments are not stored exactly");
            } else {
                tally.check(stored.isEmpty(), i, "refused " + sample.category() + " arguments left a record");
            }
        }
        harness.checkUnchanged(tally, before);
        harness.checkExecutions(tally, acceptedCalls);
        tally.reportAndAssertClean();
    }

    @Test
    void enforcesEveryByteLimitExactlyWhateverTheWidthOfTheLastCharacter() {
        long seed = seed() + 3;
        Random random = new Random(seed);
        ToolBoundaryConfig config = ToolBoundaryConfig.custom()
                .requestLimitBytes(PAYLOAD_LIMIT_BYTES)
                .rawResponseLimitBytes(PAYLOAD_LIMIT_BYTES)
                .agentResultLimitBytes(PAYLOAD_LIMIT_BYTES)
                .recordLimitBytes(4 * PAYLOAD_LIMIT_BYTES)
                .build();
        Harness harness = new Harness(config);
        ReliabilityTally tally = new ReliabilityTally("hostile-payloads/" + storeName(), seed);
        Map<String, CanonicalRecord> accepted = new HashMap<>();
        harness.seedRecords(accepted);
        Map<InvocationKey, CanonicalRecord> before = harness.snapshot();
        int runs = 0;

        for (int i = 0; i < tries(); i++) {
            Payload payload = Payload.random(random);
            String toolCallId = "payload-" + i;
            harness.script.set(payload);
            int executions = harness.executions();
            int projections = harness.projections.get();
            ToolCallEnvelope envelope = ToolCallEnvelope.of(harness.runId(), toolCallId, TOOL, payload.arguments());
            Option<Either<BoundaryError, AgentResult>> outcome = harness.invoke(i, envelope, tally);
            if (outcome.isEmpty()) {
                continue;
            }
            Either<BoundaryError, AgentResult> result = outcome.get();
            String what = payload.describe();
            harness.checkNoLeak(tally, i, result, payload.arguments());
            Option<CanonicalRecord> stored = harness.find(toolCallId, tally, i);
            boolean ran = harness.executions() > executions;
            boolean projected = harness.projections.get() > projections;
            boolean shouldRun = !(payload.kind() == Kind.ARGUMENTS && payload.over());
            tally.check(ran == shouldRun, i, what + (shouldRun ? ": the tool did not run" : ": the tool ran"));
            if (shouldRun) {
                runs++;
            }
            ErrorCode expected = payload.expectedCode();
            if (expected == null) {
                tally.check(result.isRight() && result.get().content().equals(payload.content())
                        && result.get().scope().equals(payload.scope()), i, what + ": expected the exact result, got "
                        + describe(result));
                tally.check(stored.exists(r -> r.status() == InvocationStatus.READY && r.request().equals(payload.arguments())
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
        harness.checkUnchanged(tally, before);
        harness.checkExecutions(tally, runs);
        tally.reportAndAssertClean();
    }

    // ---------------------------------------------------------------------------------------------
    // Expectations
    // ---------------------------------------------------------------------------------------------

    private static Allowed expectedForIds(int field, HostileInputs.IdSample sample, Harness harness,
            Map<String, CanonicalRecord> accepted) {
        if (field < 7) {
            if (sample.blank()) {
                return Allowed.only(ErrorCode.TOOL_CALL_ID_MISSING);
            }
            if (!sample.safe()) {
                return Allowed.only(ErrorCode.TOOL_CALL_ID_UNSAFE);
            }
            return accepted.containsKey(sample.value())
                    ? Allowed.only(ErrorCode.DUPLICATE_TOOL_CALL)
                    : Allowed.acceptedOnly();
        }
        if (field < 9) {
            if (!sample.safe()) {
                return Allowed.only(ErrorCode.RUN_ID_INVALID);
            }
            return sample.value().equals(harness.runId())
                    ? Allowed.acceptedOnly()
                    : Allowed.only(ErrorCode.RUN_MISMATCH);
        }
        if (!sample.safe()) {
            return Allowed.only(ErrorCode.TOOL_NAME_INVALID);
        }
        if (sample.value().equals(TOOL)) {
            return Allowed.acceptedOnly();
        }
        return sample.value().equals(WRITER)
                ? Allowed.only(ErrorCode.TOOL_NOT_READ_ONLY)
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

    // ---------------------------------------------------------------------------------------------
    // Payloads of an exact size
    // ---------------------------------------------------------------------------------------------

    /** Where a payload is put. */
    private enum Kind { ARGUMENTS, RAW, PROJECTION, THROWING_TOOL, THROWING_PROJECTOR }

    /** One payload try: which part is sized, at the limit or one byte over, and its last character's width. */
    private record Payload(Kind kind, boolean over, int lastCharBytes, String arguments, String raw, String content,
            Option<String> scope) {

        static Payload random(Random random) {
            Kind kind = Kind.values()[random.nextInt(10) < 8 ? random.nextInt(3) : 3 + random.nextInt(2)];
            boolean over = random.nextBoolean();
            int width = 1 + random.nextInt(4);
            int size = PAYLOAD_LIMIT_BYTES + (over ? 1 : 0);
            String arguments = ARGUMENTS;
            String raw = RAW;
            String content = "found " + random.nextInt(1000);
            Option<String> scope = Option.none();
            switch (kind) {
                case ARGUMENTS -> arguments = "{\"q\":\"" + HostileInputs.textOfUtf8Bytes(random, size - 8, width) + "\"}";
                case RAW -> raw = HostileInputs.textOfUtf8Bytes(random, size, width);
                case PROJECTION -> {
                    if (random.nextBoolean()) {
                        int scopeBytes = 1 + random.nextInt(64);
                        scope = Option.of(HostileInputs.textOfUtf8Bytes(random, scopeBytes, 1));
                        content = HostileInputs.textOfUtf8Bytes(random, size - scopeBytes, width);
                    } else {
                        content = HostileInputs.textOfUtf8Bytes(random, size, width);
                    }
                }
                default -> {
                }
            }
            return new Payload(kind, over, width, arguments, raw, content, scope);
        }

        ErrorCode expectedCode() {
            return switch (kind) {
                case THROWING_TOOL -> ErrorCode.EXECUTION_FAILED;
                case THROWING_PROJECTOR -> ErrorCode.PROJECTION_FAILED;
                case ARGUMENTS -> over ? ErrorCode.REQUEST_TOO_LARGE : null;
                case RAW, PROJECTION -> over ? ErrorCode.RESULT_TOO_LARGE : null;
            };
        }

        Projection projection() {
            return scope.isDefined() && scope.get().length() % 2 == 0
                    ? Projection.noEvidence(content, scope.get())
                    : new Projection(content, io.toolboundary.domain.EvidenceStatus.EVIDENCE_FOUND, scope);
        }

        String describe() {
            return kind + (over ? " limit+1" : " at limit") + ", last character " + lastCharBytes + " bytes";
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The boundary under test
    // ---------------------------------------------------------------------------------------------

    /** A boundary on the store under test, one run, a counting tool and a scripted projector. */
    private final class Harness {
        private final RunId runId = new RunId("run-" + UUID.randomUUID());
        private final RunId otherRunId = new RunId("run-" + UUID.randomUUID());
        private final RunContext run = RunContext.active(runId, Instant.parse("9999-01-01T00:00:00Z"), RunContext.UNLIMITED);
        private final Map<InvocationKey, AtomicInteger> executionsByKey = new LinkedHashMap<>();
        private final AtomicInteger executions = new AtomicInteger();
        private final AtomicInteger projections = new AtomicInteger();
        private final AtomicReference<Payload> script = new AtomicReference<>();
        private final ToolBoundary boundary;
        private final List<InvocationKey> seeded = new ArrayList<>();

        Harness(ToolBoundaryConfig config) {
            ToolExecutor executor = request -> {
                executionsByKey.computeIfAbsent(request.key(), k -> new AtomicInteger()).incrementAndGet();
                executions.incrementAndGet();
                Payload payload = script.get();
                if (payload != null && payload.kind() == Kind.THROWING_TOOL) {
                    throw new IllegalStateException(EXCEPTION_MARKER + " " + CREDENTIAL_MARKER + "s3cret at "
                            + request.key() + " " + request.arguments());
                }
                return payload == null ? RAW : payload.raw();
            };
            Projector projector = (ToolRequest request, String raw) -> {
                projections.incrementAndGet();
                Payload payload = script.get();
                if (payload == null) {
                    return Projection.evidenceFound("found");
                }
                if (payload.kind() == Kind.THROWING_PROJECTOR) {
                    throw new IllegalArgumentException(EXCEPTION_MARKER + " " + CREDENTIAL_MARKER + "s3cret " + raw);
                }
                return payload.projection();
            };
            MutableClock clock = MutableClock.at(Instant.parse("2031-01-01T00:00:00Z"));
            this.boundary = ToolBoundary.builder()
                    .store(store())
                    .accessPolicy(AccessPolicy.allowAll())
                    .clock(clock)
                    .config(config)
                    .tool(ToolBinding.readOnly(TOOL, executor, projector))
                    .tool(ToolBinding.writable(WRITER, executor, projector))
                    .build();
        }

        String runId() {
            return runId.value();
        }

        /** Stores a few READY records in this run and another one, before any hostile call. */
        void seedRecords(Map<String, CanonicalRecord> accepted) {
            RunContext other = RunContext.active(otherRunId, run.deadline(), RunContext.UNLIMITED);
            for (int i = 0; i < 4; i++) {
                String id = "seed-" + i;
                for (RunContext target : List.of(run, other)) {
                    Either<BoundaryError, AgentResult> result = boundary.invoke(target,
                            ToolCallEnvelope.of(target.runId().value(), id, TOOL, ARGUMENTS));
                    if (result.isLeft()) {
                        throw new IllegalStateException("could not store seed record: " + result.getLeft());
                    }
                    InvocationKey key = InvocationKey.of(target.runId(), new ToolCallId(id));
                    seeded.add(key);
                    if (target == run) {
                        accepted.put(id, store().find(key).get().get());
                    }
                }
            }
        }

        Map<InvocationKey, CanonicalRecord> snapshot() {
            Map<InvocationKey, CanonicalRecord> records = new LinkedHashMap<>();
            for (InvocationKey key : seeded) {
                records.put(key, store().find(key).get().get());
            }
            return records;
        }

        void checkUnchanged(ReliabilityTally tally, Map<InvocationKey, CanonicalRecord> before) {
            before.forEach((key, record) -> tally.check(store().find(key).equals(Either.right(Option.of(record))), -1,
                    "a record stored before the run changed: " + key.toolCallId()));
        }

        int executions() {
            return executions.get();
        }

        void checkExecutions(ReliabilityTally tally, int expected) {
            executionsByKey.forEach((key, count) -> {
                if (count.get() > 1) {
                    tally.duplicateExecution(-1, count.get() + " executions of one key");
                }
            });
            int afterSeeding = executions() - seeded.size();
            tally.check(afterSeeding == expected, -1, "executions " + afterSeeding + " != expected " + expected);
        }

        Option<Either<BoundaryError, AgentResult>> invoke(int attempt, ToolCallEnvelope envelope, ReliabilityTally tally) {
            try {
                Either<BoundaryError, AgentResult> outcome = boundary.invoke(run, envelope);
                tally.call(outcome.isLeft());
                if (outcome.isLeft() && !PREFLIGHT.contains(outcome.getLeft().code())
                        && outcome.getLeft().code() != ErrorCode.DUPLICATE_TOOL_CALL
                        && outcome.getLeft().code() != ErrorCode.RESULT_TOO_LARGE
                        && outcome.getLeft().code() != ErrorCode.EXECUTION_FAILED
                        && outcome.getLeft().code() != ErrorCode.PROJECTION_FAILED) {
                    tally.violation(attempt, "unexpected code " + outcome.getLeft().code());
                }
                return Option.of(outcome);
            } catch (Throwable failure) {
                tally.call(true);
                tally.unexpected(attempt, failure);
                return Option.none();
            }
        }

        Option<CanonicalRecord> find(String toolCallId, ReliabilityTally tally, int attempt) {
            return find(runId, toolCallId, tally, attempt);
        }

        Option<CanonicalRecord> find(RunId run, String toolCallId, ReliabilityTally tally, int attempt) {
            try {
                Either<BoundaryError, Option<CanonicalRecord>> found =
                        store().find(InvocationKey.of(run, new ToolCallId(toolCallId)));
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

        void checkNoLeak(ReliabilityTally tally, int attempt, Either<BoundaryError, AgentResult> outcome, String input) {
            List<String> seen = new ArrayList<>();
            if (outcome.isLeft()) {
                BoundaryError error = outcome.getLeft();
                seen.add(error.message());
                seen.add(error.toString());
                tally.check(error.message().equals(error.code().safeMessage()), attempt, "message not from the catalogue");
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
    }

    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().limit(40).forEach(c -> out.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c)
                : String.format("\\u%04x", c)));
        return out.toString();
    }
}
