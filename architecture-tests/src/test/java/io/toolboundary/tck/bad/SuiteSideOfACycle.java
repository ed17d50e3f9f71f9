package io.toolboundary.tck.bad;

import io.toolboundary.tck.bad.fixture.FixtureSideOfACycle;

/** A suite whose fixture package needs the suite's package back: one half of a cycle inside the TCK. */
public final class SuiteSideOfACycle {

    private static final String NAME = "suite";

    private SuiteSideOfACycle() {
    }

    /** A name the other side of the cycle reads; a call, so that the dependency stays in the bytecode. */
    public static String name() {
        return NAME;
    }

    static String fixture() {
        return FixtureSideOfACycle.name();
    }
}
