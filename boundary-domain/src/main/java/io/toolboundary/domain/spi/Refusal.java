package io.toolboundary.domain.spi;

/** Why a store refused an operation. A refused operation changed nothing. */
public enum Refusal {
    /** The store does not hold the run as the caller knows it (never opened here, or its state lost). */
    RUN_STATE_LOST,
    /** The key holds, or the run began, this call with the same request: it never runs again. */
    DUPLICATE,
    /** The key holds, or the run began, a call with this id and another request. */
    ID_REUSED,
    /** The run's budget of calls in all is used up. */
    RUN_BUDGET_EXHAUSTED,
    /** The run's budget of calls of this tool is used up. */
    TOOL_BUDGET_EXHAUSTED,
    /** The record would be over its limit or the store's own cap. */
    TOO_LARGE,
    /** A text to store is not well-formed Unicode. */
    NOT_UNICODE,
    /** The record is gone (expired or lost); it is never re-created. */
    EXPIRED,
    /** The record belongs to another attempt, or is final otherwise than asked. */
    CONFLICT,
    /** The record is PROJECTING and its execution lease has not passed: the tool may still be running. */
    LEASE_NOT_EXPIRED
}
