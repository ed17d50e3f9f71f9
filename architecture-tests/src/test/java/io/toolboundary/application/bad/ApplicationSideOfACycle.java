package io.toolboundary.application.bad;

import io.toolboundary.domain.bad.DomainSideOfACycle;

/** The other half of a package cycle: the application depends on the domain, which depends back. */
public final class ApplicationSideOfACycle {

    private static final String NAME = "cycle";

    private ApplicationSideOfACycle() {
    }

    /** A name the other side of the cycle reads; a call, so that the dependency stays in the bytecode. */
    public static String name() {
        return NAME;
    }

    static Class<?> partner() {
        return DomainSideOfACycle.class;
    }
}
