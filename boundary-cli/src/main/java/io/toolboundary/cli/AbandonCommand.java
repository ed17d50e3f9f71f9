package io.toolboundary.cli;

import io.toolboundary.adapter.redis.RedisOperatorView;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.SweepSummary;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code abandon RUN [ID]}: ends PROJECTING records past their lease by the store's own compare-and-set.
 * A dry run unless {@code --apply}.
 */
@Command(name = "abandon", mixinStandardHelpOptions = true,
        description = "Ends the run's PROJECTING records past their lease (by the store's compare-and-set, "
                + "the lease judged by the server's clock). A dry run unless --apply.")
final class AbandonCommand implements Callable<Integer> {

    @Mixin
    private Connection connection;

    @Parameters(index = "0", paramLabel = "RUN", description = "the run id")
    private String run;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ID", description = "one tool_call_id (default: every record of the run)")
    private String id;

    @picocli.CommandLine.Option(names = "--apply", description = "end the records (without it, only say which would be ended)")
    private boolean apply;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        RunId runId = Ids.run(run);
        Option<ToolCallId> only = Option.of(id).map(Ids::call);
        PrintWriter out = spec.commandLine().getOut();
        // Records this command ends reach the exporters like the application's own, when export is on.
        try (Connection.Opened opened = apply ? connection.openFollowingExport() : connection.open()) {
            if (!apply) {
                return dryRun(opened, runId, only, out);
            }
            ToolBoundary boundary = ToolBoundary.builder().store(opened.store()).accessPolicy(AccessPolicy.allowAll())
                    .build();
            if (only.isDefined()) {
                Either<BoundaryError, CanonicalRecord.Failed> ended = boundary.abandonExpired(runId, only.get());
                if (ended.isRight()) {
                    out.printf("abandoned %s%n", only.get().value());
                    return Toolboundary.OK;
                }
                ErrorCode code = ended.getLeft().code();
                if (code == ErrorCode.STORE_UNAVAILABLE || code == ErrorCode.STORE_OUTCOME_UNKNOWN) {
                    throw new Connection.UnreachableException("Redis did not answer (" + code + ")");
                }
                out.printf("not abandoned %s: %s%n", only.get().value(), code);
                return Toolboundary.OK;
            }
            SweepSummary summary = boundary.abandonExpired(runId).getOrElseThrow(failed ->
                    new Connection.UnreachableException("Redis did not list the run's records (" + failed.code() + ")"));
            summary.abandoned().forEach(done -> out.printf("abandoned %s%n", done.value()));
            summary.stillLeased().forEach(leased -> out.printf("still leased %s%n", leased.value()));
            out.printf("looked at %d, abandoned %d, still leased %d, errors %d%n", summary.lookedAt(),
                    summary.abandoned().size(), summary.stillLeased().size(), summary.errors());
            return Toolboundary.OK;
        }
    }

    private int dryRun(Connection.Opened opened, RunId runId, Option<ToolCallId> only, PrintWriter out) {
        List<ToolCallId> ids = only.isDefined() ? List.of(only.get())
                : Ids.page(opened, runId, Option.none(), 10_000).ids();
        int would = 0;
        for (ToolCallId callId : ids) {
            RedisOperatorView.KeyFacts facts = Ids.facts(opened, runId, callId);
            if (Facts.pastLease(facts)) {
                would++;
                out.printf("would abandon %s (lease passed %s ago)%n", callId.value(),
                        Facts.human(Facts.leaseLeft(facts).orElseThrow().negated()));
            } else if ("PROJECTING".equals(facts.fields().get("status"))) {
                out.printf("still leased %s (%s left)%n", callId.value(),
                        Facts.leaseLeft(facts).map(Facts::human).orElse("?"));
            }
        }
        out.printf("dry run: %d of %d record(s) would be abandoned; run again with --apply%n", would, ids.size());
        return Toolboundary.OK;
    }
}
