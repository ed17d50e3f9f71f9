package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.CanonicalRecord;
import java.time.Duration;
import java.time.Instant;

/**
 * What {@link CanonicalInvocationStore#begin} needs: the new record, the attempt's token, the record's
 * time to live, its execution lease and the two budgets to reserve against.
 *
 * @param record the PROJECTING record to create
 * @param token the attempt's token
 * @param ttl how long the record lives; set once, at creation
 * @param leaseUntil the instant until which the attempt may still be running its tool; from then on
 *     the record, if still PROJECTING, may be abandoned ({@link CanonicalInvocationStore#abandon}).
 *     The store keeps it beside the record; it never changes.
 * @param runCallBudget how many records the run may create in all
 * @param toolCallBudget how many records the run may create for this tool
 */
public record InvocationStart(CanonicalRecord.Projecting record, AttemptToken token, Duration ttl,
        Instant leaseUntil, int runCallBudget, int toolCallBudget) {

    /**
     * @throws IllegalArgumentException when the TTL is not positive, the lease does not end after the
     *     record's creation, or a budget is negative
     */
    public InvocationStart {
        requireNonNull(record, "record is null");
        requireNonNull(token, "token is null");
        requireNonNull(ttl, "ttl is null");
        requireNonNull(leaseUntil, "leaseUntil is null");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, was " + ttl);
        }
        if (!leaseUntil.isAfter(record.createdAt())) {
            throw new IllegalArgumentException("leaseUntil must be after the record's createdAt, was " + leaseUntil);
        }
        if (runCallBudget < 0 || toolCallBudget < 0) {
            throw new IllegalArgumentException("budgets must not be negative");
        }
    }
}
