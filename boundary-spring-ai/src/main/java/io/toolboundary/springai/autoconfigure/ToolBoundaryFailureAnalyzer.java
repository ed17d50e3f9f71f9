package io.toolboundary.springai.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link ToolBoundaryStartupException} into Spring Boot's "APPLICATION FAILED TO START" report: its
 * description, and its action (the bean to add or the property to set).
 */
public final class ToolBoundaryFailureAnalyzer extends AbstractFailureAnalyzer<ToolBoundaryStartupException> {

    /** Created by Spring Boot from {@code META-INF/spring.factories}. */
    public ToolBoundaryFailureAnalyzer() {
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ToolBoundaryStartupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
