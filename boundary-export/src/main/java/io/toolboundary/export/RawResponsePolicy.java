package io.toolboundary.export;

/**
 * How a record's raw response leaves the store for the audit database. The raw response may hold what the
 * agent must never see; the audit database is one more place it would rest, so this is a decision, made
 * per tool: {@link #MASK} by default.
 */
public enum RawResponsePolicy {
    /** Written as stored. */
    KEEP,
    /** Written with credentials masked by {@code Projector.mask}: the same shapes the projector helpers mask. */
    MASK,
    /** Not written: the row holds no raw response. */
    OMIT
}
