package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;
import io.toolboundary.application.spi.OutboxBacklog;
import io.toolboundary.application.spi.RecordOutbox;
import io.toolboundary.domain.BoundaryError;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code doctor}: the eviction policy, keys without a TTL under the prefix, PROJECTING records past
 * their lease, memory per record, and the outbox's backlog when export is on (its two keys have no TTL by
 * design and are not findings). Exit 3 when it finds anything to fix.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Checks the eviction policy, keys without TTL under the prefix, PROJECTING records past "
                + "their lease and memory per record, and reports the export outbox's backlog. Exit 3 on findings.")
final class DoctorCommand implements Callable<Integer> {

    @Mixin
    private Connection connection;

    @picocli.CommandLine.Option(names = "--limit", defaultValue = "10000",
            description = "the most keys to look at (default: ${DEFAULT-VALUE})")
    private int limit;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new IllegalArgumentException("--limit must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        List<String> findings = new ArrayList<>();
        // With export on, the store is opened with its outbox, to read the backlog: that changes nothing.
        try (Connection.Opened opened = connection.openFollowingExport()) {
            RedisOperatorView view = opened.view();
            Either<BoundaryError, List<String>> policies = view.evictionPolicies();
            if (policies.isLeft()) {
                out.println("eviction policy: cannot be read (is CONFIG GET allowed?)");
                findings.add("eviction policy unknown");
            } else {
                out.println("eviction policy: " + String.join(", ", policies.get()));
                policies.get().stream().filter(policy -> !"noeviction".equals(policy)).findFirst().ifPresent(policy ->
                        findings.add("maxmemory-policy is " + policy + ", not noeviction: Redis may delete live records"));
            }
            List<String> keys = new ArrayList<>();
            String cursor = "0";
            do {
                RedisOperatorView.KeyPage page = view.scan(cursor, Math.min(1000, limit - keys.size()))
                        .getOrElseThrow(failed -> new Connection.UnreachableException("Redis did not answer the scan"));
                page.keys().stream().filter(key -> !keys.contains(key)).forEach(keys::add);
                cursor = page.nextCursor();
            } while (!"0".equals(cursor) && keys.size() < limit);
            int records = 0;
            long memory = 0;
            long largest = 0;
            for (String key : keys) {
                RedisOperatorView.KeyFacts facts = view.inspect(key)
                        .getOrElseThrow(failed -> new Connection.UnreachableException("Redis did not answer"));
                if (facts.ttlMillis() == -1 && !Outboxes.isOutboxKey(view, key)) {
                    findings.add("no TTL: " + key);
                }
                if (key.contains("}:call:")) {
                    records++;
                    memory += Math.max(0, facts.memoryBytes());
                    largest = Math.max(largest, facts.memoryBytes());
                    if (Facts.pastLease(facts)) {
                        findings.add("PROJECTING past its lease: " + key + " (toolboundary abandon)");
                    }
                }
            }
            out.printf("keys under %s: %d looked at%s%n", view.keyPrefix() + ":", keys.size(),
                    "0".equals(cursor) ? "" : " (stopped at --limit)");
            out.printf("records: %d, memory per record: %s on average, %s at most%n", records,
                    records == 0 ? "-" : Facts.bytes(memory / records), records == 0 ? "-" : Facts.bytes(largest));
            outbox(opened, out);
            findings.forEach(finding -> out.println("FINDING " + finding));
            out.println(findings.isEmpty() ? "ok: nothing to fix" : findings.size() + " finding(s)");
            return findings.isEmpty() ? Toolboundary.OK : Toolboundary.FINDINGS;
        }
    }

    /**
     * The outbox's backlog, when the store has one: entries not exported yet, the oldest one's age by the
     * server's clock (the lag), records lost before export; and how long an exporter may be down. The record
     * TTL is the application's setting, unknown here: the hint names it beside the lag.
     */
    private void outbox(Connection.Opened opened, PrintWriter out) {
        Option<RecordOutbox> outbox = opened.store().outbox();
        if (outbox.isEmpty()) {
            out.println("outbox: none (export is off" + (connection.cluster() ? "; Redis Cluster refuses it)" : ")"));
            return;
        }
        OutboxBacklog backlog = outbox.get().backlog(connection.timeout()).getOrElseThrow(failed ->
                new Connection.UnreachableException("Redis did not answer the outbox backlog (" + failed.code() + ")"));
        RedisOperatorView view = opened.view();
        Instant serverNow = Facts.serverNow(Outboxes.facts(view, Outboxes.stream(view)));
        String lag = Facts.human(backlog.lag(serverNow));
        out.printf("outbox: %d entr%s not exported, lag %s (oldest entry's age), %d record(s) lost before export%n",
                backlog.entries(), backlog.entries() == 1 ? "y" : "ies", lag, backlog.lost());
        out.printf("outbox: an exporter may be down for the record TTL (the application's toolboundary.record-ttl,"
                + " 24h by default) less the lag (%s) before records expire unexported and are lost"
                + " (an outbox of whole records loses none)%n", lag);
    }
}
