package io.toolboundary.cli;

import io.toolboundary.domain.RunId;
import io.toolboundary.export.AuditFailure;
import io.toolboundary.export.AuditedRecord;
import io.vavr.control.Either;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code audit RUN}: the run's records as the audit database holds them, read back through
 * {@code RecordAudit}: the table of {@code records RUN} with each record's raw response policy, or one JSON
 * object per record. Long after their TTL ended in the store; for the harness and its reviewers.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "Lists a run's records as they were exported to the audit database (the table of "
                + "'records', with each record's raw response policy), or one JSON object per record.")
final class AuditCommand implements Callable<Integer> {

    @Mixin
    private Jdbc jdbc;

    @Parameters(index = "0", paramLabel = "RUN", description = "the run id")
    private String run;

    @Option(names = "--json", description = "one JSON object per record and line, raw response included, for machines")
    private boolean json;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        RunId runId = Ids.run(run);
        PrintWriter out = spec.commandLine().getOut();
        Either<AuditFailure, List<AuditedRecord>> found = jdbc.audit().records(runId);
        if (found.isLeft()) {
            throw new Connection.UnreachableException(
                    "reading the audit database failed (" + Jdbc.mask(found.getLeft().toString()) + ")");
        }
        List<AuditedRecord> records = found.get();
        if (json) {
            for (AuditedRecord audited : records) {
                out.println(RecordFields.json(RecordFields.of(audited.record(), Map.of("rawPolicy", policy(audited)))));
            }
            return Toolboundary.OK;
        }
        Instant now = Instant.now();
        RecordTable.header(out, "RAW-POLICY");
        for (AuditedRecord audited : records) {
            RecordTable.exported(out, audited.record(), now, policy(audited));
        }
        RecordTable.count(out, records.size(), false);
        return Toolboundary.OK;
    }

    private static String policy(AuditedRecord audited) {
        return audited.rawPolicy().name().toLowerCase(java.util.Locale.ROOT);
    }
}
