package io.toolboundary.springaialibaba.bad;

import io.toolboundary.springai.BoundaryToolCallingManager;

/**
 * Breaks "integrations never depend on each other": the ReactAgent interceptor needing the Spring AI
 * integration's manager; only the Alibaba auto-configuration may build on the Spring AI one.
 */
public final class InterceptorUsingTheSpringAiIntegration {

    /** A name borrowed from another integration. */
    public String observation(BoundaryToolCallingManager manager) {
        return BoundaryToolCallingManager.OBSERVATION + manager;
    }
}
