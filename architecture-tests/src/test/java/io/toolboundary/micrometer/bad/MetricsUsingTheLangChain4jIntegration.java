package io.toolboundary.micrometer.bad;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.langchain4j.AgentText;

/** Breaks "integrations never depend on each other": metrics that need the LangChain4j module. */
public final class MetricsUsingTheLangChain4jIntegration {

    /** A tag value borrowed from another integration. */
    public String tag() {
        return AgentText.of(BoundaryError.of(ErrorCode.RUN_MISMATCH));
    }
}
