package io.toolboundary.application;

/**
 * What the boundary answers a call whose (run id, tool_call_id) already has a record made for the same
 * tool with the same arguments (the same fingerprint). A call with another tool or other arguments is
 * always {@code TOOL_CALL_ID_REUSED}, and the tool never runs again under either policy.
 */
public enum DuplicateCallPolicy {

    /**
     * The specification's rule, and the default: {@code DUPLICATE_TOOL_CALL}, whatever the record's state.
     */
    REFUSE,

    /**
     * A record that is READY answers the call with its bounded agent result again, as an idempotency key
     * answers with the stored response; the tool does not run and the record is unchanged, and the
     * listener is told ({@link BoundaryListener#onReplayed}). A record still PROJECTING, an ERROR record,
     * or one the store no longer holds answers {@code DUPLICATE_TOOL_CALL} as under {@link #REFUSE}. For
     * an agent resumed from a checkpoint, whose framework replays the calls of an interrupted step with
     * the same ids: the model then gets the answer it had, not an error. Costs one store read per
     * duplicate.
     */
    REPLAY_READY
}
