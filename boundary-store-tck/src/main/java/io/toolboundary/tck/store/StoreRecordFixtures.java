package io.toolboundary.tck.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Option;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;

/**
 * The records the store contracts work with, and how they are built: the constants (TTL, lease, tool, instants,
 * request) and the helpers that make records and starts the way the contracts do, for any test that needs a store
 * filled with known records.
 */
public final class StoreRecordFixtures {

    /** The timeout every store call of the suites is given: 5 seconds. */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);

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

    /** The token every helper start claims its run with, and {@link StoreFixture#openedRun()} opens runs with. */
    public static final RunToken RUN_TOKEN = new RunToken("tck-run-token");

    /** How long runs opened by the helpers live: a year, longer than any record of theirs. */
    public static final Duration RUN_TTL = Duration.ofDays(365);

    /** The request the helpers use by default: one JSON object. */
    public static final String REQUEST = "{\"service\":\"checkout\",\"window\":\"10:00-10:15\"}";

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

    /**
     * A start with {@link #RUN_TOKEN}, {@link #TTL}, the lease {@link #LEASE}, and {@link #GENEROUS_BUDGET} for the run
     * and the tool.
     */
    public static InvocationStart start(CanonicalRecord.Projecting record, AttemptToken token) {
        return start(record, token, GENEROUS_BUDGET, GENEROUS_BUDGET);
    }

    /**
     * A start with {@link #RUN_TOKEN}, {@link #TTL}, the lease {@link #LEASE}, the given budgets and no record limit
     * (the store's cap applies).
     */
    public static InvocationStart start(CanonicalRecord.Projecting record, AttemptToken token, int runCallBudget,
            int toolCallBudget) {
        return new InvocationStart(record, token, RUN_TOKEN, TTL, LEASE, runCallBudget, toolCallBudget, Long.MAX_VALUE);
    }

    /** The READY record completing {@code record} at {@link #COMPLETED_AT}, built without any size check. */
    public static CanonicalRecord.Ready readyOf(CanonicalRecord.Projecting record, String raw, AgentResult result) {
        return record.ready(raw, result, COMPLETED_AT);
    }

    /** The READY record completing {@code record} with the raw response {@code raw} and the result {@code found}. */
    public static CanonicalRecord.Ready readyOf(CanonicalRecord.Projecting record) {
        return readyOf(record, "raw", evidenceFound("found"));
    }

    /** The ERROR record ending {@code record} at {@link #COMPLETED_AT}. */
    public static CanonicalRecord.Failed failedOf(CanonicalRecord.Projecting record, ErrorCode code,
            Option<String> raw) {
        return record.failed(code, raw, COMPLETED_AT);
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
     * A PROJECTING record of exactly {@code totalBytes} ({@link CanonicalRecord#byteSize()}), whose request pads one
     * JSON string with {@code a} and ends the padding with {@code last}.
     */
    public static CanonicalRecord.Projecting projectingOfSize(RunId runId, String toolCallId, long totalBytes,
            String last) {
        long fixed = projecting(runId, toolCallId, TOOL.value(), paddedRequest("")).byteSize();
        String request = paddedRequest(padding(totalBytes - fixed, last));
        return projecting(runId, toolCallId, TOOL.value(), request);
    }

    /**
     * The READY record completing {@code record} of exactly {@code totalBytes}, whose raw response is {@code a}
     * repeated and ends with {@code last}.
     */
    public static CanonicalRecord.Ready readyOfSize(CanonicalRecord.Projecting record, long totalBytes, String last) {
        AgentResult result = evidenceFound("found");
        long fixed = readyOf(record, "", result).byteSize();
        return readyOf(record, padding(totalBytes - fixed, last), result);
    }

    static String paddedRequest(String padding) {
        return "{\"padding\":\"" + padding + "\"}";
    }

    static String padding(long bytes, String last) {
        long filler = bytes - Projector.utf8Length(last);
        if (filler < 0) {
            throw new IllegalArgumentException("the record cannot be made that small: " + bytes + " bytes left");
        }
        return "a".repeat(Math.toIntExact(filler)) + last;
    }

    private StoreRecordFixtures() {
    }
}
