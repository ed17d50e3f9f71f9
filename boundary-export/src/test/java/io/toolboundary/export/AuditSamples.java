package io.toolboundary.export;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.UUID;

/** Final records for the audit tests: each run and tool fresh, instants microsecond-precise. */
final class AuditSamples {

    /** An instant with microseconds, so that a lost fraction shows. */
    static final Instant CREATED = Instant.parse("2026-03-01T10:15:30.123456Z");
    /** Four UTF-8 bytes each: an emoji and a CJK extension B character. */
    static final String FOUR_BYTES = "\uD83D\uDE00\uD840\uDC0B";

    private AuditSamples() {
    }

    static RunId freshRun() {
        return new RunId("run-" + UUID.randomUUID());
    }

    static ToolName freshTool() {
        return new ToolName("tool-" + UUID.randomUUID());
    }

    static CanonicalRecord.Projecting begun(RunId run, String callId, ToolName tool, Instant createdAt) {
        return new CanonicalRecord.Projecting(InvocationKey.of(run, new ToolCallId(callId)), tool,
                "{\"query\": \"timeout \\u00e9 " + FOUR_BYTES + "\",  \"limit\":10, \"b\":1, \"a\":2}",
                "0f3c" + "a".repeat(60), createdAt);
    }

    static CanonicalRecord.Ready ready(RunId run, String callId, ToolName tool, Instant createdAt) {
        return begun(run, callId, tool, createdAt).ready("raw " + FOUR_BYTES + " body",
                new AgentResult("found " + FOUR_BYTES, EvidenceStatus.EVIDENCE_FOUND, Option.of("the last 24 hours")),
                createdAt.plusMillis(250).plusNanos(1_000));
    }

    static AuditedRecord kept(CanonicalRecord.Final record) {
        return AuditedRecord.of(record, RawResponsePolicy.KEEP);
    }

    static AuditedRecord readyKept(RunId run, String callId, ToolName tool, Instant createdAt) {
        return kept(ready(run, callId, tool, createdAt));
    }

    static CanonicalRecord.Failed failed(RunId run, String callId, ToolName tool, ErrorCode code, Option<String> raw) {
        return begun(run, callId, tool, CREATED).failed(code, raw, CREATED.plusSeconds(2));
    }

    /** A text of exactly {@code bytes} UTF-8 bytes: 4-byte characters, then ASCII. */
    static String textOfBytes(int bytes) {
        StringBuilder text = new StringBuilder(bytes);
        text.append("\uD83D\uDE00".repeat(bytes / 4));
        text.append("x".repeat(bytes % 4));
        return text.toString();
    }
}
