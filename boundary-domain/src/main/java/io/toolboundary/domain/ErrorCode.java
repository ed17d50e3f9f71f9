package io.toolboundary.domain;

/**
 * The closed catalogue of errors the boundary can report (the README's error table says when each
 * occurs). Each code has one fixed message, safe for an agent: never a payload, request echo, exception
 * text, credential or store key. The names are a stable contract, never reused for another meaning.
 */
public enum ErrorCode {
    /** The envelope carried no framework {@code tool_call_id}, or a blank one. */
    TOOL_CALL_ID_MISSING("The tool call has no tool_call_id."),
    /** The {@code tool_call_id} is longer than 128 characters or has a character outside {@code [A-Za-z0-9_.:-]}. */
    TOOL_CALL_ID_UNSAFE("The tool_call_id is not a safe identifier."),
    /** The run id is missing or not a safe identifier. */
    RUN_ID_INVALID("The run id is missing or not a safe identifier."),
    /** The envelope claims a run other than the one the harness is executing. */
    RUN_MISMATCH("The tool call belongs to a different run."),
    /** The run is no longer active. */
    RUN_INACTIVE("The run is not active."),
    /** The run's deadline has passed. */
    RUN_DEADLINE_EXCEEDED("The run's deadline has passed."),
    /** The run was never opened in the store ({@code ToolBoundary.openRun}); nothing ran. */
    RUN_NOT_OPENED("The run was not opened; the tool was not run."),
    /** The store lost the run's state, so it cannot tell which calls ran; nothing ran, nor will any later call of it. */
    RUN_STATE_LOST("The run's stored state was lost; the tool was not run. Start a new run."),
    /** The tool name is missing or not a safe identifier. */
    TOOL_NAME_INVALID("The tool name is missing or not a safe identifier."),
    /** No tool of that name is registered with the boundary. */
    TOOL_NOT_REGISTERED("No such tool is available."),
    /** The harness's access policy does not allow this run to call this tool. */
    TOOL_NOT_AUTHORIZED("The run is not authorized to call this tool."),
    /** The tool is registered as writable; the boundary only runs read-only tools. */
    TOOL_NOT_READ_ONLY("Only read-only tools may be called."),
    /** The arguments are longer, in UTF-8 bytes, than the request limit. */
    ARGUMENTS_TOO_LARGE("The tool arguments exceed their size limit."),
    /** The arguments are not exactly one well-formed JSON object within the parser's bounds. */
    ARGUMENTS_INVALID("The tool arguments must be exactly one JSON object."),
    /** A text holds a lone surrogate and cannot be stored exactly in UTF-8. */
    TEXT_NOT_UNICODE("The text is not well-formed Unicode."),
    /** The same run and tool_call_id were already used with the same arguments; nothing ran again. */
    DUPLICATE_TOOL_CALL("This tool_call_id was already used in this run; the tool was not run again."),
    /** The same run and tool_call_id were already used with different arguments; nothing ran. */
    TOOL_CALL_ID_REUSED("This tool_call_id was already used in this run with other arguments; the tool was not run."),
    /** The run has used all the tool calls its budget allows. */
    RUN_BUDGET_EXHAUSTED("The run's tool call budget is exhausted."),
    /** The run has used all the calls of this tool its budget allows. */
    TOOL_BUDGET_EXHAUSTED("The tool's call budget for this run is exhausted."),
    /** The tool failed while executing. */
    EXECUTION_FAILED("The tool failed."),
    /** The record stayed PROJECTING past its execution lease and the harness ended it; a late completion is refused. */
    EXECUTION_ABANDONED("The tool call was abandoned before it finished."),
    /** A raw response, record or projected result is over its byte limit; nothing was truncated. */
    RESULT_TOO_LARGE("The tool result exceeds a size limit; nothing was truncated."),
    /** The projector failed. */
    PROJECTION_FAILED("The tool result could not be projected."),
    /** The projector returned no result, an evidence status other than EVIDENCE_FOUND or NO_EVIDENCE, or NO_EVIDENCE without a scope. */
    PROJECTION_INVALID("The projected result is not valid."),
    /** The store could not be reached; nothing was changed. */
    STORE_UNAVAILABLE("The invocation store is unavailable."),
    /** The store did not confirm the operation in time; the tool was not run on an unconfirmed record. */
    STORE_OUTCOME_UNKNOWN("The invocation store did not confirm the operation."),
    /** The store refused the write for lack of memory. */
    STORE_FULL("The invocation store is full."),
    /** The store holds data that is not a valid canonical record. */
    STORE_DATA_INVALID("The invocation store returned data that is not a valid record."),
    /** The record is gone (expired or lost); it is never re-created. */
    RECORD_EXPIRED("The invocation record no longer exists."),
    /** The record is not in a state that allows this change, or belongs to another attempt. */
    RECORD_CONFLICT("The invocation record does not allow this change."),
    /** The record is PROJECTING but its execution lease has not passed: the tool may still be running. */
    LEASE_NOT_EXPIRED("The tool call may still be running; it was not abandoned."),
    /** The boundary failed in an unexpected way and closed; nothing was returned. */
    INTERNAL_ERROR("The tool call failed inside the boundary.");

    private final String safeMessage;

    ErrorCode(String safeMessage) {
        this.safeMessage = safeMessage;
    }

    /** {@return the fixed message for this code; it never varies and never carries data} */
    public String safeMessage() {
        return safeMessage;
    }
}
