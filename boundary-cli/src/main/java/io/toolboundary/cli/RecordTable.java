package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ToolCallId;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The table of records that {@code records RUN} prints from the store and {@code audit RUN} from the audit
 * database: one line per record, in the same columns, an audit line adding the raw response policy.
 */
final class RecordTable {

    private static final String FORMAT = "%-24s %-18s %-10s %-14s %-22s %7s %7s %7s %8s %8s %8s %8s";
    private static final List<String> HEADER = List.of("ID", "TOOL", "STATUS", "EVIDENCE", "ERROR", "AGE", "TTL",
            "LEASE", "REQUEST", "RAW", "CONTENT", "MEMORY");
    private static final String EXTRA = " %-10s";

    private RecordTable() {
    }

    /** Prints the header, with the names of {@code extra} columns after the common ones. */
    static void header(PrintWriter out, String... extra) {
        List<String> names = new ArrayList<>(HEADER);
        names.addAll(List.of(extra));
        line(out, names);
    }

    /** Prints the line of a record the store holds, from its key's facts. */
    static void stored(PrintWriter out, ToolCallId id, RedisOperatorView.KeyFacts facts) {
        Map<String, String> f = facts.fields();
        line(out, List.of(id.value(), f.getOrDefault("tool", "-"), f.getOrDefault("status", "-"),
                f.getOrDefault("evidence", "-"), f.getOrDefault("errorCode", "-"),
                Facts.age(facts).map(Facts::human).orElse("-"), Facts.ttl(facts.ttlMillis()),
                Facts.leaseLeft(facts).map(Facts::human).orElse("-"),
                Facts.bytes(facts.fieldBytes().getOrDefault("arguments", -1L)),
                Facts.bytes(facts.fieldBytes().getOrDefault("rawResponse", -1L)),
                Facts.bytes(facts.fieldBytes().getOrDefault("content", -1L)),
                Facts.bytes(facts.memoryBytes())));
    }

    /**
     * Prints the line of an exported record, with the {@code extra} cells after the common ones: it has no
     * TTL, lease or memory in the database; its age is by this machine's clock.
     */
    static void exported(PrintWriter out, CanonicalRecord.Final record, Instant now, String... extra) {
        List<String> cells = new ArrayList<>(List.of(record.key().toolCallId().value(), record.tool().value(),
                record.status().name(), record.evidence().map(Enum::name).getOrElse("-"),
                record.errorCode().map(Enum::name).getOrElse("-"),
                Facts.human(Duration.between(record.createdAt(), now)), "-", "-",
                Facts.bytes(utf8(record.arguments())), Facts.bytes(record.rawResponse().map(RecordTable::utf8).getOrElse(0L)),
                Facts.bytes(record.agentResult().map(result -> utf8(result.content())).getOrElse(0L)), "-"));
        cells.addAll(List.of(extra));
        line(out, cells);
    }

    /** Prints the closing line: how many records, and whether more exist beyond the limit. */
    static void count(PrintWriter out, int records, boolean more) {
        out.printf("%d record(s)%s%n", records, more ? ", more exist (raise --limit)" : "");
    }

    private static void line(PrintWriter out, List<String> cells) {
        String format = FORMAT + EXTRA.repeat(cells.size() - HEADER.size());
        out.println(String.format(format, cells.toArray()).stripTrailing());
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
