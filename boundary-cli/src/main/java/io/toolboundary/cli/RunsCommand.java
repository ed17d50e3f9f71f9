package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;
import io.vavr.control.Either;
import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runs}: the runs that have keys under the prefix, by SCAN, a page at a time. */
@Command(name = "runs", mixinStandardHelpOptions = true,
        description = "Lists the runs with keys under the prefix (SCAN, never KEYS), a page at a time.")
final class RunsCommand implements Callable<Integer> {

    @Mixin
    private Connection connection;

    @Option(names = "--limit", defaultValue = "1000", description = "the most keys to scan in this page (default: ${DEFAULT-VALUE})")
    private int limit;

    @Option(names = "--cursor", defaultValue = "0", description = "the cursor a previous page printed (default: start)")
    private String cursor;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new IllegalArgumentException("--limit must be at least 1");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (Connection.Opened opened = connection.open()) {
            Either<?, RedisOperatorView.KeyPage> page = opened.view().scan(cursor, limit);
            if (page.isLeft()) {
                throw new Connection.UnreachableException("Redis did not answer the scan");
            }
            Map<String, int[]> runs = new TreeMap<>();
            for (String key : page.get().keys()) {
                Facts.runOf(opened.view().keyPrefix(), key).ifPresent(run -> {
                    int[] counts = runs.computeIfAbsent(run, any -> new int[2]);
                    // An attempt's pending key is part of its record: it is renamed over the record at completion.
                    if (!key.contains("}:pending:")) {
                        counts[key.contains("}:call:") ? 0 : 1]++;
                    }
                });
            }
            out.printf("%-40s %8s %6s%n", "RUN", "RECORDS", "OTHER");
            runs.forEach((run, counts) -> out.printf("%-40s %8d %6d%n", run, counts[0], counts[1]));
            out.printf("%d run(s) in %d key(s) scanned%n", runs.size(), page.get().keys().size());
            if (!"0".equals(page.get().nextCursor())) {
                out.printf("more: --cursor %s%n", page.get().nextCursor());
            }
            return Toolboundary.OK;
        }
    }
}
