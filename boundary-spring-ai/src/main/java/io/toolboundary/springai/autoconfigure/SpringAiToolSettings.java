package io.toolboundary.springai.autoconfigure;

import io.toolboundary.springai.BoundaryToolCallingManager;
import org.springframework.core.env.Environment;

/**
 * Spring AI's own tool calling settings that the boundary's manager carries over, on Spring AI 1.1: none.
 * Spring AI 1.1 has no tool-call limits and resolves any tool by name, which is what the manager does
 * without options, so nothing of Spring AI's is left unapplied.
 */
final class SpringAiToolSettings {

    private SpringAiToolSettings() {
    }

    /** Leaves {@code manager} as it is: there is nothing to carry over on Spring AI 1.1. */
    static void apply(BoundaryToolCallingManager.Builder manager, Environment environment) {
        // Spring AI 1.1 has neither spring.ai.tools.limits.* nor spring.ai.tools.resolution.fallback.
    }
}
