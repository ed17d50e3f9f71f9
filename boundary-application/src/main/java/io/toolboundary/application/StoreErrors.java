package io.toolboundary.application;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.Refusal;

/** The one mapping from a store's answers ({@link StoreFailure}, {@link Refusal}) to the agent's {@link ErrorCode}. */
public final class StoreErrors {

    private StoreErrors() {
    }

    /**
     * The safe error a store failure is reported as.
     *
     * @param failure what the store answered
     * @return the error with the failure's code
     */
    public static BoundaryError toError(StoreFailure failure) {
        return BoundaryError.of(code(failure));
    }

    /**
     * The code a store failure is reported with.
     *
     * @param failure what the store answered
     * @return {@code STORE_UNAVAILABLE}, {@code STORE_FULL}, {@code STORE_OUTCOME_UNKNOWN},
     *     {@code STORE_DATA_INVALID}, or the refusal's code
     */
    public static ErrorCode code(StoreFailure failure) {
        return failure.fold(
                nothing -> nothing.cause() == StoreFailure.NothingWritten.Cause.FULL
                        ? ErrorCode.STORE_FULL : ErrorCode.STORE_UNAVAILABLE,
                unknown -> ErrorCode.STORE_OUTCOME_UNKNOWN,
                invalid -> ErrorCode.STORE_DATA_INVALID,
                refused -> code(refused.reason()));
    }

    /**
     * The code a refusal is reported with.
     *
     * @param refusal why the store refused
     * @return its code
     * @throws IllegalArgumentException for a kind of refusal without a code here (a programming error)
     */
    public static ErrorCode code(Refusal refusal) {
        if (refusal instanceof Refusal.BudgetExhausted spent) {
            return spent.scope() == Refusal.Scope.RUN ? ErrorCode.RUN_BUDGET_EXHAUSTED : ErrorCode.TOOL_BUDGET_EXHAUSTED;
        }
        if (refusal instanceof Refusal.RunStateLost) {
            return ErrorCode.RUN_STATE_LOST;
        }
        if (refusal instanceof Refusal.Duplicate) {
            return ErrorCode.DUPLICATE_TOOL_CALL;
        }
        if (refusal instanceof Refusal.IdReused) {
            return ErrorCode.TOOL_CALL_ID_REUSED;
        }
        if (refusal instanceof Refusal.TooLarge) {
            return ErrorCode.RESULT_TOO_LARGE;
        }
        if (refusal instanceof Refusal.NotUnicode) {
            return ErrorCode.TEXT_NOT_UNICODE;
        }
        if (refusal instanceof Refusal.Expired) {
            return ErrorCode.RECORD_EXPIRED;
        }
        if (refusal instanceof Refusal.LeaseNotExpired) {
            return ErrorCode.LEASE_NOT_EXPIRED;
        }
        if (refusal instanceof Refusal.Conflict) {
            return ErrorCode.RECORD_CONFLICT;
        }
        // Refusal is sealed and every kind is named above: a kind added without its code fails here, loudly.
        throw new IllegalArgumentException("no code for refusal " + refusal.getClass().getSimpleName());
    }
}
