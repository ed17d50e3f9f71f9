package io.toolboundary.export;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Projection;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A harness whose calls end every way a record can: READY with evidence, READY with no evidence, ERROR
 * with its raw response (the projector failed), ERROR without one (the tool failed), and calls refused
 * before any record (a duplicate, arguments that are not one JSON object). Tells which keys must be
 * exported and which must not.
 */
final class ExportWorkload {

    static final String LOGS = "log-search";
    static final String FAILING = "failing-tool";
    static final String BAD_PROJECTION = "bad-projection";

    final ToolBoundary boundary;
    /** Keys of records that became final: each must be exported once. */
    final List<InvocationKey> finals = new ArrayList<>();
    /** Keys of calls refused before a record existed: none may be exported. */
    final List<InvocationKey> refused = new ArrayList<>();
    /** Calls refused as duplicates of a call before them: their keys' records are in {@link #finals}. */
    int duplicates;

    ExportWorkload(CanonicalInvocationStore store, Clock clock) {
        Projector logs = (request, raw) -> raw.contains("ERROR")
                ? Projection.evidenceFound(Projector.firstLines(Projector.mask(raw), 512))
                : Projection.noEvidence("no ERROR lines", "service " + request.json().path("service").asText());
        this.boundary = ToolBoundary.builder()
                .store(store)
                .clock(clock)
                .config(ToolBoundaryConfig.custom().storeTimeout(Duration.ofSeconds(10)).build())
                .accessPolicy(AccessPolicy.allowOnly(LOGS, FAILING, BAD_PROJECTION))
                .tool(ToolBinding.readOnly(LOGS, request -> request.json().path("service").asText().startsWith("pay")
                        ? "10:00:01 payments ERROR timeout password=hunter2 \uD83D\uDE80"
                        : "10:00:03 checkout INFO order placed", logs))
                .tool(ToolBinding.readOnly(FAILING, request -> {
                    throw new IllegalStateException("connection refused password=hunter2");
                }, logs))
                .tool(ToolBinding.readOnly(BAD_PROJECTION, request -> "raw kept token=abc123", (request, raw) -> {
                    throw new IllegalArgumentException("cannot project");
                }))
                .build();
    }

    /** Plays {@code calls} calls in run {@code runId}; returns the outcomes in order. */
    List<Either<BoundaryError, AgentResult>> play(String runId, int calls) {
        RunContext run = boundary.openRun(RunContext.active(new RunId(runId), Instant.parse("9999-12-31T00:00:00Z"),
                        RunContext.UNLIMITED))
                .getOrElseThrow(error -> new IllegalStateException(error.message()));
        List<Either<BoundaryError, AgentResult>> outcomes = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            String callId = "call_" + i;
            InvocationKey key = InvocationKey.of(new RunId(runId), new ToolCallId(callId));
            ToolCallEnvelope envelope = switch (i % 6) {
                case 0 -> ToolCallEnvelope.of(runId, callId, LOGS, "{\"service\":\"payments\"}");
                case 1 -> ToolCallEnvelope.of(runId, callId, LOGS, "{\"service\":\"checkout\"}");
                case 2 -> ToolCallEnvelope.of(runId, callId, FAILING, "{\"service\":\"payments\"}");
                case 3 -> ToolCallEnvelope.of(runId, callId, BAD_PROJECTION, "{\"q\":\"\u00e9\uD83D\uDE80\"}");
                case 4 -> ToolCallEnvelope.of(runId, "call_" + (i - 4), LOGS, "{\"service\":\"payments\"}");
                default -> ToolCallEnvelope.of(runId, callId, LOGS, "[\"not\",\"an\",\"object\"]");
            };
            Either<BoundaryError, AgentResult> outcome = boundary.invoke(run, envelope);
            outcomes.add(outcome);
            switch (i % 6) {
                case 0, 1, 2, 3 -> finals.add(key);
                case 4 -> duplicates++;
                default -> refused.add(key);
            }
        }
        return outcomes;
    }

    /** The stored final record of {@code key}, as {@code boundary.find} reads it. */
    CanonicalRecord.Final stored(InvocationKey key) {
        return (CanonicalRecord.Final) boundary.find(key.runId(), key.toolCallId()).get().get();
    }
}
