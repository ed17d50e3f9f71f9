package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

/**
 * Why a store refused an operation: it changed nothing. Each refusal is its own type, so a caller tells
 * them apart by type, never by an error code.
 */
public sealed interface Refusal {

    /** The store does not hold the run as the caller knows it (never opened here, or its state lost). */
    record RunStateLost() implements Refusal {
    }

    /** The key holds, or the run began, this call with the same request: it never runs again. */
    record Duplicate() implements Refusal {
    }

    /** The key holds, or the run began, a call with this id and another request. */
    record IdReused() implements Refusal {
    }

    /**
     * A budget of the run is used up.
     *
     * @param scope whose budget: the run's in all, or the tool's in the run
     */
    record BudgetExhausted(Scope scope) implements Refusal {
        /**
         * A spent budget.
         *
         * @param scope whose budget
         */
        public BudgetExhausted {
            requireNonNull(scope, "scope is null");
        }
    }

    /** Whose budget is spent. */
    enum Scope {
        /** The run's budget of calls in all. */
        RUN,
        /** The run's budget of calls of one tool. */
        TOOL
    }

    /** The record would be over its limit or the store's own cap. */
    record TooLarge() implements Refusal {
    }

    /** A text to store is not well-formed Unicode. */
    record NotUnicode() implements Refusal {
    }

    /** The record is gone (expired or lost); it is never re-created. */
    record Expired() implements Refusal {
    }

    /** The record belongs to another attempt, or is final otherwise than asked. */
    record Conflict() implements Refusal {
    }

    /** The record is PROJECTING and its execution lease has not passed: the tool may still be running. */
    record LeaseNotExpired() implements Refusal {
    }
}
