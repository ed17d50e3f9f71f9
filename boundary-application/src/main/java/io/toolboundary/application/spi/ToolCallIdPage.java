package io.toolboundary.application.spi;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Option;
import java.util.List;

/**
 * One page of the tool_call_ids of a run's records, as {@link CanonicalInvocationStore#toolCallIds} lists them.
 *
 * @param ids the ids listed, immutable, each once, in ascending order of their text
 * @param more true when the run has further records after the last id of this page (ask again with it as
 *     {@code after})
 */
public record ToolCallIdPage(List<ToolCallId> ids, boolean more) {

    /**
     * Checks and copies the ids.
     *
     * @param ids the ids listed
     * @param more true when the run has further records after the last id
     */
    public ToolCallIdPage {
        ids = List.copyOf(requireNonNull(ids, "ids is null"));
    }

    /**
     * Which page to list, checked once here.
     *
     * @param runId the run
     * @param after the last id of the previous page, or none for the first page
     * @param limit the most ids to list, at least 1
     */
    public record Request(RunId runId, Option<ToolCallId> after, int limit) {

        /**
         * Builds the request of one page.
         *
         * @param runId the run
         * @param after the last id of the previous page, or none for the first page
         * @param limit the most ids to list
         * @throws IllegalArgumentException when {@code limit} is below 1
         */
        public Request {
            requireNonNull(runId, "runId is null");
            requireNonNull(after, "after is null");
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be at least 1, was " + limit);
            }
        }
    }
}
