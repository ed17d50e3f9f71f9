package io.toolboundary.demo;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.Projection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fake tools of the triage run and their projectors. Every raw response carries
 * {@link #RAW_ONLY_MARKER} in parts no projector copies, so a leak to the agent is visible. The tools
 * count how often they and their projectors run.
 */
final class DemoTools {

    /** Text in every raw response (and in the failing projector's exception) that no projection copies. */
    static final String RAW_ONLY_MARKER = "RAW-ONLY";

    static final String LOG_SEARCH = "log-search";
    static final String RAG_LOOKUP = "rag-lookup";
    static final String MYSQL_READ = "mysql-read";
    static final String MYSQL_WRITE = "mysql-write";
    static final String PAGER_ESCALATE = "pager-escalate";
    static final String LOG_EXPORT = "log-export";
    static final String TRACE_FETCH = "trace-fetch";
    static final String METRICS_QUERY = "metrics-query";

    private static final JsonFactory JSON = new JsonFactory();

    private static final String LOG_WINDOW = "2025-03-14 10:00Z-10:15Z";
    private static final Map<String, List<String>> ERROR_LOGS = Map.of("checkout", List.of(
            "2025-03-14T10:02:11.204Z ERROR pod=checkout-7f9c4d-x2k node=ip-10-4-2-17.eu-west-1.compute.internal "
                    + "trace=9f2c61d0 " + RAW_ONLY_MARKER + " msg=gateway timeout after 3000 ms, order 88412",
            "2025-03-14T10:04:37.918Z ERROR pod=checkout-7f9c4d-x2k node=ip-10-4-2-17.eu-west-1.compute.internal "
                    + "trace=a41b7e02 " + RAW_ONLY_MARKER + " msg=gateway timeout after 3000 ms, order 88419",
            "2025-03-14T10:06:02.551Z ERROR pod=checkout-7f9c4d-q8m node=ip-10-4-3-9.eu-west-1.compute.internal "
                    + "trace=c07d3f55 " + RAW_ONLY_MARKER + " msg=breaker payment-gateway OPEN, 5 failures/60 s"));

    private static final List<String> RUNBOOK_PASSAGES = List.of(
            "doc=runbooks/checkout-payments.md#gateway-timeouts score=0.91 chunk=ch-8812 index=rb-v14 " + RAW_ONLY_MARKER,
            "When payment-gateway calls time out, check the provider status page first, then the egress proxy "
                    + "error rate. Do not restart checkout pods: queued retries pile up.",
            "doc=runbooks/checkout-payments.md#circuit-breaker score=0.87 chunk=ch-8813 index=rb-v14 " + RAW_ONLY_MARKER,
            "The payment-gateway breaker opens after 5 failures in 60 s and half-opens after 30 s. Orders stay "
                    + "PAYMENT_PENDING and the reconciler retries them.",
            "doc=runbooks/inventory.md#stock-sync score=0.42 chunk=ch-1290 index=rb-v14 " + RAW_ONLY_MARKER,
            "Stock sync lag over 5 minutes pages the inventory team.");

    private final AtomicInteger executions = new AtomicInteger();
    private final AtomicInteger projections = new AtomicInteger();
    private final AtomicLong lastRawBytes = new AtomicLong();

    /** Every tool the triage run's boundary knows, read-only and writable alike. */
    List<ToolBinding> bindings() {
        return List.of(
                ToolBinding.readOnly(LOG_SEARCH, counted(DemoTools::searchLogs), counted(DemoTools::projectLogLines)),
                ToolBinding.readOnly(RAG_LOOKUP, counted(DemoTools::lookUpRunbooks), counted(DemoTools::projectPassages)),
                ToolBinding.readOnly(MYSQL_READ, counted(DemoTools::selectRows), counted(DemoTools::projectRows)),
                ToolBinding.writable(MYSQL_WRITE, counted(DemoTools::writeRows), counted(DemoTools::projectRows)),
                ToolBinding.readOnly(PAGER_ESCALATE, counted(DemoTools::pageOnCall), counted(DemoTools::projectPage)),
                ToolBinding.readOnly(LOG_EXPORT, counted(DemoTools::exportLogs), counted(DemoTools::projectExport)),
                ToolBinding.readOnly(TRACE_FETCH, counted(DemoTools::fetchTrace), counted(DemoTools::projectEverySpan)),
                ToolBinding.readOnly(METRICS_QUERY, counted(DemoTools::queryMetrics), counted(DemoTools::projectSamples)));
    }

    /** How many times any tool has run. */
    int executions() {
        return executions.get();
    }

    /** How many times any projector has run. */
    int projections() {
        return projections.get();
    }

    /** The UTF-8 size of the raw response the last tool run returned. */
    long lastRawBytes() {
        return lastRawBytes.get();
    }

    private ToolExecutor counted(ToolExecutor executor) {
        return request -> {
            executions.incrementAndGet();
            String raw = executor.execute(request);
            lastRawBytes.set(Projector.utf8Length(raw));
            return raw;
        };
    }

    private Projector counted(Projector projector) {
        return (request, raw) -> {
            projections.incrementAndGet();
            return projector.project(request, raw);
        };
    }

    // log-search: ERROR lines of one service; none for any other service.

    private static String searchLogs(ToolRequest request) throws IOException {
        String service = argument(request, "service");
        List<String> lines = ERROR_LOGS.getOrDefault(service, List.of());
        return "# index=logs-prod-eu-1 shard=7 service=" + service + " level=ERROR hits=" + lines.size() + " "
                + RAW_ONLY_MARKER + "\n" + String.join("\n", lines);
    }

    private static Projection projectLogLines(ToolRequest request, String raw) throws IOException {
        String service = argument(request, "service");
        String scope = "ERROR logs of service " + service + ", " + LOG_WINDOW;
        List<String> found = new ArrayList<>();
        for (String line : raw.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String time = line.substring(11, 19) + "Z";
            String message = line.substring(line.indexOf("msg=") + "msg=".length());
            found.add(time + " " + message);
        }
        if (found.isEmpty()) {
            return Projection.noEvidence("No ERROR log lines.", scope);
        }
        return Projection.evidenceFound(found.size() + " ERROR lines:\n" + String.join("\n", found), scope);
    }

    // rag-lookup: runbook passages, best first.

    private static String lookUpRunbooks(ToolRequest request) {
        return String.join("\n", RUNBOOK_PASSAGES);
    }

    private static Projection projectPassages(ToolRequest request, String raw) throws IOException {
        int topK = Integer.parseInt(argument(request, "top_k"));
        String[] lines = raw.split("\n");
        List<String> passages = new ArrayList<>();
        for (int i = 0; i + 1 < lines.length && passages.size() < topK; i += 2) {
            String doc = lines[i].substring("doc=".length(), lines[i].indexOf(' '));
            passages.add("[" + doc + "] " + lines[i + 1]);
        }
        String scope = "runbook index, top " + topK + " passages";
        return passages.isEmpty()
                ? Projection.noEvidence("No runbook passage matches.", scope)
                : Projection.evidenceFound(String.join("\n", passages), scope);
    }

    // mysql-read: a read-only row fetch; mysql-write: the same database, writing.

    private static String selectRows(ToolRequest request) throws IOException {
        String sql = argument(request, "sql");
        if (!sql.toUpperCase(Locale.ROOT).startsWith("SELECT ")) {
            throw new IllegalArgumentException("mysql-read only runs SELECT");
        }
        return "-- host=db-replica-2.prod.internal:3306 schema=shop user=triage_ro elapsed_ms=4 " + RAW_ONLY_MARKER + "\n"
                + "order_id|status|gateway|updated_at\n"
                + "88419|PAYMENT_PENDING|adyen-eu|2025-03-14T10:04:37Z\n"
                + "88412|PAYMENT_PENDING|adyen-eu|2025-03-14T10:02:11Z\n"
                + "88397|PAYMENT_PENDING|adyen-eu|2025-03-14T09:58:40Z";
    }

    private static String writeRows(ToolRequest request) {
        throw new IllegalStateException("mysql-write changes data; it must never run during triage");
    }

    private static Projection projectRows(ToolRequest request, String raw) {
        List<String> lines = List.of(raw.split("\n"));
        List<String> table = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            table.add(line.replace("|", " | "));
        }
        int rows = table.size() - 1;
        String scope = "orders table, read replica";
        return rows == 0
                ? Projection.noEvidence("0 rows.", scope)
                : Projection.evidenceFound(rows + " rows:\n" + String.join("\n", table), scope);
    }

    // pager-escalate: registered, but the harness does not grant it to a triage run.

    private static String pageOnCall(ToolRequest request) {
        return "paged team=payments-oncall " + RAW_ONLY_MARKER;
    }

    private static Projection projectPage(ToolRequest request, String raw) {
        return Projection.evidenceFound("The on-call engineer was paged.");
    }

    // log-export: a raw response over the 1 MiB raw limit.

    private static String exportLogs(ToolRequest request) throws IOException {
        String service = argument(request, "service");
        StringBuilder raw = new StringBuilder();
        for (int i = 0; raw.length() <= 1_100_000; i++) {
            raw.append(String.format(Locale.ROOT,
                    "2025-03-14T09:%02d:%02d.%03dZ INFO pod=%s-7f9c4d-x2k %s msg=request served in %d ms\n",
                    (i / 60) % 60, i % 60, i % 1000, service, RAW_ONLY_MARKER, 20 + i % 180));
        }
        return raw.toString();
    }

    private static Projection projectExport(ToolRequest request, String raw) {
        return Projection.evidenceFound(raw.lines().count() + " log lines exported.");
    }

    // trace-fetch: a fair raw response, but its projector copies every span: over the 8 KiB agent limit.

    private static String fetchTrace(ToolRequest request) throws IOException {
        String traceId = argument(request, "trace_id");
        StringBuilder raw = new StringBuilder();
        for (int span = 0; span < 150; span++) {
            raw.append(String.format(Locale.ROOT,
                    "trace=%s span=%04x parent=%04x service=checkout op=gateway.authorize attempt=%d duration_ms=%d %s\n",
                    traceId, span + 1, span, span % 4, 2900 + span % 200, RAW_ONLY_MARKER));
        }
        return raw.toString();
    }

    private static Projection projectEverySpan(ToolRequest request, String raw) {
        StringBuilder content = new StringBuilder();
        raw.lines().forEach(line -> {
            String[] fields = line.split(" ");
            content.append(fields[0]).append(' ').append(fields[1]).append(' ').append(fields[2]).append(' ')
                    .append(fields[4]).append(' ').append(fields[6]).append('\n');
        });
        return Projection.evidenceFound(content.toString());
    }

    // metrics-query: a raw response its projector cannot read; the projector throws.

    private static String queryMetrics(ToolRequest request) throws IOException {
        String metric = argument(request, "metric");
        return "# promql=histogram_quantile(0.99, " + metric + ") source=prometheus-prod-eu " + RAW_ONLY_MARKER + "\n"
                + metric + "{pod=\"checkout-7f9c4d-x2k\"} NaN@1710410520 " + RAW_ONLY_MARKER + "\n";
    }

    private static Projection projectSamples(ToolRequest request, String raw) {
        String sample = raw.lines().skip(1).findFirst().orElse("");
        throw new IllegalStateException("cannot read sample: " + sample);
    }

    /** One top-level field of the arguments object, as text; empty when absent. */
    private static String argument(ToolRequest request, String field) throws IOException {
        return arguments(request.arguments()).getOrDefault(field, "");
    }

    private static Map<String, String> arguments(String json) throws IOException {
        Map<String, String> fields = new HashMap<>();
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("arguments are not an object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if (value.isScalarValue()) {
                    fields.put(name, parser.getText());
                } else {
                    parser.skipChildren();
                }
            }
        }
        return fields;
    }
}
