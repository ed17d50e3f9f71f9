package io.toolboundary.application.spi;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.CanonicalRecord;
import java.time.Duration;

/**
 * What {@link CanonicalInvocationStore#begin} needs, checked once here.
 *
 * @param record the PROJECTING record to create
 * @param token the attempt's token
 * @param runToken the token the run was opened with; the store refuses the begin unless it holds the run
 *     with this token
 * @param ttl how long the record lives; set once, at creation
 * @param lease how long from the record's creation, by the store's own clock, the tool may still be
 *     running; after it a PROJECTING record may be abandoned ({@link CanonicalInvocationStore#abandon})
 * @param runCallBudget how many records the run may create in all
 * @param toolCallBudget how many records the run may create for this tool
 * @param recordLimitBytes the largest the record may ever be, in UTF-8 bytes as
 *     {@link CanonicalRecord#byteSize()} counts them (the boundary's limit, so that a record too large is
 *     refused before its tool runs)
 */
public record InvocationStart(CanonicalRecord.Projecting record, AttemptToken token, RunToken runToken, Duration ttl,
        Duration lease, int runCallBudget, int toolCallBudget, long recordLimitBytes) {

    /**
     * Builds the request to begin a record.
     *
     * @param record the PROJECTING record to create
     * @param token the attempt's token
     * @param runToken the token the run was opened with
     * @param ttl how long the record lives; set once, at creation
     * @param lease how long, from the record's creation by the store's own clock, the attempt may still
     *     be running its tool
     * @param runCallBudget how many records the run may create in all
     * @param toolCallBudget how many records the run may create for this tool
     * @param recordLimitBytes the largest the record may ever be, in UTF-8 bytes
     * @throws IllegalArgumentException when the TTL or the lease is not positive, a budget is negative
     *     or the record limit is not positive
     */
    public InvocationStart {
        requireNonNull(record, "record is null");
        requireNonNull(token, "token is null");
        requireNonNull(runToken, "runToken is null");
        requireNonNull(ttl, "ttl is null");
        requireNonNull(lease, "lease is null");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive, was " + ttl);
        }
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive, was " + lease);
        }
        if (runCallBudget < 0 || toolCallBudget < 0) {
            throw new IllegalArgumentException("budgets must not be negative");
        }
        if (recordLimitBytes <= 0) {
            throw new IllegalArgumentException("recordLimitBytes must be positive, was " + recordLimitBytes);
        }
    }
}
