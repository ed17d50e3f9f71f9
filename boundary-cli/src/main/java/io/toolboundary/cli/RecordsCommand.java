package io.toolboundary.cli;

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
            RecordTable.header(out);
            for (ToolCallId id : page.ids()) {
                RecordTable.stored(out, id, Ids.facts(opened, runId, id));
            }
            RecordTable.count(out, page.ids().size(), page.more());
            return Toolboundary.OK;
        }
    }
}
