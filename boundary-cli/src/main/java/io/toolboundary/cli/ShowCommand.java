package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code show RUN ID}: the whole record, raw response included: for the harness, never for an agent. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Shows one whole record, raw response included (for the harness, never for an agent).")
final class ShowCommand implements Callable<Integer> {

    @Mixin
    private Connection connection;

    @Parameters(index = "0", paramLabel = "RUN", description = "the run id")
    private String run;

    @Parameters(index = "1", paramLabel = "ID", description = "the tool_call_id")
    private String id;

    @picocli.CommandLine.Option(names = "--json", description = "one JSON object, for machines")
    private boolean json;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        RunId runId = Ids.run(run);
        ToolCallId callId = Ids.call(id);
        PrintWriter out = spec.commandLine().getOut();
        try (Connection.Opened opened = connection.open()) {
            Either<StoreFailure, Option<CanonicalRecord>> found =
                    opened.store().find(InvocationKey.of(runId, callId), connection.timeout());
            if (found.isLeft()) {
                throw new Connection.UnreachableException("Redis did not answer (" + found.getLeft().code() + ")");
            }
            if (found.get().isEmpty()) {
                spec.commandLine().getErr().println("toolboundary: no record " + callId.value() + " in run " + runId.value());
                return Toolboundary.USAGE;
            }
            CanonicalRecord record = found.get().get();
            RedisOperatorView.KeyFacts facts = Ids.facts(opened, runId, callId);
            Map<String, Object> where = new LinkedHashMap<>();
            where.put("ttlMillis", facts.ttlMillis());
            Facts.leaseLeft(facts).ifPresent(left -> where.put("leaseLeftMillis", left.toMillis()));
            where.put("memoryBytes", facts.memoryBytes());
            Map<String, Object> fields = RecordFields.of(record, where);
            if (json) {
                out.println(RecordFields.json(fields));
            } else {
                RecordFields.print(out, fields);
            }
            return Toolboundary.OK;
        }
    }
}
