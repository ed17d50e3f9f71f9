package io.toolboundary.application.bad.inner;

import io.toolboundary.application.bad.OuterSideOfANestedCycle;

/** The other half of a cycle between two packages under the same top-level package. */
public final class InnerSideOfANestedCycle {

    private static final String NAME = "inner";

    private InnerSideOfANestedCycle() {
    }

    /** A name the other side of the cycle reads; a call, so that the dependency stays in the bytecode. */
    public static String name() {
        return NAME;
    }

    static String partner() {
        return OuterSideOfANestedCycle.name();
    }
}
