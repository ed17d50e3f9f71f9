package io.toolboundary.application;

import io.toolboundary.application.spi.RunToken;

/** The run token of this module's tests: their stores are scripted and hold no runs of their own. */
final class TestRuns {

    /** The token every opened run context of these tests carries. */
    static final RunToken TOKEN = new RunToken("test-run");

    private TestRuns() {
    }
}
