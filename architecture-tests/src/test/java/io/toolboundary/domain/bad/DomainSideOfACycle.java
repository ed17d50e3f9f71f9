package io.toolboundary.domain.bad;

import io.toolboundary.application.bad.ApplicationSideOfACycle;

/** One half of a package cycle: the domain reaches into the application. */
public final class DomainSideOfACycle {

    private DomainSideOfACycle() {
    }

    static String describe() {
        return ApplicationSideOfACycle.name();
    }
}
