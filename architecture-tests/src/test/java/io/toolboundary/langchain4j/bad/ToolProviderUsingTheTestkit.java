package io.toolboundary.langchain4j.bad;

import io.toolboundary.application.RunContext;
import io.toolboundary.testkit.Fixtures;

/** Breaks "integrations depend on the application and their framework only": production code using test fixtures. */
public final class ToolProviderUsingTheTestkit {

    /** A run context taken from the testkit. */
    public RunContext run() {
        return Fixtures.anyRunContext();
    }
}
