package io.toolboundary.tck.boundary;

import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.vavr.control.Option;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * What the call's record may be after the boundary answered an error code: the "record" column of the error table in
 * docs/configuration.md, which a test of this module reads and compares with this table. The error-path suite ({@link
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
        allow(EnumSet.of(After.NONE), EnumSet.range(ErrorCode.TOOL_CALL_ID_MISSING, ErrorCode.ARGUMENTS_INVALID));
        allow(EnumSet.of(After.NONE), EnumSet.of(ErrorCode.RUN_STATE_LOST, ErrorCode.RUN_BUDGET_EXHAUSTED,
                ErrorCode.TOOL_BUDGET_EXHAUSTED, ErrorCode.STORE_UNAVAILABLE, ErrorCode.RECORD_EXPIRED));
        allow(EnumSet.of(After.NONE, After.ERROR),
                EnumSet.of(ErrorCode.TEXT_NOT_UNICODE, ErrorCode.RESULT_TOO_LARGE, ErrorCode.STORE_FULL));
        allow(EnumSet.of(After.UNCHANGED), EnumSet.of(ErrorCode.DUPLICATE_TOOL_CALL, ErrorCode.TOOL_CALL_ID_REUSED,
                ErrorCode.STORE_DATA_INVALID, ErrorCode.RECORD_CONFLICT, ErrorCode.LEASE_NOT_EXPIRED));
        allow(EnumSet.of(After.ERROR), EnumSet.of(ErrorCode.EXECUTION_FAILED, ErrorCode.EXECUTION_ABANDONED,
                ErrorCode.PROJECTION_FAILED, ErrorCode.PROJECTION_INVALID));
        allow(EnumSet.of(After.NONE, After.ERROR, After.READY, After.PROJECTING),
                EnumSet.of(ErrorCode.STORE_OUTCOME_UNKNOWN));
        allow(EnumSet.of(After.ANY), EnumSet.of(ErrorCode.INTERNAL_ERROR));
    }

    private static void allow(Set<After> states, Set<ErrorCode> codes) {
        codes.forEach(code -> ALLOWED.put(code, states));
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
