package io.toolboundary.tck.boundary;

import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.vavr.control.Option;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * What the call's record may be after the boundary answered an error code: the "record" column of the README's error
 * table, which a test of this module reads and compares with this table. The error-path suite ({@link
 * AgentNeverSeesRawDataContract}) checks each case's record against it, on every store.
 */
final class ErrorRecords {

    /** One state the call's record may be in afterwards. */
    enum After {
        /** No record under the call's key. */
        NONE,
        /** The record is PROJECTING. */
        PROJECTING,
        /** The record is READY. */
        READY,
        /** The record is ERROR with the code the agent was told. */
        ERROR,
        /** A record there before the call is as it was: in particular not ended with the code told. */
        UNCHANGED,
        /** Whatever the call got as far as. */
        ANY
    }

    private static final Map<ErrorCode, Set<After>> ALLOWED = new EnumMap<>(ErrorCode.class);

    static {
        for (ErrorCode code : EnumSet.range(ErrorCode.TOOL_CALL_ID_MISSING, ErrorCode.ARGUMENTS_INVALID)) {
            ALLOWED.put(code, EnumSet.of(After.NONE));
        }
        ALLOWED.put(ErrorCode.TEXT_NOT_UNICODE, EnumSet.of(After.NONE, After.ERROR));
        ALLOWED.put(ErrorCode.RUN_STATE_LOST, EnumSet.of(After.NONE));
        ALLOWED.put(ErrorCode.DUPLICATE_TOOL_CALL, EnumSet.of(After.UNCHANGED));
        ALLOWED.put(ErrorCode.TOOL_CALL_ID_REUSED, EnumSet.of(After.UNCHANGED));
        ALLOWED.put(ErrorCode.RUN_BUDGET_EXHAUSTED, EnumSet.of(After.NONE));
        ALLOWED.put(ErrorCode.TOOL_BUDGET_EXHAUSTED, EnumSet.of(After.NONE));
        ALLOWED.put(ErrorCode.EXECUTION_FAILED, EnumSet.of(After.ERROR));
        ALLOWED.put(ErrorCode.EXECUTION_ABANDONED, EnumSet.of(After.ERROR));
        ALLOWED.put(ErrorCode.RESULT_TOO_LARGE, EnumSet.of(After.NONE, After.ERROR));
        ALLOWED.put(ErrorCode.PROJECTION_FAILED, EnumSet.of(After.ERROR));
        ALLOWED.put(ErrorCode.PROJECTION_INVALID, EnumSet.of(After.ERROR));
        ALLOWED.put(ErrorCode.STORE_UNAVAILABLE, EnumSet.of(After.NONE));
        ALLOWED.put(ErrorCode.STORE_OUTCOME_UNKNOWN,
                EnumSet.of(After.NONE, After.ERROR, After.READY, After.PROJECTING));
        ALLOWED.put(ErrorCode.STORE_FULL, EnumSet.of(After.NONE, After.ERROR));
        ALLOWED.put(ErrorCode.STORE_DATA_INVALID, EnumSet.of(After.UNCHANGED));
        ALLOWED.put(ErrorCode.RECORD_EXPIRED, EnumSet.of(After.NONE));
        ALLOWED.put(ErrorCode.RECORD_CONFLICT, EnumSet.of(After.UNCHANGED));
        ALLOWED.put(ErrorCode.LEASE_NOT_EXPIRED, EnumSet.of(After.UNCHANGED));
        ALLOWED.put(ErrorCode.INTERNAL_ERROR, EnumSet.of(After.ANY));
    }

    private ErrorRecords() {
    }

    /** The states the call's record may be in after the agent was told {@code code}. */
    static Set<After> allowed(ErrorCode code) {
        return ALLOWED.get(code);
    }

    /** Whether {@code record}, found after the agent was told {@code code}, is one {@link #allowed} says. */
    static boolean agrees(ErrorCode code, Option<CanonicalRecord> record) {
        Set<After> allowed = allowed(code);
        if (allowed.contains(After.ANY)) {
            return true;
        }
        if (allowed.contains(After.UNCHANGED)) {
            return !record.exists(found -> found.errorCode().contains(code));
        }
        if (record.isEmpty()) {
            return allowed.contains(After.NONE);
        }
        CanonicalRecord found = record.get();
        if (found instanceof CanonicalRecord.Failed failed) {
            // An unknown outcome may leave the record ended by token, or in ERROR by the tool's own outcome.
            return allowed.contains(After.ERROR) && (failed.code() == code || code == ErrorCode.STORE_OUTCOME_UNKNOWN);
        }
        return allowed.contains(found instanceof CanonicalRecord.Ready ? After.READY : After.PROJECTING);
    }
}
