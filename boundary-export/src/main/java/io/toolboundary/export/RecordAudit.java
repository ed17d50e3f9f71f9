package io.toolboundary.export;

import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.List;

/**
 * Reads exported records back from the audit database, in the shape {@code ToolBoundary.records()} gives
 * them: long after their TTL ended in the store; and the citation checks of the run's answers. For the harness
 * and its reviewers, never for the agent.
 */
public interface RecordAudit {

    /**
     * {@return the exported record of a call, or none}
     *
     * @param runId the run
     * @param toolCallId the call
     */
    Either<AuditFailure, Option<AuditedRecord>> find(RunId runId, ToolCallId toolCallId);

    /**
     * {@return the exported records of a run, in tool_call_id order}
     *
     * @param runId the run
     */
    Either<AuditFailure, List<AuditedRecord>> records(RunId runId);

    /**
     * {@return the exported records of a tool created in {@code [from, to)}, oldest first, at most {@code limit}}
     *
     * @param tool the tool
     * @param from the first instant included
     * @param to the first instant excluded
     * @param limit the most records to return, 1 or more
     */
    Either<AuditFailure, List<AuditedRecord>> records(ToolName tool, Instant from, Instant to, int limit);

    /**
     * {@return the citation checks of a run's answers, in the order they were checked}
     *
     * @param runId the run
     */
    Either<AuditFailure, List<AuditedCitationCheck>> citationChecks(RunId runId);
}
