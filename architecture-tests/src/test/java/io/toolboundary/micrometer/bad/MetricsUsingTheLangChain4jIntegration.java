package io.toolboundary.micrometer.bad;

import io.toolboundary.langchain4j.LangChain4jToolBoundary;

/** Breaks "integrations never depend on each other": metrics that need the LangChain4j module. */
public final class MetricsUsingTheLangChain4jIntegration {

    /** A tag value borrowed from another integration. */
    public String tag(LangChain4jToolBoundary tools) {
        return tools.toString();
    }
}
