package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Option;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code records RUN}: a table of the run's records. */
@Command(name = "records", mixinStandardHelpOptions = true, description = "Shows a table of a run's records.")
final class RecordsCommand implements Callable<Integer> {

    @Mixin
    private Connection connection;

    @Parameters(index = "0", paramLabel = "RUN", description = "the run id")
    private String run;

    @picocli.CommandLine.Option(names = "--limit", defaultValue = "500", description = "the most records (default: ${DEFAULT-VALUE})")
    private int limit;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        RunId runId = Ids.run(run);
        PrintWriter out = spec.commandLine().getOut();
        try (Connection.Opened opened = connection.open()) {
            ToolCallIdPage page = Ids.page(opened, runId, Option.none(), limit);
            out.printf("%-24s %-18s %-10s %-14s %-22s %7s %7s %7s %8s %8s %8s %8s%n", "ID", "TOOL", "STATUS",
                    "EVIDENCE", "ERROR", "AGE", "TTL", "LEASE", "REQUEST", "RAW", "CONTENT", "MEMORY");
            for (ToolCallId id : page.ids()) {
                RedisOperatorView.KeyFacts facts = Ids.facts(opened, runId, id);
                java.util.Map<String, String> f = facts.fields();
                out.printf("%-24s %-18s %-10s %-14s %-22s %7s %7s %7s %8s %8s %8s %8s%n", id.value(),
                        f.getOrDefault("tool", "-"), f.getOrDefault("status", "-"), f.getOrDefault("evidence", "-"),
                        f.getOrDefault("errorCode", "-"), Facts.age(facts).map(Facts::human).orElse("-"),
                        Facts.ttl(facts.ttlMillis()), Facts.leaseLeft(facts).map(Facts::human).orElse("-"),
                        Facts.bytes(facts.fieldBytes().getOrDefault("arguments", -1L)),
                        Facts.bytes(facts.fieldBytes().getOrDefault("rawResponse", -1L)),
                        Facts.bytes(facts.fieldBytes().getOrDefault("content", -1L)),
                        Facts.bytes(facts.memoryBytes()));
            }
            out.printf("%d record(s)%s%n", page.ids().size(), page.more() ? ", more exist (raise --limit)" : "");
            return Toolboundary.OK;
        }
    }
}
