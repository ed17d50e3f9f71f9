package io.toolboundary.domain;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Where a canonical record is in its lifecycle. The only legal moves are
 * {@code PROJECTING → READY} and {@code PROJECTING → ERROR}; READY and ERROR are final.
 */
public enum InvocationStatus {
    /** Created before the tool runs; the call is in flight. */
    PROJECTING,
    /** The tool ran and its projection is stored. Final. */
    READY,
    /** The invocation failed after it was created. Final. */
    ERROR;

    private static final Map<InvocationStatus, Set<InvocationStatus>> LEGAL_MOVES = new EnumMap<>(InvocationStatus.class);

    static {
        LEGAL_MOVES.put(PROJECTING, EnumSet.of(READY, ERROR));
        LEGAL_MOVES.put(READY, EnumSet.noneOf(InvocationStatus.class));
        LEGAL_MOVES.put(ERROR, EnumSet.noneOf(InvocationStatus.class));
    }

    /**
     * Whether a record in this status may move to another.
     *
     * @param next the status to move to
     * @return true when a record in this status may move to {@code next}
     */
    public boolean canMoveTo(InvocationStatus next) {
        return LEGAL_MOVES.get(this).contains(next);
    }

    /** {@return true for READY and ERROR, which never change again} */
    public boolean isFinal() {
        return LEGAL_MOVES.get(this).isEmpty();
    }
}
