package io.toolboundary.application.bad;

import io.toolboundary.application.bad.inner.InnerSideOfANestedCycle;

/** One half of a cycle between two packages under the same top-level package. */
public final class OuterSideOfANestedCycle {

    private static final String NAME = "outer";

    private OuterSideOfANestedCycle() {
    }

    /** A name the other side of the cycle reads; a call, so that the dependency stays in the bytecode. */
    public static String name() {
        return NAME;
    }

    static String partner() {
        return InnerSideOfANestedCycle.name();
    }
}
