package io.toolboundary.export;

import static java.util.Objects.requireNonNull;

/**
 * Why an audit database operation did not succeed. The reason names the database's own code (an SQLSTATE
 * and a vendor code) and what was being done; never a row's values, a URL or a password.
 *
 * @param kind what happened
 * @param reason a short, safe description
 */
public record AuditFailure(Kind kind, String reason) {

    /** What happened. */
    public enum Kind {
        /** The database could not be reached, or the connection failed: nothing was written, or a transaction rolled back. */
        UNAVAILABLE,
        /** The database refused a row (a constraint, a value it does not take): the batch was rolled back. */
        REFUSED,
        /** The database answered with a row that is not a valid record. */
        DATA_INVALID
    }

    /**
     * A failure.
     *
     * @param kind what happened
     * @param reason a short, safe description
     */
    public AuditFailure {
        requireNonNull(kind, "kind is null");
        requireNonNull(reason, "reason is null");
    }

    @Override
    public String toString() {
        return kind + ": " + reason;
    }
}
