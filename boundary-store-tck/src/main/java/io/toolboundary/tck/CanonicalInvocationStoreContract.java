package io.toolboundary.tck;

import io.toolboundary.testkit.Fixtures;
import io.toolboundary.testkit.FakeTools;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.CountingExecutor;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
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
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.Utf8;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The promises every {@link CanonicalInvocationStore} keeps, as one suite. A store adapter runs all
 * of it by extending this class and implementing four hooks: the store under test, a record's
 * remaining TTL, ending a record's life now, and the store's record limit.
 *
 * <p>Every test works in a run of its own ({@link #freshRunId()}), so a subclass may hand all tests
 * one shared store on one shared server. Records carry the timestamps the test chooses; the store's
 * own clock is never assumed to move, except that {@link #expire(InvocationKey)} ends one record's
 * life and {@link #passLease(InvocationKey)} its execution lease; abandonment is judged by the store's
 * clock, never by the instant the test passes. No test sleeps: each race releases its
 * threads together from a latch, and is run many times because a store without atomicity loses a
 * single race only now and then. Two races go through a {@link ToolBoundary} built over the store
 * (on the system clock): 64 threads calling one key, and many runs spending their budgets at once.
 * A store with slow round trips may run fewer rounds of them ({@link #sameKeyRaceRounds()},
 * {@link #budgetRaceRounds()}), never none.
 *
 * <p>The public static helpers build records and starts the way these tests do, for other suites
 * that need a store filled with known records.
 */
public abstract class CanonicalInvocationStoreContract {

    /** The time to live every test gives at begin unless it says otherwise. */
    public static final Duration TTL = Duration.ofMinutes(10);

    /** A budget, for the run and for each tool, that no test reaches unless it means to. */
    public static final int GENEROUS_BUDGET = 10_000;

    /** The tool the helpers use by default. */
    public static final ToolName TOOL = new ToolName("search_logs");

    /** When the helpers' records are created; nanosecond precision on purpose, it must survive storage. */
    public static final Instant CREATED_AT = Instant.parse("2031-05-06T07:08:09.123456789Z");

    /** When the helpers' records are completed. */
    public static final Instant COMPLETED_AT = Instant.parse("2031-05-06T07:08:10.987654321Z");

    /** The execution lease every helper start gives: it ends this long after the record's creation. */
    public static final Duration LEASE = Duration.ofMinutes(5);

    /** The request the helpers use by default: one JSON object. */
    public static final String REQUEST = "{\"service\":\"checkout\",\"window\":\"10:00-10:15\"}";

    /** Threads in each race. */
    private static final int RACERS = 32;

    /** Each race is run this often: a store without atomicity loses a single race only now and then. */
    private static final int ROUNDS = 50;

    /** Threads in each race through a {@link ToolBoundary}. */
    private static final int BOUNDARY_RACERS = 64;

    /** The tool of the races through a {@link ToolBoundary}. */
    private static final String RACE_TOOL = "race_tool";

    // ---------------------------------------------------------------------------------------------
    // Hooks
    // ---------------------------------------------------------------------------------------------

    /** The store under test; may be the same instance for every test. */
    protected abstract CanonicalInvocationStore store();

    /**
     * The time the record under {@code key} has left, read without changing it.
     *
     * @return none when there is no live record under the key
     */
    protected abstract Option<Duration> remainingTtl(InvocationKey key);

    /** Ends the life of the record under {@code key} now, as if its time to live had run out. */
    protected abstract void expire(InvocationKey key);

    /** The record limit, in UTF-8 bytes, that the store under test was built with. */
    protected abstract long maxRecordBytes();

    /**
     * Lets the store's own clock pass the execution lease of the record under {@code key}, as if the
     * process running its tool had stopped {@link #LEASE} ago: a store on a test clock moves that clock
     * by {@link #LEASE}; a store on a server's clock may move the stored lease's end to the past.
     */
    protected abstract void passLease(InvocationKey key);

    /**
     * Rounds of the race of 64 threads calling one key through a {@link ToolBoundary}: 1,000. A store
     * whose round trips are slow may run fewer; at least one.
     */
    protected int sameKeyRaceRounds() {
        return 1_000;
    }

    /**
     * Rounds of the race of many runs spending their budgets at once through a {@link ToolBoundary}:
     * 100. A store whose round trips are slow may run fewer; at least one.
     */
    protected int budgetRaceRounds() {
        return 100;
    }

    // ---------------------------------------------------------------------------------------------
    // Public helpers
    // ---------------------------------------------------------------------------------------------

    /** A run id no other test uses: {@code run-} and a random UUID. */
    public static RunId freshRunId() {
        return new RunId("run-" + UUID.randomUUID());
    }

    /** A fingerprint of the request text: {@code sha256:} and the hex digest of its UTF-8 bytes. */
    public static String fingerprintOf(String request) {
        requireNonNull(request, "request is null");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(request.getBytes(UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException missing) {
            throw new IllegalStateException("SHA-256 is not available", missing);
        }
    }

    /** A PROJECTING record of {@link #TOOL} with {@link #REQUEST}, created at {@link #CREATED_AT}. */
    public static CanonicalRecord.Projecting projecting(RunId runId, String toolCallId) {
        return projecting(runId, toolCallId, TOOL.value(), REQUEST);
    }

    /** A PROJECTING record of {@code tool} with {@code request}, created at {@link #CREATED_AT}. */
    public static CanonicalRecord.Projecting projecting(RunId runId, String toolCallId, String tool, String request) {
        return projecting(runId, toolCallId, tool, request, CREATED_AT);
    }

    /** A PROJECTING record whose fingerprint is {@link #fingerprintOf(String)} of its request. */
    public static CanonicalRecord.Projecting projecting(RunId runId, String toolCallId, String tool, String request,
            Instant createdAt) {
        InvocationKey key = InvocationKey.of(runId, new ToolCallId(toolCallId));
        return new CanonicalRecord.Projecting(key, new ToolName(tool), request, fingerprintOf(request), createdAt);
    }

    /** A start with {@link #TTL}, the lease {@link #LEASE}, and {@link #GENEROUS_BUDGET} for the run and the tool. */
    public static InvocationStart start(CanonicalRecord.Projecting record, AttemptToken token) {
        return start(record, token, GENEROUS_BUDGET, GENEROUS_BUDGET);
    }

    /** A start with {@link #TTL}, the lease {@link #LEASE}, the given budgets and no record limit (the store's cap applies). */
    public static InvocationStart start(CanonicalRecord.Projecting record, AttemptToken token, int runCallBudget,
            int toolCallBudget) {
        return new InvocationStart(record, token, TTL, LEASE, runCallBudget, toolCallBudget, Long.MAX_VALUE);
    }

    /** The READY record completing {@code record} at {@link #COMPLETED_AT}, built without any size check. */
    public static CanonicalRecord.Ready readyOf(CanonicalRecord.Projecting record, String raw, AgentResult result) {
        return new CanonicalRecord.Ready(record.key(), record.tool(), record.request(), record.requestFingerprint(),
                record.createdAt(), COMPLETED_AT, raw, result);
    }

    /** The ERROR record ending {@code record} at {@link #COMPLETED_AT}. */
    public static CanonicalRecord.Failed failedOf(CanonicalRecord.Projecting record, ErrorCode code,
            Option<String> raw) {
        return record.fail(code, raw, COMPLETED_AT);
    }

    /** An EVIDENCE_FOUND result without a scope. */
    public static AgentResult evidenceFound(String content) {
        return new AgentResult(content, EvidenceStatus.EVIDENCE_FOUND, Option.none());
    }

    /** A NO_EVIDENCE result within {@code scope}. */
    public static AgentResult noEvidence(String content, String scope) {
        return new AgentResult(content, EvidenceStatus.NO_EVIDENCE, Option.of(scope));
    }

    /** A character that takes {@code bytes} (1 to 4) bytes in UTF-8: a, é, €, or an emoji. */
    public static String characterOfUtf8Bytes(int bytes) {
        return switch (bytes) {
            case 1 -> "a";
            case 2 -> "\u00e9";
            case 3 -> "\u20ac";
            case 4 -> "\ud83d\ude00";
            default -> throw new IllegalArgumentException("bytes must be 1 to 4, was " + bytes);
        };
    }

    /**
     * A PROJECTING record of exactly {@code totalBytes} ({@link CanonicalRecord#byteSize()}), whose
     * request pads one JSON string with {@code a} and ends the padding with {@code last}.
     */
    public static CanonicalRecord.Projecting projectingOfSize(RunId runId, String toolCallId, long totalBytes,
            String last) {
        long fixed = projecting(runId, toolCallId, TOOL.value(), paddedRequest("")).byteSize();
        String request = paddedRequest(padding(totalBytes - fixed, last));
        return projecting(runId, toolCallId, TOOL.value(), request);
    }

    /**
     * The READY record completing {@code record} of exactly {@code totalBytes}, whose raw response is
     * {@code a} repeated and ends with {@code last}.
     */
    public static CanonicalRecord.Ready readyOfSize(CanonicalRecord.Projecting record, long totalBytes, String last) {
        AgentResult result = evidenceFound("found");
        long fixed = readyOf(record, "", result).byteSize();
        return readyOf(record, padding(totalBytes - fixed, last), result);
    }

    private static String paddedRequest(String padding) {
        return "{\"padding\":\"" + padding + "\"}";
    }

    private static String padding(long bytes, String last) {
        long filler = bytes - Utf8.byteLength(last);
        if (filler < 0) {
            throw new IllegalArgumentException("the record cannot be made that small: " + bytes + " bytes left");
        }
        return "a".repeat(Math.toIntExact(filler)) + last;
    }

    // ---------------------------------------------------------------------------------------------
    // The suite
    // ---------------------------------------------------------------------------------------------

    @Nested
    class Creating {

        @Test
        @DisplayName("Tool begins execution")
        void beginReturnsTheStoredProjectingRecord() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");

            Either<BoundaryError, CanonicalRecord.Projecting> begun = store().begin(start(record, AttemptToken.random()));

            assertThat(begun).isEqualTo(Either.right(record));
            assertThat(stored(record.key())).isEqualTo(Option.some(record));
            assertThat(stored(record.key()).get().status()).isEqualTo(InvocationStatus.PROJECTING);
            assertThat(stored(record.key()).get().agentResult()).isEmpty();
        }

        @Test
        void findReturnsTheRecordExactlyByteForByte() {
            String request = "{ \"q\" : \"Gr\u00fc\u00dfe \ud83d\ude00 \ud834\udd1e \u20ac\\u00e9\\n\",\n\t\"n\":[1, 2.50, -0e0] }";
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_A-z.0:9", "fetch.v2:logs-1", request,
                    Instant.parse("2031-01-01T00:00:00.000000001Z"));

            begin(record, AttemptToken.random());
            CanonicalRecord found = stored(record.key()).get();

            assertThat(found).isEqualTo(record);
            assertThat(found.request().getBytes(UTF_8)).isEqualTo(request.getBytes(UTF_8));
            assertThat(found.createdAt()).isEqualTo(record.createdAt());
        }

        @Test
        @DisplayName("Framework ID is preserved")
        void keepsTheExactToolCallId() {
            RunId run = freshRunId();
            String longest = "Call_" + "x".repeat(ToolCallId.MAX_LENGTH - 7) + ":9";
            CanonicalRecord.Projecting record = projecting(run, longest);

            begin(record, AttemptToken.random());

            assertThat(stored(record.key()).get().key().toolCallId().value()).isEqualTo(longest);
            assertThat(stored(InvocationKey.of(run, new ToolCallId(longest.toLowerCase())))).isEmpty();
        }

        @Test
        void keepsTheSameToolCallIdInTwoRunsApart() {
            CanonicalRecord.Projecting first = projecting(freshRunId(), "call_1", TOOL.value(), "{\"n\":1}");
            CanonicalRecord.Projecting second = projecting(freshRunId(), "call_1", TOOL.value(), "{\"n\":2}");

            begin(first, AttemptToken.random());
            begin(second, AttemptToken.random());

            assertThat(stored(first.key())).isEqualTo(Option.some(first));
            assertThat(stored(second.key())).isEqualTo(Option.some(second));
        }

        @Test
        void findsNothingUnderAnUnknownKey() {
            assertThat(store().find(InvocationKey.of(freshRunId(), new ToolCallId("call_1"))))
                    .isEqualTo(Either.right(Option.none()));
        }

        @Test
        void keepsReadyRecordExactly() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            String raw = "line 1\r\nline \"2\"\t\\ \u0000 \ud83d\ude00\ud834\udd1e \u00e9\u20ac\n";
            CanonicalRecord.Ready ready = readyOf(record, raw,
                    noEvidence("nothing for \ud83d\ude00", "service checkout, logs 10:00-10:15 UTC \u20ac"));

            assertThat(store().complete(token, ready)).isEqualTo(Either.right(ready));

            CanonicalRecord found = stored(record.key()).get();
            assertThat(found).isEqualTo(ready);
            assertThat(found.rawResponse().get().getBytes(UTF_8)).isEqualTo(raw.getBytes(UTF_8));
            assertThat(found.updatedAt()).isEqualTo(COMPLETED_AT);
        }

        @Test
        void keepsEmptyRawResponseAndEmptyResult() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOf(record, "", evidenceFound(""));

            assertThat(store().complete(token, ready)).isEqualTo(Either.right(ready));
            assertThat(stored(record.key())).isEqualTo(Option.some(ready));
        }

        @Test
        void keepsAnEmptyRawResponseApartFromNoRawResponse() {
            RunId run = freshRunId();
            CanonicalRecord.Projecting withEmpty = projecting(run, "call_1");
            CanonicalRecord.Projecting without = projecting(run, "call_2");
            AttemptToken token = AttemptToken.random();
            begin(withEmpty, token);
            begin(without, token);
            CanonicalRecord.Failed emptyRaw = failedOf(withEmpty, ErrorCode.PROJECTION_FAILED, Option.some(""));
            CanonicalRecord.Failed noRaw = failedOf(without, ErrorCode.EXECUTION_FAILED, Option.none());

            store().complete(token, emptyRaw);
            store().complete(token, noRaw);

            assertThat(stored(withEmpty.key())).isEqualTo(Option.some(emptyRaw));
            assertThat(stored(withEmpty.key()).get().rawResponse()).isEqualTo(Option.some(""));
            assertThat(stored(without.key())).isEqualTo(Option.some(noRaw));
            assertThat(stored(without.key()).get().rawResponse()).isEqualTo(Option.none());
        }
    }

    @Nested
    class Duplicates {

        @Test
        @DisplayName("Duplicate Tool Call ID is submitted")
        void refusesSecondBeginWithTheSameFingerprintAndKeepsTheFirstRecord() {
            RunId run = freshRunId();
            CanonicalRecord.Projecting first = projecting(run, "call_1");
            CanonicalRecord.Projecting again = projecting(run, "call_1", TOOL.value(), REQUEST, CREATED_AT.plusSeconds(5));
            begin(first, AttemptToken.random());

            assertThat(store().begin(start(again, AttemptToken.random()))).isEqualTo(refused(ErrorCode.DUPLICATE_TOOL_CALL));
            assertThat(stored(first.key())).isEqualTo(Option.some(first));
        }

        @Test
        void refusesSecondBeginWithAnotherFingerprintAsReusedId() {
            RunId run = freshRunId();
            CanonicalRecord.Projecting first = projecting(run, "call_1");
            CanonicalRecord.Projecting other = projecting(run, "call_1", "other_tool", "{\"service\":\"billing\"}");
            begin(first, AttemptToken.random());

            assertThat(store().begin(start(other, AttemptToken.random()))).isEqualTo(refused(ErrorCode.TOOL_CALL_ID_REUSED));
            assertThat(stored(first.key())).isEqualTo(Option.some(first));
        }

        @Test
        void returnsTheStoredRecordWhenBeginIsRetriedWithTheSameToken() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);

            assertThat(store().begin(start(record, token))).isEqualTo(Either.right(record));
            assertThat(stored(record.key())).isEqualTo(Option.some(record));
        }

        @Test
        void refusesBeginOnAFinishedKeyAndKeepsTheFinalRecord() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOf(record, "raw", evidenceFound("found"));
            store().complete(token, ready);

            assertThat(store().begin(start(record, AttemptToken.random()))).isEqualTo(refused(ErrorCode.DUPLICATE_TOOL_CALL));
            assertThat(stored(record.key())).isEqualTo(Option.some(ready));
        }
    }

    @Nested
    class Budgets {

        @Test
        void allowsRunBudgetRecordsAndRefusesTheNext() {
            RunId run = freshRunId();
            for (int i = 1; i <= 3; i++) {
                assertAccepted(beginWithBudgets(projecting(run, "call_" + i), 3, GENEROUS_BUDGET));
            }

            assertThat(beginWithBudgets(projecting(run, "call_4"), 3, GENEROUS_BUDGET))
                    .isEqualTo(refused(ErrorCode.RUN_BUDGET_EXHAUSTED));
            assertThat(stored(InvocationKey.of(run, new ToolCallId("call_4")))).isEmpty();
        }

        @Test
        void refusesEveryRecordWhenTheRunBudgetIsZero() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");

            assertThat(beginWithBudgets(record, 0, GENEROUS_BUDGET)).isEqualTo(refused(ErrorCode.RUN_BUDGET_EXHAUSTED));
            assertThat(stored(record.key())).isEmpty();
        }

        @Test
        void rejectionsReserveNoRunBudget() {
            RunId run = freshRunId();
            int runBudget = 2;
            int toolBudget = 1;
            CanonicalRecord.Projecting first = projecting(run, "call_1", "tool_a", "{\"n\":1}");
            assertAccepted(beginWithBudgets(first, runBudget, toolBudget));

            assertThat(beginWithBudgets(projecting(run, "call_1", "tool_a", "{\"n\":1}"), runBudget, toolBudget))
                    .isEqualTo(refused(ErrorCode.DUPLICATE_TOOL_CALL));
            assertThat(beginWithBudgets(projecting(run, "call_1", "tool_b", "{\"n\":2}"), runBudget, toolBudget))
                    .isEqualTo(refused(ErrorCode.TOOL_CALL_ID_REUSED));
            assertThat(beginWithBudgets(projecting(run, "call_2", "tool_a", "{\"n\":3}"), runBudget, toolBudget))
                    .isEqualTo(refused(ErrorCode.TOOL_BUDGET_EXHAUSTED));
            assertThat(beginWithBudgets(projectingOfSize(run, "call_3", maxRecordBytes() + 1, "a"), runBudget, GENEROUS_BUDGET))
                    .isEqualTo(refused(ErrorCode.RESULT_TOO_LARGE));

            assertAccepted(beginWithBudgets(projecting(run, "call_4", "tool_b", "{\"n\":4}"), runBudget, toolBudget));
            assertThat(beginWithBudgets(projecting(run, "call_5", "tool_c", "{\"n\":5}"), runBudget, toolBudget))
                    .isEqualTo(refused(ErrorCode.RUN_BUDGET_EXHAUSTED));
        }

        @Test
        void retriedBeginReservesNoBudget() {
            RunId run = freshRunId();
            CanonicalRecord.Projecting first = projecting(run, "call_1");
            AttemptToken token = AttemptToken.random();
            assertThat(store().begin(start(first, token, 2, 2))).isEqualTo(Either.right(first));

            assertThat(store().begin(start(first, token, 2, 2))).isEqualTo(Either.right(first));

            assertAccepted(beginWithBudgets(projecting(run, "call_2"), 2, 2));
            assertThat(beginWithBudgets(projecting(run, "call_3"), 2, 2)).isEqualTo(refused(ErrorCode.RUN_BUDGET_EXHAUSTED));
        }

        @Test
        void runBudgetIsPerRun() {
            RunId exhausted = freshRunId();
            assertAccepted(beginWithBudgets(projecting(exhausted, "call_1"), 1, GENEROUS_BUDGET));
            assertThat(beginWithBudgets(projecting(exhausted, "call_2"), 1, GENEROUS_BUDGET))
                    .isEqualTo(refused(ErrorCode.RUN_BUDGET_EXHAUSTED));

            assertAccepted(beginWithBudgets(projecting(freshRunId(), "call_2"), 1, GENEROUS_BUDGET));
        }

        @Test
        void allowsToolBudgetRecordsAndRefusesTheNext() {
            RunId run = freshRunId();
            for (int i = 1; i <= 2; i++) {
                assertAccepted(beginWithBudgets(projecting(run, "call_" + i), GENEROUS_BUDGET, 2));
            }

            assertThat(beginWithBudgets(projecting(run, "call_3"), GENEROUS_BUDGET, 2))
                    .isEqualTo(refused(ErrorCode.TOOL_BUDGET_EXHAUSTED));
            assertThat(stored(InvocationKey.of(run, new ToolCallId("call_3")))).isEmpty();
        }

        @Test
        void rejectionsReserveNoToolBudget() {
            RunId run = freshRunId();
            CanonicalRecord.Projecting first = projecting(run, "call_1");
            assertAccepted(beginWithBudgets(first, 1, 2));

            assertThat(beginWithBudgets(projecting(run, "call_1"), 1, 2)).isEqualTo(refused(ErrorCode.DUPLICATE_TOOL_CALL));
            assertThat(beginWithBudgets(projecting(run, "call_2"), 1, 2)).isEqualTo(refused(ErrorCode.RUN_BUDGET_EXHAUSTED));

            assertAccepted(beginWithBudgets(projecting(run, "call_3"), GENEROUS_BUDGET, 2));
            assertThat(beginWithBudgets(projecting(run, "call_4"), GENEROUS_BUDGET, 2))
                    .isEqualTo(refused(ErrorCode.TOOL_BUDGET_EXHAUSTED));
        }

        @Test
        void toolBudgetIsPerTool() {
            RunId run = freshRunId();
            assertAccepted(beginWithBudgets(projecting(run, "call_1", "tool_a", REQUEST), GENEROUS_BUDGET, 1));
            assertThat(beginWithBudgets(projecting(run, "call_2", "tool_a", REQUEST), GENEROUS_BUDGET, 1))
                    .isEqualTo(refused(ErrorCode.TOOL_BUDGET_EXHAUSTED));

            assertAccepted(beginWithBudgets(projecting(run, "call_3", "tool_b", REQUEST), GENEROUS_BUDGET, 1));
        }

        @Test
        void toolBudgetIsPerRun() {
            RunId exhausted = freshRunId();
            assertAccepted(beginWithBudgets(projecting(exhausted, "call_1"), GENEROUS_BUDGET, 1));
            assertThat(beginWithBudgets(projecting(exhausted, "call_2"), GENEROUS_BUDGET, 1))
                    .isEqualTo(refused(ErrorCode.TOOL_BUDGET_EXHAUSTED));

            assertAccepted(beginWithBudgets(projecting(freshRunId(), "call_2"), GENEROUS_BUDGET, 1));
        }

        private Either<BoundaryError, CanonicalRecord.Projecting> beginWithBudgets(CanonicalRecord.Projecting record,
                int runCallBudget, int toolCallBudget) {
            return store().begin(start(record, AttemptToken.random(), runCallBudget, toolCallBudget));
        }
    }

    @Nested
    class Completing {

        @Test
        @DisplayName("Projector succeeds")
        void movesProjectingToReadyWithEvidence() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOf(record, "{\"hits\":3}", evidenceFound("3 errors at 10:02"));

            assertThat(store().complete(token, ready)).isEqualTo(Either.right(ready));
            assertThat(stored(record.key())).isEqualTo(Option.some(ready));
        }

        @Test
        @DisplayName("No evidence projection completes")
        void movesProjectingToReadyWithNoEvidenceAndKeepsItsScope() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOf(record, "{\"hits\":0}", noEvidence("no errors", "checkout, 10:00-10:15"));

            assertThat(store().complete(token, ready)).isEqualTo(Either.right(ready));
            CanonicalRecord found = stored(record.key()).get();
            assertThat(found.evidence()).isEqualTo(Option.some(EvidenceStatus.NO_EVIDENCE));
            assertThat(found.agentResult().flatMap(AgentResult::scope)).isEqualTo(Option.some("checkout, 10:00-10:15"));
        }

        @Test
        void movesProjectingToErrorWithRawResponse() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Failed failed = failedOf(record, ErrorCode.PROJECTION_FAILED, Option.some("{\"hits\":\"?\"}"));

            assertThat(store().complete(token, failed)).isEqualTo(Either.right(failed));
            assertThat(stored(record.key())).isEqualTo(Option.some(failed));
        }

        @Test
        void movesProjectingToErrorWithoutRawResponse() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Failed failed = failedOf(record, ErrorCode.EXECUTION_FAILED, Option.none());

            assertThat(store().complete(token, failed)).isEqualTo(Either.right(failed));
            assertThat(stored(record.key())).isEqualTo(Option.some(failed));
        }

        @Test
        void refusesEveryChangeToAReadyRecord() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOf(record, "raw", evidenceFound("found"));
            store().complete(token, ready);

            assertRefusesEveryOtherOutcome(record, token, ready);
        }

        @Test
        void refusesEveryChangeToAnErrorRecord() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Failed failed = failedOf(record, ErrorCode.EXECUTION_FAILED, Option.none());
            store().complete(token, failed);

            assertRefusesEveryOtherOutcome(record, token, failed);
        }

        @Test
        void returnsTheStoredRecordWhenTheSameCompletionIsRepeated() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOf(record, "raw", evidenceFound("found"));
            store().complete(token, ready);

            assertThat(store().complete(token, ready)).isEqualTo(Either.right(ready));
            assertThat(stored(record.key())).isEqualTo(Option.some(ready));
        }

        @Test
        void returnsTheStoredRecordWhenTheSameFailureIsRepeated() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Failed failed = failedOf(record, ErrorCode.PROJECTION_INVALID, Option.some("raw"));
            store().complete(token, failed);

            assertThat(store().complete(token, failed)).isEqualTo(Either.right(failed));
            assertThat(stored(record.key())).isEqualTo(Option.some(failed));
        }

        @Test
        void refusesCompletionWithAnotherToken() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOf(record, "raw", evidenceFound("found"));

            assertThat(store().complete(AttemptToken.random(), ready)).isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
            assertThat(stored(record.key())).isEqualTo(Option.some(record));
            assertThat(store().complete(token, ready)).isEqualTo(Either.right(ready));
        }

        @Test
        void refusesRepeatedCompletionWithAnotherToken() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOf(record, "raw", evidenceFound("found"));
            store().complete(token, ready);

            assertThat(store().complete(AttemptToken.random(), ready)).isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
            assertThat(stored(record.key())).isEqualTo(Option.some(ready));
        }

        @Test
        void refusesACompletionByTheTokenOfAnotherAttemptUnderTheSameKey() {
            RunId run = freshRunId();
            CanonicalRecord.Projecting record = projecting(run, "call_1");
            begin(record, AttemptToken.random());
            CanonicalRecord.Projecting impostor = projecting(run, "call_1", TOOL.value(), "{\"service\":\"billing\"}");

            // Only the attempt's token proves an outcome to be of its record; another token never does.
            assertThat(store().complete(AttemptToken.random(), readyOf(impostor, "raw", evidenceFound("found"))))
                    .isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
            assertThat(stored(record.key())).isEqualTo(Option.some(record));
        }

        private void assertRefusesEveryOtherOutcome(CanonicalRecord.Projecting record, AttemptToken token,
                CanonicalRecord.Final stored) {
            List<CanonicalRecord.Final> others = List.of(
                    readyOf(record, "raw", evidenceFound("found")),
                    readyOf(record, "other raw", evidenceFound("found")),
                    readyOf(record, "raw", noEvidence("nothing", "checkout")),
                    failedOf(record, ErrorCode.EXECUTION_FAILED, Option.none()),
                    failedOf(record, ErrorCode.PROJECTION_FAILED, Option.some("raw")));
            for (CanonicalRecord.Final other : others) {
                if (other.equals(stored)) {
                    continue;
                }
                assertThat(store().complete(token, other)).as("complete %s after %s", other, stored)
                        .isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
                assertThat(stored(record.key())).isEqualTo(Option.some(stored));
            }
        }
    }

    @Nested
    class TimeToLive {

        @Test
        void setsTheTtlAtBegin() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");

            begin(record, AttemptToken.random());

            assertThat(liveTtl(record.key())).isPositive().isLessThanOrEqualTo(TTL);
        }

        @Test
        @DisplayName("Read does not renew TTL")
        void readsDoNotExtendTheTtl() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            begin(record, AttemptToken.random());
            Duration before = liveTtl(record.key());

            for (int i = 0; i < 100; i++) {
                assertThat(stored(record.key())).isEqualTo(Option.some(record));
            }

            assertThat(liveTtl(record.key())).isPositive().isLessThanOrEqualTo(before);
        }

        @Test
        void keepsTheTtlWhenCompleted() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            Duration before = liveTtl(record.key());

            store().complete(token, readyOf(record, "raw", evidenceFound("found")));

            assertThat(liveTtl(record.key())).isPositive().isLessThanOrEqualTo(before);
        }

        @Test
        void refusedBeginsDoNotExtendTheTtl() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            Duration before = liveTtl(record.key());
            Duration longer = TTL.multipliedBy(10);

            store().begin(new InvocationStart(record, token, longer, LEASE, GENEROUS_BUDGET, GENEROUS_BUDGET, maxRecordBytes()));
            store().begin(new InvocationStart(record, AttemptToken.random(), longer, LEASE, GENEROUS_BUDGET, GENEROUS_BUDGET, maxRecordBytes()));

            assertThat(liveTtl(record.key())).isPositive().isLessThanOrEqualTo(before);
        }

        private Duration liveTtl(InvocationKey key) {
            Option<Duration> ttl = remainingTtl(key);
            assertThat(ttl).as("remaining TTL of a live record").isNotEmpty();
            return ttl.get();
        }
    }

    @Nested
    class Expiry {

        @Test
        void findsNothingAfterExpiry() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            begin(record, AttemptToken.random());

            expire(record.key());

            assertThat(stored(record.key())).isEmpty();
            assertThat(remainingTtl(record.key())).isEmpty();
        }

        @Test
        void refusesCompletionOfAnExpiredRecordAndDoesNotRecreateIt() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            expire(record.key());

            assertThat(store().complete(token, readyOf(record, "raw", evidenceFound("found"))))
                    .isEqualTo(refused(ErrorCode.RECORD_EXPIRED));
            assertThat(store().complete(token, failedOf(record, ErrorCode.EXECUTION_FAILED, Option.none())))
                    .isEqualTo(refused(ErrorCode.RECORD_EXPIRED));

            assertThat(stored(record.key())).isEmpty();
            assertThat(remainingTtl(record.key())).isEmpty();
        }

        @Test
        void beginAfterExpiryCreatesANewRecord() {
            RunId run = freshRunId();
            CanonicalRecord.Projecting old = projecting(run, "call_1");
            AttemptToken oldToken = AttemptToken.random();
            begin(old, oldToken);
            expire(old.key());
            CanonicalRecord.Projecting fresh = projecting(run, "call_1", "other_tool", "{\"n\":2}", CREATED_AT.plusSeconds(1));
            AttemptToken freshToken = AttemptToken.random();

            assertThat(store().begin(start(fresh, freshToken))).isEqualTo(Either.right(fresh));

            assertThat(stored(fresh.key())).isEqualTo(Option.some(fresh));
            assertThat(remainingTtl(fresh.key()).get()).isPositive().isLessThanOrEqualTo(TTL);
            assertThat(store().complete(oldToken, readyOf(old, "raw", evidenceFound("found"))))
                    .isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
            assertThat(stored(fresh.key())).isEqualTo(Option.some(fresh));
        }

        @Test
        void expiringOneRecordLeavesALongerLivedOneAlone() {
            RunId run = freshRunId();
            CanonicalRecord.Projecting shortLived = projecting(run, "call_1");
            CanonicalRecord.Projecting longLived = projecting(run, "call_2");
            begin(shortLived, AttemptToken.random());
            store().begin(new InvocationStart(longLived, AttemptToken.random(), TTL.multipliedBy(3), LEASE, GENEROUS_BUDGET,
                    GENEROUS_BUDGET, maxRecordBytes()));

            expire(shortLived.key());

            assertThat(stored(shortLived.key())).isEmpty();
            assertThat(stored(longLived.key())).isEqualTo(Option.some(longLived));
        }
    }

    @Nested
    class SizeLimits {

        @ParameterizedTest(name = "last character of {0} UTF-8 bytes")
        @ValueSource(ints = {1, 2, 3, 4})
        void acceptsBeginOfExactlyTheRecordLimit(int lastCharacterBytes) {
            CanonicalRecord.Projecting record = projectingOfSize(freshRunId(), "call_1", maxRecordBytes(),
                    characterOfUtf8Bytes(lastCharacterBytes));
            assertThat(record.byteSize()).isEqualTo(maxRecordBytes());

            assertThat(store().begin(start(record, AttemptToken.random()))).isEqualTo(Either.right(record));
            assertThat(stored(record.key())).isEqualTo(Option.some(record));
        }

        @ParameterizedTest(name = "last character of {0} UTF-8 bytes")
        @ValueSource(ints = {1, 2, 3, 4})
        void refusesBeginOfOneByteOverTheRecordLimit(int lastCharacterBytes) {
            CanonicalRecord.Projecting record = projectingOfSize(freshRunId(), "call_1", maxRecordBytes() + 1,
                    characterOfUtf8Bytes(lastCharacterBytes));
            assertThat(record.byteSize()).isEqualTo(maxRecordBytes() + 1);

            assertThat(store().begin(start(record, AttemptToken.random()))).isEqualTo(refused(ErrorCode.RESULT_TOO_LARGE));
            assertThat(stored(record.key())).isEmpty();
        }

        @ParameterizedTest(name = "last character of {0} UTF-8 bytes")
        @ValueSource(ints = {1, 2, 3, 4})
        void acceptsCompletionOfExactlyTheRecordLimit(int lastCharacterBytes) {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOfSize(record, maxRecordBytes(), characterOfUtf8Bytes(lastCharacterBytes));
            assertThat(ready.byteSize()).isEqualTo(maxRecordBytes());

            assertThat(store().complete(token, ready)).isEqualTo(Either.right(ready));
            assertThat(stored(record.key())).isEqualTo(Option.some(ready));
        }

        @ParameterizedTest(name = "last character of {0} UTF-8 bytes")
        @ValueSource(ints = {1, 2, 3, 4})
        void refusesCompletionOfOneByteOverTheRecordLimitAndKeepsTheProjectingRecord(int lastCharacterBytes) {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOfSize(record, maxRecordBytes() + 1,
                    characterOfUtf8Bytes(lastCharacterBytes));
            assertThat(ready.byteSize()).isEqualTo(maxRecordBytes() + 1);

            assertThat(store().complete(token, ready)).isEqualTo(refused(ErrorCode.RESULT_TOO_LARGE));
            assertThat(stored(record.key())).isEqualTo(Option.some(record));

            CanonicalRecord.Failed failed = failedOf(record, ErrorCode.RESULT_TOO_LARGE, Option.none());
            assertThat(store().complete(token, failed)).isEqualTo(Either.right(failed));
        }

        @Test
        void refusesAnErrorRecordWhoseRawResponseIsOneByteOverTheRecordLimit() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            long fixed = failedOf(record, ErrorCode.PROJECTION_FAILED, Option.some("")).byteSize();
            CanonicalRecord.Failed atLimit = failedOf(record, ErrorCode.PROJECTION_FAILED,
                    Option.some(padding(maxRecordBytes() - fixed, characterOfUtf8Bytes(4))));
            CanonicalRecord.Failed overLimit = failedOf(record, ErrorCode.PROJECTION_FAILED,
                    Option.some(padding(maxRecordBytes() - fixed + 1, characterOfUtf8Bytes(4))));

            assertThat(store().complete(token, overLimit)).isEqualTo(refused(ErrorCode.RESULT_TOO_LARGE));
            assertThat(stored(record.key())).isEqualTo(Option.some(record));
            assertThat(store().complete(token, atLimit)).isEqualTo(Either.right(atLimit));
            assertThat(stored(record.key())).isEqualTo(Option.some(atLimit));
        }
    }

    @Nested
    class Abandoning {

        /** An instant the caller passes: it becomes updatedAt and is never compared with the lease. */
        private final Instant callersNow = COMPLETED_AT.plus(LEASE);

        @Test
        void abandonsAProjectingRecordOnceItsLeaseHasPassed() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            begin(record, AttemptToken.random());
            passLease(record.key());
            CanonicalRecord.Failed abandoned = record.fail(ErrorCode.EXECUTION_ABANDONED, Option.none(), callersNow);

            assertThat(store().abandon(record.key(), callersNow)).isEqualTo(Either.right(abandoned));

            CanonicalRecord found = stored(record.key()).get();
            assertThat(found).isEqualTo(abandoned);
            assertThat(found.status()).isEqualTo(InvocationStatus.ERROR);
            assertThat(found.evidence()).isEqualTo(Option.some(EvidenceStatus.ERROR));
            assertThat(found.errorCode()).isEqualTo(Option.some(ErrorCode.EXECUTION_ABANDONED));
            assertThat(found.rawResponse()).isEmpty();
            assertThat(found.updatedAt()).isEqualTo(callersNow);
        }

        @Test
        void refusesAbandonWhileTheLeaseRunsAndLetsTheAttemptFinish() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);

            assertThat(store().abandon(record.key(), record.createdAt())).isEqualTo(refused(ErrorCode.LEASE_NOT_EXPIRED));
            assertThat(stored(record.key())).isEqualTo(Option.some(record));

            CanonicalRecord.Ready ready = readyOf(record, "raw", evidenceFound("found"));
            assertThat(store().complete(token, ready)).isEqualTo(Either.right(ready));
        }

        @Test
        void judgesTheLeaseByTheStoresClockNeverByTheCallersInstant() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);

            // A caller whose clock stepped far ahead cannot end a call that is still running.
            for (Instant stepped : List.of(record.createdAt().plus(LEASE), record.createdAt().plus(Duration.ofDays(365)),
                    Instant.parse("9999-12-31T23:59:59.999999999Z"))) {
                assertThat(store().abandon(record.key(), stepped)).as("abandon at %s", stepped)
                        .isEqualTo(refused(ErrorCode.LEASE_NOT_EXPIRED));
            }
            assertThat(stored(record.key())).isEqualTo(Option.some(record));

            passLease(record.key());
            // Once the store's own clock has passed the lease, the caller's instant, however early, will do.
            Instant soonAfterCreation = record.createdAt().plusNanos(7);
            assertThat(store().abandon(record.key(), soonAfterCreation).map(CanonicalRecord::updatedAt))
                    .isEqualTo(Either.right(soonAfterCreation));
        }

        @Test
        void keepsTheLeaseOfTheFirstBeginWhenBeginIsRetried() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);

            assertThat(store().begin(new InvocationStart(record, token, TTL, LEASE.multipliedBy(1_000), GENEROUS_BUDGET,
                    GENEROUS_BUDGET, maxRecordBytes()))).isEqualTo(Either.right(record));

            passLease(record.key());
            assertThat(store().abandon(record.key(), callersNow).isRight()).isTrue();
        }

        @Test
        void refusesAbandonOfAMissingRecordAndCreatesNone() {
            InvocationKey key = InvocationKey.of(freshRunId(), new ToolCallId("call_1"));

            assertThat(store().abandon(key, CREATED_AT.plus(Duration.ofDays(1)))).isEqualTo(refused(ErrorCode.RECORD_EXPIRED));
            assertThat(stored(key)).isEmpty();
            assertThat(remainingTtl(key)).isEmpty();
        }

        @Test
        void refusesAbandonOfAnExpiredRecordAndDoesNotRecreateIt() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            begin(record, AttemptToken.random());
            expire(record.key());

            assertThat(store().abandon(record.key(), callersNow)).isEqualTo(refused(ErrorCode.RECORD_EXPIRED));
            assertThat(stored(record.key())).isEmpty();
            assertThat(remainingTtl(record.key())).isEmpty();
        }

        @Test
        void refusesAbandonOfAReadyRecordAndKeepsIt() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Ready ready = readyOf(record, "raw", evidenceFound("found"));
            store().complete(token, ready);
            passLease(record.key());

            assertThat(store().abandon(record.key(), callersNow)).isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
            assertThat(stored(record.key())).isEqualTo(Option.some(ready));
        }

        @Test
        void refusesAbandonOfAnErrorRecordAndKeepsIt() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            CanonicalRecord.Failed failed = failedOf(record, ErrorCode.EXECUTION_FAILED, Option.some("raw"));
            store().complete(token, failed);
            passLease(record.key());

            assertThat(store().abandon(record.key(), callersNow)).isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
            assertThat(stored(record.key())).isEqualTo(Option.some(failed));
        }

        @Test
        void returnsTheStoredRecordUnchangedWhenAbandonIsRepeated() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            begin(record, AttemptToken.random());
            passLease(record.key());
            CanonicalRecord.Failed first = store().abandon(record.key(), callersNow).get();

            assertThat(store().abandon(record.key(), callersNow.plusSeconds(30))).isEqualTo(Either.right(first));
            assertThat(stored(record.key())).isEqualTo(Option.some(first));
        }

        @Test
        void refusesALateCompletionOfTheAbandonedAttempt() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            passLease(record.key());
            CanonicalRecord.Failed abandoned = store().abandon(record.key(), callersNow).get();

            assertThat(store().complete(token, readyOf(record, "raw", evidenceFound("found"))))
                    .isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
            assertThat(store().complete(token, failedOf(record, ErrorCode.EXECUTION_FAILED, Option.none())))
                    .isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
            assertThat(store().begin(start(record, token))).isEqualTo(refused(ErrorCode.DUPLICATE_TOOL_CALL));
            assertThat(stored(record.key())).isEqualTo(Option.some(abandoned));
        }

        @Test
        void keepsTheTtlWhenAbandoned() {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            begin(record, AttemptToken.random());
            passLease(record.key());
            Option<Duration> before = remainingTtl(record.key());
            assertThat(before).isNotEmpty();

            assertThat(store().abandon(record.key(), callersNow).isRight()).isTrue();

            assertThat(remainingTtl(record.key())).isNotEmpty();
            assertThat(remainingTtl(record.key()).get()).isPositive().isLessThanOrEqualTo(before.get());
        }

        @RepeatedTest(value = ROUNDS, name = "round {currentRepetition} of {totalRepetitions}")
        void endsTheRecordOnceWhenAbandonsRaceCompletions() throws Exception {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            passLease(record.key());
            ExecutorService pool = Executors.newFixedThreadPool(RACERS);
            List<Either<BoundaryError, CanonicalRecord.Final>> results;
            try {
                results = raceOn(pool, RACERS, i -> i % 2 == 0
                        ? store().abandon(record.key(), callersNow.plusNanos(i)).map(CanonicalRecord.Final.class::cast)
                        : store().complete(token, readyOf(record, "raw " + i, evidenceFound("found " + i))));
            } finally {
                pool.shutdownNow();
            }

            CanonicalRecord stored = stored(record.key()).get();
            assertThat(stored.status().isFinal()).isTrue();
            boolean abandoned = stored.errorCode().contains(ErrorCode.EXECUTION_ABANDONED);
            for (int i = 0; i < RACERS; i++) {
                boolean abandoner = i % 2 == 0;
                if (abandoner == abandoned) {
                    assertThat(results.get(i)).as("racer %d", i).isIn(Either.right(stored), refused(ErrorCode.RECORD_CONFLICT));
                } else {
                    assertThat(results.get(i)).as("racer %d", i).isEqualTo(refused(ErrorCode.RECORD_CONFLICT));
                }
            }
            long winners = results.stream().filter(Either::isRight).count();
            if (abandoned) {
                assertThat(winners).isEqualTo(RACERS / 2);
            } else {
                assertThat(winners).isEqualTo(1);
            }
        }
    }

    @Nested
    class RacesThroughTheBoundary {

        @Test
        void runsTheToolExactlyOnceInEachRoundOf64ThreadsCallingOneKey() throws Exception {
            int rounds = sameKeyRaceRounds();
            assertThat(rounds).as("rounds").isPositive();
            List<CountingExecutor> tools = new ArrayList<>();
            List<ToolBoundary> boundaries = new ArrayList<>();
            List<RunContext> runs = new ArrayList<>();
            List<ToolCallEnvelope> calls = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                CountingExecutor tool = FakeTools.counting(FakeTools.returning("raw " + round));
                tools.add(tool);
                boundaries.add(boundaryOver(ToolBinding.readOnly(RACE_TOOL, tool, FakeProjectors.evidenceFound("found"))));
                RunContext run = Fixtures.anyRunContext();
                runs.add(run);
                calls.add(Fixtures.envelope(run).withToolName(RACE_TOOL).build());
            }
            List<List<Either<BoundaryError, AgentResult>>> results = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                results.add(Collections.synchronizedList(new ArrayList<>()));
            }
            // Each racer plays every round; a barrier releases the 64 calls of a round together.
            CyclicBarrier roundStart = new CyclicBarrier(BOUNDARY_RACERS);
            ExecutorService pool = Executors.newFixedThreadPool(BOUNDARY_RACERS);
            try {
                List<Future<?>> racers = new ArrayList<>();
                for (int racer = 0; racer < BOUNDARY_RACERS; racer++) {
                    racers.add(pool.submit(() -> {
                        for (int round = 0; round < rounds; round++) {
                            roundStart.await(60, SECONDS);
                            results.get(round).add(boundaries.get(round).invoke(runs.get(round), calls.get(round)));
                        }
                        return null;
                    }));
                }
                for (Future<?> racer : racers) {
                    racer.get(5, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }

            for (int round = 0; round < rounds; round++) {
                List<Either<BoundaryError, AgentResult>> outcomes = results.get(round);
                assertThat(tools.get(round).executions()).as("executions in round %d", round).isEqualTo(1);
                assertThat(outcomes.stream().filter(Either::isRight).toList()).as("results in round %d", round)
                        .containsExactly(Either.right(evidenceFound("found")));
                assertThat(outcomes.stream().filter(Either::isLeft).toList()).as("refusals in round %d", round)
                        .hasSize(BOUNDARY_RACERS - 1)
                        .allSatisfy(result -> assertThat(result).isEqualTo(refused(ErrorCode.DUPLICATE_TOOL_CALL)));
                InvocationKey key = InvocationKey.of(runs.get(round).runId(), new ToolCallId(calls.get(round).toolCallId()));
                assertThat(stored(key).map(CanonicalRecord::status)).as("record of round %d", round)
                        .isEqualTo(Option.some(InvocationStatus.READY));
            }
            long executions = tools.stream().mapToLong(CountingExecutor::executions).sum();
            System.out.printf("RELIABILITY race-one-key/%s rounds=%d threads=%d calls=%d executions=%d duplicateExecutions=%d%n",
                    CanonicalInvocationStoreContract.this.getClass().getSimpleName(), rounds, BOUNDARY_RACERS,
                    (long) rounds * BOUNDARY_RACERS, executions, executions - rounds);
        }

        @Test
        void keepsEveryRunWithinItsBudgetsWhenManyRunsRaceTheirCalls() throws Exception {
            int rounds = budgetRaceRounds();
            assertThat(rounds).as("rounds").isPositive();
            int runs = 16;
            int attemptsPerRun = 8;
            int toolBudget = 5;
            ExecutorService pool = Executors.newFixedThreadPool(BOUNDARY_RACERS);
            try {
                for (int round = 0; round < rounds; round++) {
                    Map<RunId, AtomicInteger> executions = new ConcurrentHashMap<>();
                    ToolExecutor tool = request -> {
                        executions.computeIfAbsent(request.key().runId(), run -> new AtomicInteger()).incrementAndGet();
                        return "raw";
                    };
                    ToolBoundary boundary = boundaryOver(ToolBinding.readOnly(RACE_TOOL, tool,
                            FakeProjectors.evidenceFound("found")).withCallBudgetPerRun(toolBudget));
                    List<RunContext> contexts = new ArrayList<>();
                    List<ToolCallEnvelope> calls = new ArrayList<>();
                    for (int r = 0; r < runs; r++) {
                        RunContext run = RunContext.active(freshRunId(), Fixtures.FAR_FUTURE, (r + round) % 9);
                        contexts.add(run);
                        for (int a = 0; a < attemptsPerRun; a++) {
                            calls.add(Fixtures.envelope(run).withToolName(RACE_TOOL).withToolCallId("call_" + a)
                                    .withArguments("{\"attempt\":" + a + "}").build());
                        }
                    }
                    Collections.shuffle(calls, new Random(round));
                    Map<String, RunContext> byRun = contexts.stream()
                            .collect(Collectors.toMap(run -> run.runId().value(), run -> run));
                    AtomicInteger next = new AtomicInteger();
                    Map<RunId, List<Either<BoundaryError, AgentResult>>> results = new ConcurrentHashMap<>();

                    raceOn(pool, BOUNDARY_RACERS, i -> {
                        for (int c = next.getAndIncrement(); c < calls.size(); c = next.getAndIncrement()) {
                            ToolCallEnvelope call = calls.get(c);
                            RunContext run = byRun.get(call.runId());
                            Either<BoundaryError, AgentResult> result = boundary.invoke(run, call);
                            results.computeIfAbsent(run.runId(), id -> Collections.synchronizedList(new ArrayList<>()))
                                    .add(result);
                        }
                        return null;
                    });

                    for (RunContext run : contexts) {
                        int expected = Math.min(attemptsPerRun, Math.min(toolBudget, run.callBudget()));
                        ErrorCode refusal = run.callBudget() <= toolBudget
                                ? ErrorCode.RUN_BUDGET_EXHAUSTED
                                : ErrorCode.TOOL_BUDGET_EXHAUSTED;
                        List<Either<BoundaryError, AgentResult>> outcomes = results.get(run.runId());
                        long created = IntStream.range(0, attemptsPerRun)
                                .filter(a -> stored(InvocationKey.of(run.runId(), new ToolCallId("call_" + a))).isDefined())
                                .count();
                        String what = "run with budgets " + run.callBudget() + "/" + toolBudget + " in round " + round;
                        assertThat(created).as("records of %s", what).isEqualTo(expected);
                        assertThat(executions.getOrDefault(run.runId(), new AtomicInteger()).get())
                                .as("executions of %s", what).isEqualTo(expected);
                        assertThat(outcomes).as("outcomes of %s", what).hasSize(attemptsPerRun);
                        assertThat(outcomes.stream().filter(Either::isRight).count()).as("successes of %s", what)
                                .isEqualTo(expected);
                        assertThat(outcomes.stream().filter(Either::isLeft).toList()).as("refusals of %s", what)
                                .allSatisfy(result -> assertThat(result).isEqualTo(refused(refusal)));
                    }
                }
            } finally {
                pool.shutdownNow();
            }
        }

        private ToolBoundary boundaryOver(ToolBinding binding) {
            // The record limit the store's cap allows: a boundary refuses a store that holds less.
            long record = Math.min(ToolBoundaryConfig.DEFAULT_RECORD_BYTES, maxRecordBytes());
            ToolBoundaryConfig fitting = ToolBoundaryConfig.custom().recordLimitBytes(record)
                    .requestLimitBytes(Math.min(ToolBoundaryConfig.DEFAULT_REQUEST_BYTES, record))
                    .rawResponseLimitBytes(Math.min(ToolBoundaryConfig.DEFAULT_RAW_RESPONSE_BYTES, record)).build();
            return ToolBoundary.builder().store(store()).accessPolicy(AccessPolicy.allowAll()).config(fitting)
                    .tool(binding).build();
        }
    }

    @Nested
    class Concurrency {

        @RepeatedTest(value = ROUNDS, name = "round {currentRepetition} of {totalRepetitions}")
        void letsExactlyOneOf32RacingBeginsCreateTheRecord() throws Exception {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            List<AttemptToken> tokens = IntStream.range(0, RACERS).mapToObj(i -> AttemptToken.random()).toList();

            List<Either<BoundaryError, CanonicalRecord.Projecting>> results =
                    race(i -> store().begin(start(record, tokens.get(i))));

            assertThat(results.stream().filter(Either::isRight).toList()).containsExactly(Either.right(record));
            assertThat(results.stream().filter(Either::isLeft).toList())
                    .hasSize(RACERS - 1)
                    .allSatisfy(result -> assertThat(result).isEqualTo(refused(ErrorCode.DUPLICATE_TOOL_CALL)));
            assertThat(stored(record.key())).isEqualTo(Option.some(record));

            AttemptToken winner = tokens.get(results.indexOf(Either.right(record)));
            CanonicalRecord.Ready ready = readyOf(record, "raw", evidenceFound("found"));
            assertThat(store().complete(winner, ready)).isEqualTo(Either.right(ready));
        }

        @RepeatedTest(value = ROUNDS, name = "round {currentRepetition} of {totalRepetitions}")
        void storesExactlyOneOf32RacingCompletions() throws Exception {
            CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
            AttemptToken token = AttemptToken.random();
            begin(record, token);
            List<CanonicalRecord.Final> outcomes = IntStream.range(0, RACERS)
                    .mapToObj(i -> i % 2 == 0
                            ? (CanonicalRecord.Final) readyOf(record, "raw " + i, evidenceFound("found " + i))
                            : failedOf(record, ErrorCode.EXECUTION_FAILED, Option.some("raw " + i)))
                    .toList();

            List<Either<BoundaryError, CanonicalRecord.Final>> results = race(i -> store().complete(token, outcomes.get(i)));

            CanonicalRecord stored = stored(record.key()).get();
            assertThat(outcomes).contains((CanonicalRecord.Final) stored);
            assertThat(results.get(outcomes.indexOf(stored))).isEqualTo(Either.right(stored));
            assertThat(results.stream().filter(Either::isRight).map(Either::get).collect(Collectors.toSet()))
                    .containsExactly((CanonicalRecord.Final) stored);
            assertThat(results.stream().filter(Either::isLeft).toList())
                    .allSatisfy(result -> assertThat(result).isEqualTo(refused(ErrorCode.RECORD_CONFLICT)));
        }

        /** Runs {@code task} on {@link #RACERS} threads released together; returns the results in thread order. */
        private <T> List<T> race(IntFunction<T> task) throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(RACERS);
            try {
                return raceOn(pool, RACERS, task);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Test steps
    // ---------------------------------------------------------------------------------------------

    /**
     * Runs {@code task} once on each of {@code racers} threads of {@code pool} (which has at least that
     * many), released together; returns the results in racer order.
     */
    private static <T> List<T> raceOn(ExecutorService pool, int racers, IntFunction<T> task) throws Exception {
        CountDownLatch ready = new CountDownLatch(racers);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<T>> futures = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            int racer = i;
            Callable<T> call = () -> {
                ready.countDown();
                go.await();
                return task.apply(racer);
            };
            futures.add(pool.submit(call));
        }
        assertThat(ready.await(30, SECONDS)).as("all racers started").isTrue();
        go.countDown();
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get(60, SECONDS));
        }
        return results;
    }

    /** Begins {@code record} with {@link #start(CanonicalRecord.Projecting, AttemptToken)}, asserting it is created. */
    private void begin(CanonicalRecord.Projecting record, AttemptToken token) {
        assertThat(store().begin(start(record, token))).as("begin %s", record.key()).isEqualTo(Either.right(record));
    }

    /** What the store finds under {@code key}, asserting the read itself succeeded. */
    private Option<CanonicalRecord> stored(InvocationKey key) {
        Either<BoundaryError, Option<CanonicalRecord>> found = store().find(key);
        assertThat(found.isRight()).as("find %s answered %s", key, found).isTrue();
        return found.get();
    }

    /** Asserts that the store accepted the operation. */
    private static void assertAccepted(Either<BoundaryError, ?> result) {
        assertThat(result.isRight()).as("expected acceptance, got %s", result).isTrue();
    }

    private static <T> Either<BoundaryError, T> refused(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }

    @Nested
    class ListingAndSweepingARun {

        private List<String> listed(RunId runId) {
            Either<BoundaryError, io.toolboundary.application.ToolCallIdPage> page =
                    store().toolCallIds(runId, Option.none(), 1000, CanonicalInvocationStore.DEFAULT_TIMEOUT);
            assertThat(page.isRight()).as("listing answered %s", page).isTrue();
            assertThat(page.get().more()).as("more").isFalse();
            return page.get().ids().stream().map(ToolCallId::value).toList();
        }

        @Test
        void listsEveryRecordOfTheRunOnceInOrderAndNoCounterNorAnotherRunsRecord() {
            RunId runId = freshRunId();
            // Runs whose ids start like this one's, or differ only where a pattern could be loose.
            RunId longer = new RunId(runId.value() + "0");
            RunId shorter = new RunId(runId.value().substring(0, runId.value().length() - 1));
            for (String id : List.of("call_b", "call_a", "call:c.d", "call_c")) {
                begin(projecting(runId, id), AttemptToken.random());
            }
            begin(projecting(longer, "call_z"), AttemptToken.random());
            begin(projecting(shorter, "call_y"), AttemptToken.random());
            CanonicalRecord.Projecting completed = projecting(runId, "done");
            AttemptToken token = AttemptToken.random();
            begin(completed, token);
            assertAccepted(store().complete(token, readyOf(completed, "raw", evidenceFound("found"))));

            assertThat(listed(runId)).containsExactly("call:c.d", "call_a", "call_b", "call_c", "done");
            assertThat(listed(longer)).containsExactly("call_z");
            assertThat(listed(freshRunId())).isEmpty();
        }

        @Test
        void listsRunIdsWithDotsAndColonsLiterally() {
            String base = freshRunId().value();
            RunId dotted = new RunId(base + ".a:b");
            RunId lookalike = new RunId(base + "xa-b");
            begin(projecting(dotted, "call_1"), AttemptToken.random());
            begin(projecting(lookalike, "call_2"), AttemptToken.random());

            assertThat(listed(dotted)).containsExactly("call_1");
            assertThat(listed(lookalike)).containsExactly("call_2");
        }

        @Test
        void pagesAfterTheLastIdUntilEveryRecordIsListedOnce() {
            RunId runId = freshRunId();
            List<String> all = IntStream.range(0, 7).mapToObj(i -> "call_" + i).toList();
            all.forEach(id -> begin(projecting(runId, id), AttemptToken.random()));

            List<String> seen = new ArrayList<>();
            List<Boolean> mores = new ArrayList<>();
            Option<ToolCallId> after = Option.none();
            for (int page = 0; page < 3; page++) {
                var listed = store().toolCallIds(runId, after, 3, CanonicalInvocationStore.DEFAULT_TIMEOUT).get();
                listed.ids().forEach(id -> seen.add(id.value()));
                mores.add(listed.more());
                after = Option.of(listed.ids().get(listed.ids().size() - 1));
            }

            assertThat(seen).containsExactlyElementsOf(all);
            assertThat(mores).containsExactly(true, true, false);
        }

        @Test
        void doesNotListAnExpiredRecord() {
            RunId runId = freshRunId();
            CanonicalRecord.Projecting gone = projecting(runId, "call_gone");
            begin(gone, AttemptToken.random());
            // Lets time pass where the store's clock can move (expire may end every record as old).
            passLease(gone.key());
            begin(projecting(runId, "call_kept"), AttemptToken.random());
            expire(gone.key());

            assertThat(listed(runId)).containsExactly("call_kept");
        }

        @Test
        void refusesALimitBelowOne() {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().toolCallIds(freshRunId(), Option.none(), 0,
                    CanonicalInvocationStore.DEFAULT_TIMEOUT)).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void theBoundarySweepEndsOnlyTheRecordsPastTheirLeaseAndIsSafeToRepeat() {
            RunId runId = freshRunId();
            CanonicalRecord.Projecting expired = projecting(runId, "call_expired");
            CanonicalRecord.Projecting leased = projecting(runId, "call_leased");
            CanonicalRecord.Projecting done = projecting(runId, "call_done");
            // passLease may pass every lease begun so far (a store's clock moved on), so the leased
            // record is begun after it.
            begin(expired, AttemptToken.random());
            AttemptToken token = AttemptToken.random();
            begin(done, token);
            CanonicalRecord.Ready ready = readyOf(done, "raw", evidenceFound("found"));
            assertAccepted(store().complete(token, ready));
            passLease(expired.key());
            begin(leased, AttemptToken.random());
            ToolBoundary boundary = sweeper();

            var first = boundary.abandonExpired(runId);

            assertThat(first.isRight()).as("sweep answered %s", first).isTrue();
            assertThat(first.get().lookedAt()).isEqualTo(3);
            assertThat(first.get().abandoned()).containsExactly(expired.key().toolCallId());
            assertThat(first.get().stillLeased()).containsExactly(leased.key().toolCallId());
            assertThat(first.get().errors()).isZero();
            assertThat(stored(expired.key()).get().errorCode()).isEqualTo(Option.some(ErrorCode.EXECUTION_ABANDONED));
            assertThat(stored(leased.key())).isEqualTo(Option.some(leased));
            assertThat(stored(done.key())).isEqualTo(Option.some(ready));

            var again = boundary.abandonExpired(runId);
            assertThat(again.get().lookedAt()).isEqualTo(3);
            assertThat(again.get().abandoned()).isEmpty();
            assertThat(again.get().stillLeased()).containsExactly(leased.key().toolCallId());
        }

        @Test
        void theBoundarySweepReachesRecordsBeyondTheFirstPage() {
            RunId runId = freshRunId();
            int records = 503;
            List<CanonicalRecord.Projecting> begun = IntStream.range(0, records)
                    .mapToObj(i -> projecting(runId, String.format("call_%04d", i))).toList();
            CanonicalRecord.Projecting last = begun.get(records - 1);
            // Begun first: passLease may pass every lease begun so far.
            begin(last, AttemptToken.random());
            passLease(last.key());
            begun.subList(0, records - 1).forEach(record -> begin(record, AttemptToken.random()));

            var swept = sweeper().abandonExpired(runId);

            assertThat(swept.get().lookedAt()).isEqualTo(records);
            assertThat(swept.get().abandoned()).containsExactly(last.key().toolCallId());
            assertThat(swept.get().stillLeased()).hasSize(records - 1);
        }

        @Test
        void theBoundarySweepOfAnEmptyRunLooksAtNothing() {
            var swept = sweeper().abandonExpired(freshRunId());

            assertThat(swept.get().lookedAt()).isZero();
            assertThat(swept.get().abandoned()).isEmpty();
        }

        private ToolBoundary sweeper() {
            long record = Math.min(ToolBoundaryConfig.DEFAULT_RECORD_BYTES, maxRecordBytes());
            ToolBoundaryConfig fitting = ToolBoundaryConfig.custom().recordLimitBytes(record)
                    .requestLimitBytes(Math.min(ToolBoundaryConfig.DEFAULT_REQUEST_BYTES, record))
                    .rawResponseLimitBytes(Math.min(ToolBoundaryConfig.DEFAULT_RAW_RESPONSE_BYTES, record)).build();
            return ToolBoundary.builder().store(store()).accessPolicy(AccessPolicy.allowAll()).config(fitting).build();
        }
    }
}
