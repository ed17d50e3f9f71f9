package io.toolboundary.domain;

/**
 * Where a canonical record is in its lifecycle: {@code PROJECTING}, then {@code READY} or {@code ERROR},
 * which are final. The moves themselves are {@link CanonicalRecord}'s: only a
 * {@link CanonicalRecord.Projecting} record can be completed, into a {@link CanonicalRecord.Final} one.
 */
public enum InvocationStatus {
    /** Created before the tool runs; the call is in flight. */
    PROJECTING,
    /** The tool ran and its projection is stored. Final. */
    READY,
    /** The invocation failed after it was created. Final. */
    ERROR;

    /** {@return true for READY and ERROR, which never change again} */
    public boolean isFinal() {
        return this != PROJECTING;
    }
}
