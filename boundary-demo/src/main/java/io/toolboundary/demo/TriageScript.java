package io.toolboundary.demo;

import static io.toolboundary.demo.DemoTools.LOG_EXPORT;
import static io.toolboundary.demo.DemoTools.LOG_SEARCH;
import static io.toolboundary.demo.DemoTools.METRICS_QUERY;
import static io.toolboundary.demo.DemoTools.MYSQL_READ;
import static io.toolboundary.demo.DemoTools.MYSQL_WRITE;
import static io.toolboundary.demo.DemoTools.PAGER_ESCALATE;
import static io.toolboundary.demo.DemoTools.RAG_LOOKUP;
import static io.toolboundary.demo.DemoTools.TRACE_FETCH;
import static java.util.Objects.requireNonNull;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.Projector;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A scripted incident-triage run through a {@link ToolBoundary}, printing for each step what the agent sent and
 * got back and the record as the harness reads it, then a summary. It opens the run before its first call; the
 * last step carries another run token, as every call does once the store has lost the run's state.
 */
final class TriageScript {

    /** The run a cross-run envelope claims to belong to; never the run being played. */
    static final String OTHER_RUN_ID = "triage-previous-shift";

    private static final Duration RUN_TIME = Duration.ofMinutes(15);
    private static final int RUN_CALL_BUDGET = 20;
    private static final int MAX_ARGUMENT_CHARS = 160;
    private static final int MAX_CONTENT_CHARS = 480;
    private static final int SUMMARY_INDENT = 9;
    private static final int HEADER_INDENT = 12;

    private final ToolBoundary boundary;
    private final DemoTools tools;
    /** The run's facts; opened by {@link #play}. */
    private RunContext run;
    private final String storeName;
    private final ToolBoundaryConfig config;

    private TriageScript(ToolBoundary boundary, DemoTools tools, RunContext run, String storeName,
            ToolBoundaryConfig config) {
        this.boundary = boundary;
        this.tools = tools;
        this.run = run;
        this.storeName = storeName;
        this.config = config;
    }

    /** A script playing a fresh {@code runId} on {@code store}, named {@code storeName} in the output, on {@code clock}. */
    static TriageScript create(CanonicalInvocationStore store, String storeName, RunId runId, Clock clock) {
        requireNonNull(store, "store is null");
        requireNonNull(storeName, "storeName is null");
        requireNonNull(runId, "runId is null");
        requireNonNull(clock, "clock is null");
        DemoTools tools = new DemoTools();
        ToolBoundaryConfig config = ToolBoundaryConfig.ofDefaults();
        ToolBoundaryBuilder builder = ToolBoundary.builder()
                .store(store)
                .accessPolicy(triageAccess())
                .clock(clock)
                .config(config);
        tools.bindings().forEach(builder::tool);
        RunContext run = RunContext.active(runId, clock.instant().plus(RUN_TIME), RUN_CALL_BUDGET);
        return new TriageScript(builder.build(), tools, run, storeName, config);
    }

    /** The harness grants a triage run every tool but the pager. */
    private static AccessPolicy triageAccess() {
        return AccessPolicy.allowOnly(LOG_SEARCH, RAG_LOOKUP, MYSQL_READ, MYSQL_WRITE, LOG_EXPORT, TRACE_FETCH,
                METRICS_QUERY);
    }

    /** {@return the boundary the script's calls went through} */
    ToolBoundary boundary() {
        return boundary;
    }

