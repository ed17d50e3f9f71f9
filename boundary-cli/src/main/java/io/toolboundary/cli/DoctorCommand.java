package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;
import io.toolboundary.domain.BoundaryError;
import io.vavr.control.Either;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code doctor}: the eviction policy, keys without a TTL under the prefix, PROJECTING records past
 * their lease, and memory per record. Exit 3 when it finds anything to fix.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Checks the eviction policy, keys without TTL under the prefix, PROJECTING records past "
                + "their lease and memory per record. Exit 3 on findings.")
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
        try (Connection.Opened opened = connection.open()) {
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
                if (facts.ttlMillis() == -1) {
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
            findings.forEach(finding -> out.println("FINDING " + finding));
            out.println(findings.isEmpty() ? "ok: nothing to fix" : findings.size() + " finding(s)");
            return findings.isEmpty() ? Toolboundary.OK : Toolboundary.FINDINGS;
        }
    }
}
