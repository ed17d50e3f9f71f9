package io.toolboundary.adapter.redis;

import io.vavr.control.Option;

/**
 * Every outcome the store's scripts answer: the first element of a reply of {@code open.lua},
 * {@code begin.lua}, {@code complete.lua}, {@code end.lua} or {@code abandon.lua}, by its name. {@link ScriptReplies} maps
 * each one, script by script; a reply whose first element is none of these is
 * {@link io.toolboundary.domain.ErrorCode#STORE_DATA_INVALID}. A test reads the scripts and checks that
 * they return exactly these names.
 */
enum ScriptReply {
    /** open.lua: the run's state was created with the offered token. */
    OPENED,
    /** open.lua: the run was opened before; with the token it was opened with. */
    RUN_OPEN,
    /** open.lua: the run's key holds a hash without a token; nothing written. */
    RUN_INVALID,
    /** begin.lua: the run's state is missing or holds another opening's token; nothing written. */
    RUN_LOST,
    /** begin.lua: the record was created, both counters incremented. */
    CREATED,
    /** begin.lua: the record exists, PROJECTING, with this token (a retry); with all its fields. */
    ALREADY_CREATED,
    /** begin.lua: the record exists with the same request fingerprint. */
    DUPLICATE,
    /** begin.lua: the record exists with another request fingerprint. */
    REUSED,
    /** begin.lua: the run's budget is used up. */
    RUN_BUDGET,
    /** begin.lua: the tool's budget is used up. */
    TOOL_BUDGET,
    /** begin.lua: a budget counter holds something that is not a number. */
    COUNTER_INVALID,
    /**
     * begin.lua: this attempt was ended by token before its begin arrived (a late copy of a begin that
     * got no answer); nothing is written.
     */
    ATTEMPT_ENDED,
    /** begin.lua: the record key holds a hash that is not a record of this store; nothing is written. */
    RECORD_INVALID,
    /** complete.lua: the record is now final. */
    APPLIED,
    /** complete.lua: the record already has this status and token (a retry); with all its fields. */
    ALREADY_APPLIED,
    /** complete.lua: the record is final with another status. */
    CONFLICT,
    /** complete.lua: the final record would be over the store's record cap; nothing written. */
    TOO_LARGE,
    /**
     * complete.lua: the attempt's pending raw key is gone (evicted), so the raw response the completion
     * sent was not kept; nothing written.
     */
    RAW_LOST,
    /** complete.lua, end.lua, abandon.lua: there is no record (expired, or never created). */
    NOT_FOUND,
    /** complete.lua, end.lua: the record belongs to another attempt. */
    TOKEN_MISMATCH,
    /** end.lua: the record was PROJECTING and is now ERROR; with all its fields. */
    ENDED,
    /**
     * end.lua: the record is final already, with this token; with all its fields. abandon.lua: the record is
     * READY, or ERROR with another code than {@code EXECUTION_ABANDONED}; no fields.
     */
    FINAL,
    /** abandon.lua: the record is now ERROR/EXECUTION_ABANDONED; with all its fields. */
    ABANDONED,
    /** abandon.lua: the record already was ERROR/EXECUTION_ABANDONED; with all its fields. */
    ALREADY_ABANDONED,
    /** abandon.lua: the record is PROJECTING and its lease has not passed. */
    LEASE_ACTIVE,
    /** abandon.lua: the record's {@code leaseUntil} is missing or not one this store writes. */
    LEASE_INVALID;

    /** The reply named {@code outcome}, or none when no script answers such a reply. */
    static Option<ScriptReply> named(String outcome) {
        for (ScriptReply reply : values()) {
            if (reply.name().equals(outcome)) {
                return Option.some(reply);
            }
        }
        return Option.none();
    }
}