    /**
     * {@return true when every step ended as scripted} Plays every step, printing a table for each and a summary line.
     */
    boolean play(PrintStream out) {
        requireNonNull(out, "out is null");
        run = boundary.openRun(run).getOrElseThrow(error -> new Main.StoreFailed("the store could not open the run: "
                + error.code() + " (" + error.message() + ")"));
        printHeader(out);
        List<Step> steps = steps();
        Tally tally = new Tally();
        Map<InvocationKey, Integer> createdIn = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            int number = i + 1;
            Step step = steps.get(i);
            Table table = new Table()
                    .title("Step " + number + " of " + steps.size() + ": " + step.title())
                    .title("Expected: " + step.expectation());
            Outcome outcome = playStep(step, number, table, createdIn);
            tally.add(outcome);
            table.lines().forEach(out::println);
            out.println();
        }
        tally.printSummary(out, steps.size(), tools);
        return tally.unexpected == 0;
    }

    private List<Step> steps() {
        return List.of(
                step("Normal call: ERROR logs of the checkout service",
                        "EVIDENCE_FOUND; the tool runs once; one READY record, citable as evidence",
                        call("call_01", LOG_SEARCH, "{\"service\":\"checkout\",\"level\":\"ERROR\",\"window\":\"10:00Z-10:15Z\"}"),
                        "EVIDENCE_FOUND"),
                step("No evidence: ERROR logs of the inventory service",
                        "NO_EVIDENCE with its scope; a READY record, only a scoped negative observation",
                        call("call_02", LOG_SEARCH, "{\"service\":\"inventory\",\"level\":\"ERROR\",\"window\":\"10:00Z-10:15Z\"}"),
                        "NO_EVIDENCE"),
                step("Runbook lookup for the symptom (long arguments)",
                        "EVIDENCE_FOUND: the two best runbook passages, without index internals",
                        call("call_03", RAG_LOOKUP, "{\"query\":\"checkout payment-gateway timeouts, circuit breaker open\","
                                + "\"top_k\":2,\"context\":\"INC-4711. Since 10:02Z checkout requests to the payment gateway "
                                + "time out after 3000 ms; the breaker opened at 10:06Z; orders stay PAYMENT_PENDING; "
                                + "inventory looks healthy; no deploy since yesterday 16:40Z; provider status page "
                                + "not yet checked.\"}"),
                        "EVIDENCE_FOUND"),
                step("Read-only SQL: orders stuck in PAYMENT_PENDING",
                        "EVIDENCE_FOUND: the rows, without connection details",
                        call("call_04", MYSQL_READ, "{\"sql\":\"SELECT order_id, status, gateway, updated_at FROM orders "
                                + "WHERE status = 'PAYMENT_PENDING' ORDER BY updated_at DESC LIMIT 3\"}"),
                        "EVIDENCE_FOUND"),
                step("Duplicate tool_call_id: call_01 again, same arguments",
                        "DUPLICATE_TOOL_CALL; the tool does not run again; the record of step 1 is unchanged",
                        call("call_01", LOG_SEARCH, "{\"service\":\"checkout\",\"level\":\"ERROR\",\"window\":\"10:00Z-10:15Z\"}"),
                        error(ErrorCode.DUPLICATE_TOOL_CALL)),
                step("Reused tool_call_id: call_01 again, other arguments",
                        "TOOL_CALL_ID_REUSED; nothing runs; the record of step 1 is unchanged",
                        call("call_01", LOG_SEARCH, "{\"service\":\"payments\",\"level\":\"ERROR\",\"window\":\"10:00Z-10:15Z\"}"),
                        error(ErrorCode.TOOL_CALL_ID_REUSED)),
                step("Unsafe tool_call_id",
                        "TOOL_CALL_ID_UNSAFE in preflight; no id is made up in its place; no record",
                        call("call_07/../x", LOG_SEARCH, "{\"service\":\"checkout\"}"),
                        error(ErrorCode.TOOL_CALL_ID_UNSAFE)),
                step("Cross-run call: the envelope names another run",
                        "RUN_MISMATCH in preflight; nothing runs; no record",
                        ToolCallEnvelope.of(OTHER_RUN_ID, "call_08", LOG_SEARCH, "{\"service\":\"checkout\"}"),
                        error(ErrorCode.RUN_MISMATCH)),
                step("Unauthorized tool: pager-escalate",
                        "TOOL_NOT_AUTHORIZED in preflight (the harness denies it to triage runs); no record",
                        call("call_09", PAGER_ESCALATE, "{\"team\":\"payments-oncall\",\"message\":\"checkout payments failing\"}"),
                        error(ErrorCode.TOOL_NOT_AUTHORIZED)),
                step("Writable tool: mysql-write",
                        "TOOL_NOT_READ_ONLY in preflight; the write never runs; no record",
                        call("call_10", MYSQL_WRITE, "{\"sql\":\"UPDATE orders SET status = 'CANCELLED' "
                                + "WHERE status = 'PAYMENT_PENDING'\"}"),
                        error(ErrorCode.TOOL_NOT_READ_ONLY)),
                step("Oversized raw response: a full log export (over 1 MiB)",
                        "RESULT_TOO_LARGE; ERROR record without raw (never truncated); the projector does not run",
                        call("call_11", LOG_EXPORT, "{\"service\":\"checkout\",\"window\":\"09:00Z-10:15Z\"}"),
                        error(ErrorCode.RESULT_TOO_LARGE)),
                step("Oversized projection: a projector that copies every span (over 8 KiB)",
                        "RESULT_TOO_LARGE; ERROR record keeps the raw response for the harness; agent gets nothing",
                        call("call_12", TRACE_FETCH, "{\"trace_id\":\"9f2c61d0\"}"),
                        error(ErrorCode.RESULT_TOO_LARGE)),
                step("Failing projector: metrics it cannot read",
                        "PROJECTION_FAILED; ERROR record keeps the raw response; the exception text stays out",
                        call("call_13", METRICS_QUERY, "{\"metric\":\"payment_gateway_latency_ms\",\"quantile\":\"0.99\"}"),
                        error(ErrorCode.PROJECTION_FAILED)),
                new Step("Lost run state: the call's run token is not the one the store holds for this run",
                        "RUN_STATE_LOST, as for every call of a run whose stored state was lost (a restart without"
                                + " persistence, a flush, an eviction, a failover): the store cannot tell which calls"
                                + " already ran, so nothing runs; no record; the harness starts a new run",
                        call("call_14", LOG_SEARCH, "{\"service\":\"payments\",\"level\":\"ERROR\",\"window\":\"10:00Z-10:15Z\"}"),
                        error(ErrorCode.RUN_STATE_LOST),
                        run.opened(RunToken.random())));
    }

    private ToolCallEnvelope call(String toolCallId, String tool, String arguments) {
        return ToolCallEnvelope.of(run.runId().value(), toolCallId, tool, arguments);
    }

    private static String error(ErrorCode code) {
        return "ERROR " + code.name();
    }

    private Outcome playStep(Step step, int number, Table table, Map<InvocationKey, Integer> createdIn) {
        ToolCallEnvelope envelope = step.envelope();
        table.group("agent sent")
                .row("run id", envelope.runId())
                .row("tool", envelope.toolName())
                .row("tool_call_id", envelope.toolCallId())
                .row("arguments", Table.abbreviate(envelope.arguments(), MAX_ARGUMENT_CHARS));

        Option<InvocationKey> key = ToolCallId.of(envelope.toolCallId()).toOption()
                .map(id -> InvocationKey.of(run.runId(), id));
        Option<CanonicalRecord> before = key.flatMap(this::find);
        int executionsBefore = tools.executions();
        int projectionsBefore = tools.projections();

        Either<BoundaryError, AgentResult> got = boundary.invoke(step.run(), envelope);

        boolean executed = tools.executions() > executionsBefore;
        boolean projected = tools.projections() > projectionsBefore;
        Option<CanonicalRecord> after = key.flatMap(this::find);
        String result = got.fold(e -> error(e.code()), r -> r.evidence().name());
        boolean asScripted = result.equals(step.expectedResult());

        table.group("agent got back");
        got.peekLeft(e -> table.row("result", result).row("message", e.message()));
        got.peek(r -> {
            table.row("result", result).row("content", Table.abbreviate(r.content(), MAX_CONTENT_CHARS));
            r.scope().forEach(scope -> table.row("scope", scope));
        });
        table.row("model sees", Table.abbreviate(ToolBoundary.agentText(got), MAX_CONTENT_CHARS));
        if (!asScripted) {
            table.row("NOT AS SCRIPTED", "expected " + step.expectedResult());
        }

        boolean created = before.isEmpty() && after.isDefined();
        if (created) {
            createdIn.put(key.get(), number);
        }
        table.group("harness record");
        recordRows(table, key, before, after, createdIn);
        table.row("tool / projector", (executed ? "tool ran (" + tools.lastRawBytes() + " raw bytes)" : "tool not run")
                + ", " + (projected ? "projector ran" : "projector not run"));

        return new Outcome(got.swap().toOption().map(BoundaryError::code), created ? after : Option.none(), asScripted);
    }

    private void recordRows(Table table, Option<InvocationKey> key, Option<CanonicalRecord> before,
            Option<CanonicalRecord> after, Map<InvocationKey, Integer> createdIn) {
        if (after.isEmpty()) {
            table.row("record", "no record (nothing was stored)");
            return;
        }
        CanonicalRecord record = after.get();
        String origin;
        if (before.isEmpty()) {
            origin = "created by this step";
        } else {
            String step = "the record of step " + createdIn.getOrDefault(key.get(), 0);
            origin = before.get().equals(record) ? step + ", unchanged" : step + ", CHANGED";
        }
        table.row("record", origin + " (" + key.get() + ")")
                .row("status", record.status().name())
                .row("evidence", record.evidence().map(Enum::name).getOrElse("-"))
                .row("error code", record.errorCode().map(Enum::name).getOrElse("-"))
                .row("request bytes", String.valueOf(Projector.utf8Length(record.arguments())))
                .row("raw bytes", record.rawResponse().map(raw -> String.valueOf(Projector.utf8Length(raw)))
                        .getOrElse(record.status() == InvocationStatus.PROJECTING ? "-" : "none kept"))
                .row("agent result bytes", record.agentResult().map(r -> String.valueOf(r.byteSize())).getOrElse("-"))
                .row("referencable", describe(referencability(key.get())));
    }

    private Option<CanonicalRecord> find(InvocationKey key) {
        Either<BoundaryError, Option<CanonicalRecord>> found = boundary.find(key.runId(), key.toolCallId());
        return found.getOrElseThrow(error -> new Main.StoreFailed("the store failed during the run: " + error.code()
                + " (" + error.message() + ")"));
    }

    private Either<BoundaryError, Referencability> referencability(InvocationKey key) {
        return boundary.referencability(key.runId(), key.toolCallId());
    }

    private static String describe(Either<BoundaryError, Referencability> referencability) {
        return referencability.fold(error -> "unknown (" + error.code() + ")", r -> switch (r) {
            case CITABLE_EVIDENCE -> "yes, as evidence";
            case SCOPED_NEGATIVE_OBSERVATION -> "only as a negative observation within its scope";
            case NOT_REFERENCABLE -> "no";
        });
    }

    private void printHeader(PrintStream out) {
        out.println("Tool Boundary demo: a scripted incident-triage run (no LLM; every step is scripted)");
        out.println("  incident  INC-4711: checkout payments failing since 10:02Z");
        out.println("  run id    " + run.runId().value() + " (opened in the store; deadline in " + RUN_TIME.toMinutes()
                + " min, budget " + RUN_CALL_BUDGET + " calls)");
        List<String> store = Table.wrap(storeName, Table.WIDTH - HEADER_INDENT);
        out.println("  store     " + store.get(0));
        store.subList(1, store.size()).forEach(line -> out.println(" ".repeat(HEADER_INDENT) + line));
        out.println("  limits    request " + size(config.argumentsLimitBytes()) + ", raw response "
                + size(config.rawResponseLimitBytes()) + ", record " + size(config.recordLimitBytes()) + ", agent result "
                + size(config.agentResultLimitBytes())
                + " (UTF-8)");
        out.println("  tools     granted:  " + String.join(", ", LOG_SEARCH, RAG_LOOKUP, MYSQL_READ, LOG_EXPORT,
                TRACE_FETCH, METRICS_QUERY));
        out.println("            writable: " + MYSQL_WRITE + " (granted, but the boundary runs read-only tools only)");
        out.println("            denied:   " + PAGER_ESCALATE + " (registered, not authorized for triage runs)");
        out.println();
    }

    private static String size(long bytes) {
        if (bytes % (1024 * 1024) == 0) {
            return bytes / (1024 * 1024) + " MiB";
        }
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }

    /**
     * One scripted call: what it shows, what should come of it, the envelope the agent sends, and the run
     * context the harness passes with it.
     */
    private record Step(String title, String expectation, ToolCallEnvelope envelope, String expectedResult,
            RunContext run) {
    }

    /** A step in the played run, as opened. */
    private Step step(String title, String expectation, ToolCallEnvelope envelope, String expectedResult) {
        return new Step(title, expectation, envelope, expectedResult, run);
    }

    /** What one step produced: its error, the record it created, whether it ended as scripted. */
    private record Outcome(Option<ErrorCode> error, Option<CanonicalRecord> created, boolean asScripted) {
    }

    /** The counts behind the summary line. */
    private static final class Tally {
        private final Map<ErrorCode, Integer> errors = new EnumMap<>(ErrorCode.class);
        private final Map<InvocationStatus, Integer> created = new EnumMap<>(InvocationStatus.class);
        private int unexpected;

        void add(Outcome outcome) {
            outcome.error().forEach(code -> errors.merge(code, 1, Integer::sum));
            outcome.created().forEach(record -> created.merge(record.status(), 1, Integer::sum));
            if (!outcome.asScripted()) {
                unexpected++;
            }
        }

        void printSummary(PrintStream out, int steps, DemoTools tools) {
            int records = created.values().stream().mapToInt(Integer::intValue).sum();
            int errorCount = errors.values().stream().mapToInt(Integer::intValue).sum();
            String byStatus = created.entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                    .collect(Collectors.joining(", "));
            String byCode = errors.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                    .collect(Collectors.joining(", "));
            String summary = "Summary: " + steps + " steps, " + records + " records created (" + byStatus + "), "
                    + tools.executions() + " tool executions, " + tools.projections() + " projector runs, "
                    + errorCount + " errors: " + byCode
                    + (unexpected == 0 ? "" : "; " + unexpected + " steps NOT AS SCRIPTED");
            List<String> lines = Table.wrap(summary, Table.WIDTH - SUMMARY_INDENT);
            out.println(lines.get(0));
            lines.subList(1, lines.size()).forEach(line -> out.println(" ".repeat(SUMMARY_INDENT) + line));
        }
    }
}
