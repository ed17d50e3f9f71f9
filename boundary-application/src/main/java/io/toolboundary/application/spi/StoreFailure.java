package io.toolboundary.application.spi;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Option;

/**
 * Why a {@link CanonicalInvocationStore} operation did not succeed, said as what may have happened in the
 * store: nothing written (unavailable, full, or a {@link Refusal}), outcome unknown, or data invalid.
 * Carries no key, payload or exception text; {@link #code()} is the agent's code for it.
 *
 * @param kind what may have happened
 * @param refusal the refusal; present exactly when {@code kind} is {@link Kind#REFUSED}
 */
public record StoreFailure(Kind kind, Option<Refusal> refusal) {

    /** What a failed store operation may have done. */
    public enum Kind {
        /** The store could not be reached, or refused the connection before anything was sent: nothing written. */
        UNAVAILABLE,
        /** The store refused the write for want of memory (Redis OOM, the in-memory bound): nothing written. */
        FULL,
        /** The operation may or may not have taken effect (a timeout after sending, a reset reply). */
        OUTCOME_UNKNOWN,
        /** The store answered with data that is not a valid record or reply. */
        DATA_INVALID,
        /** The store refused the operation by its rules: nothing written. */
        REFUSED
    }

    /**
     * A failure.
     *
     * @param kind what may have happened
     * @param refusal the refusal, present exactly for {@link Kind#REFUSED}
     * @throws IllegalArgumentException when the refusal is present for another kind, or missing for REFUSED
     */
    public StoreFailure {
        requireNonNull(kind, "kind is null");
        requireNonNull(refusal, "refusal is null");
        if (refusal.isDefined() != (kind == Kind.REFUSED)) {
            throw new IllegalArgumentException("a refusal is given exactly for kind REFUSED, was " + kind + " with "
                    + refusal);
        }
    }

    /** {@return the store could not be reached: nothing was written, provably} */
    public static StoreFailure unavailable() {
        return new StoreFailure(Kind.UNAVAILABLE, Option.none());
    }

    /** {@return the store refused the write for want of memory: nothing was written} */
    public static StoreFailure full() {
        return new StoreFailure(Kind.FULL, Option.none());
    }

    /** {@return the operation may or may not have taken effect} */
    public static StoreFailure outcomeUnknown() {
        return new StoreFailure(Kind.OUTCOME_UNKNOWN, Option.none());
    }

    /** {@return the store answered with data that is not valid} */
    public static StoreFailure dataInvalid() {
        return new StoreFailure(Kind.DATA_INVALID, Option.none());
    }

    /**
     * {@return the store refused by its rules; nothing was written}
     *
     * @param refusal why
     */
    public static StoreFailure refused(Refusal refusal) {
        return new StoreFailure(Kind.REFUSED, Option.of(requireNonNull(refusal, "refusal is null")));
    }

    /**
     * {@return whether this failure is the refusal {@code expected}}
     *
     * @param expected a refusal
     */
    public boolean is(Refusal expected) {
        return refusal.contains(expected);
    }

    /** {@return the code the agent is told: the store's state, or the refusal's own code} */
    public ErrorCode code() {
        return switch (kind) {
            case UNAVAILABLE -> ErrorCode.STORE_UNAVAILABLE;
            case FULL -> ErrorCode.STORE_FULL;
            case OUTCOME_UNKNOWN -> ErrorCode.STORE_OUTCOME_UNKNOWN;
            case DATA_INVALID -> ErrorCode.STORE_DATA_INVALID;
            case REFUSED -> code(refusal.get());
        };
    }

    /**
     * {@return the code a refusal is reported with}
     *
     * @param refusal why the store refused
     */
    public static ErrorCode code(Refusal refusal) {
        return switch (requireNonNull(refusal, "refusal is null")) {
            case RUN_STATE_LOST -> ErrorCode.RUN_STATE_LOST;
            case DUPLICATE -> ErrorCode.DUPLICATE_TOOL_CALL;
            case ID_REUSED -> ErrorCode.TOOL_CALL_ID_REUSED;
            case RUN_BUDGET_EXHAUSTED -> ErrorCode.RUN_BUDGET_EXHAUSTED;
            case TOOL_BUDGET_EXHAUSTED -> ErrorCode.TOOL_BUDGET_EXHAUSTED;
            case TOO_LARGE -> ErrorCode.RESULT_TOO_LARGE;
            case NOT_UNICODE -> ErrorCode.TEXT_NOT_UNICODE;
            case EXPIRED -> ErrorCode.RECORD_EXPIRED;
            case CONFLICT -> ErrorCode.RECORD_CONFLICT;
            case LEASE_NOT_EXPIRED -> ErrorCode.LEASE_NOT_EXPIRED;
        };
    }
}
