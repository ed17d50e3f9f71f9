package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;

/**
 * An expected failure, safe to hand to an agent: an {@link ErrorCode}, its fixed message and, for a call
 * refused by a limit, that limit as configured. It holds nothing else, by construction: no cause, no
 * payload, no key, never the offending content.
 *
 * @param code the stable error code
 * @param limit the configured limit the call met, for a code that concerns one
 */
public record BoundaryError(ErrorCode code, Option<Long> limit) {

    /**
     * Builds an error.
     *
     * @param code the stable error code
     * @param limit the configured limit the call met, for a code that concerns one (see {@link #overLimit})
     * @throws IllegalArgumentException when a limit is given for a code that concerns none, or is negative
     */
    public BoundaryError {
        requireNonNull(code, "code is null");
        requireNonNull(limit, "limit is null");
        if (limit.isDefined() && (unit(code) == null || limit.get() < 0)) {
            throw new IllegalArgumentException("a limit is given only for ARGUMENTS_TOO_LARGE, RESULT_TOO_LARGE,"
                    + " RUN_BUDGET_EXHAUSTED or TOOL_BUDGET_EXHAUSTED, and is not negative; was " + code + " "
                    + limit.get());
        }
    }

    /**
     * Builds the error of a code, without a limit.
     *
     * @param code the stable error code
     */
    public BoundaryError(ErrorCode code) {
        this(code, Option.none());
    }

    /**
     * {@return the error carrying only {@code code}}
     *
     * @param code the stable error code
     */
    public static BoundaryError of(ErrorCode code) {
        return new BoundaryError(code);
    }

    /**
     * The error of a call refused by a limit, which its message names (the limit, never the content).
     *
     * @param code {@code ARGUMENTS_TOO_LARGE} or {@code RESULT_TOO_LARGE} (UTF-8 bytes),
     *     {@code RUN_BUDGET_EXHAUSTED} or {@code TOOL_BUDGET_EXHAUSTED} (calls)
     * @param limit the configured limit
     * @return the error
     */
    public static BoundaryError overLimit(ErrorCode code, long limit) {
        return new BoundaryError(code, Option.some(limit));
    }

    /** {@return the fixed, safe message of the code, with the limit the call met when there is one} */
    public String message() {
        String message = code.safeMessage();
        return limit.isEmpty() ? message
                : message.substring(0, message.length() - 1) + " (limit: " + limit.get() + " " + unit(code) + ").";
    }

    private static String unit(ErrorCode code) {
        return switch (code) {
            case ARGUMENTS_TOO_LARGE, RESULT_TOO_LARGE -> "UTF-8 bytes";
            case RUN_BUDGET_EXHAUSTED, TOOL_BUDGET_EXHAUSTED -> "calls";
            default -> null;
        };
    }

    @Override
    public String toString() {
        return code + ": " + message();
    }
}
