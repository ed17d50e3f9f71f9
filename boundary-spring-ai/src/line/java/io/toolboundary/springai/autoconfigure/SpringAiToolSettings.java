package io.toolboundary.springai.autoconfigure;

import io.toolboundary.springai.BoundaryToolCallingManager;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Spring AI's own tool calling settings that the boundary's manager carries over, on Spring AI 1.1: none.
 * Spring AI 1.1 has no tool-call limits and resolves any tool by name, which is what the manager does
 * without options, so nothing of Spring AI's is left unapplied. This artifact is for Spring Boot 3.5 and
 * Spring AI 1.1 only: on Spring AI 2.0 it refuses to start, naming the artifact for that line, rather than
 * miss Spring AI 2.0's limits and Spring Boot 4's health API without a word.
 */
final class SpringAiToolSettings {

    /** A type Spring AI 2.0 has and 1.1 has not. */
    static final String SPRING_AI_2 = "org.springframework.ai.model.tool.ToolCallLimitBehavior";

    private SpringAiToolSettings() {
    }

    /** Refuses to start when the application runs Spring AI 2.0, for which this artifact is not built. */
    static void checkLine(ClassLoader classLoader) {
        if (ClassUtils.isPresent(SPRING_AI_2, classLoader)) {
            throw new ToolBoundaryStartupException("io.toolboundary:boundary-spring-ai is built for Spring Boot 3.5"
                    + " and Spring AI 1.1, but this application runs Spring AI 2.0: Spring AI 2.0's tool-call limits"
                    + " and Spring Boot 4's health API would be missed.", "Replace io.toolboundary:boundary-spring-ai"
                    + " with io.toolboundary:boundary-spring-ai2, built for Spring Boot 4 and Spring AI 2.0 (the same"
                    + " packages, classes and toolboundary.* properties).");
        }
    }

    /** Leaves {@code manager} as it is: there is nothing to carry over on Spring AI 1.1. */
    static void apply(BoundaryToolCallingManager.Builder manager, Environment environment) {
        // Spring AI 1.1 has neither spring.ai.tools.limits.* nor spring.ai.tools.resolution.fallback.
    }
}
