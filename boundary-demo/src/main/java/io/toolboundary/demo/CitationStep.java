package io.toolboundary.demo;

import io.toolboundary.application.ToolBoundary;
import io.toolboundary.citations.Citation;
import io.toolboundary.citations.CitationCheck;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;
import java.io.PrintStream;
import java.util.List;

/**
 * After the run, two scripted final answers held against the run's records by a {@link CitationCheck}: one
 * that cites what the calls showed, and one that stretches "nothing found" into a finding and cites a failed
 * call. Each answer costs one store read.
 */
final class CitationStep {

    /** Cites evidence as evidence and the negative observation as not found: grounded. */
    static final String GROUNDED = "Checkout payments fail on payment-gateway timeouts since 10:02Z"
            + " [evidence: call_01], orders stay PAYMENT_PENDING [evidence: call_04]; the inventory service logged"
            + " no ERROR lines in 10:00Z-10:15Z [not found: call_02]. The runbook says: check the provider's status"
            + " page [evidence: call_03].";
    /** Cites the negative observation as evidence and a failed call: refused. */
    static final String STRETCHED = "Inventory is healthy [evidence: call_02] and gateway latency is normal"
            + " [evidence: call_13], so nothing on our side needs fixing.";

    private CitationStep() {
    }

    /** {@return true when the grounded answer passed and the stretched one was refused, as scripted} */
    static boolean print(ToolBoundary boundary, RunId runId, PrintStream out, PrintStream err) {
        CitationCheck check = CitationCheck.of(boundary);
        out.println();
        Table.wrap("The agent's final answer, its citations held against the run's records (CitationCheck, one"
                + " store read per answer; docs/citations.md):", Table.WIDTH).forEach(out::println);
        boolean asScripted = true;
        for (String answer : List.of(GROUNDED, STRETCHED)) {
            Either<BoundaryError, CitationReport> checked = check.check(runId, answer, List.of());
            if (checked.isLeft()) {
                err.println("boundary-demo: the citation check could not read the store: " + checked.getLeft().code());
                return false;
            }
            CitationReport report = checked.get();
            out.println();
            List<String> lines = Table.wrap(answer, Table.WIDTH - 10);
            for (int i = 0; i < lines.size(); i++) {
                out.println((i == 0 ? "  answer  " : "          ") + lines.get(i));
            }
            report.citations().forEach(each -> out.println(String.format("          %-9s %-10s %s",
                    each.citation().kind() == Citation.Kind.EVIDENCE ? "evidence" : "not found",
                    each.citation().toolCallId(), each.verdict())));
            if (report.grounded()) {
                out.println("          grounded: the answer goes out as written");
            } else {
                out.println("          not grounded: the model is asked to revise with:");
                Table.wrap(check.feedback(report), Table.WIDTH - 12).forEach(line -> out.println("            " + line));
            }
            asScripted &= report.grounded() == (answer == GROUNDED);
        }
        return asScripted;
    }
}
