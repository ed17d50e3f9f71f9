package io.toolboundary.springai.autoconfigure;

import io.toolboundary.springai.BoundaryToolCallingManager;
import io.toolboundary.springai.TurnLimits;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallLimitBehavior;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Spring AI 2.0's own tool calling settings, carried over to the boundary's manager, which replaces Spring
 * AI's: the tool-call limits of a turn ({@code spring.ai.tools.limits.*}, with Spring AI's defaults of 40
 * calls per tool and 150 in all, {@code -1} for no limit) and whether only the request's tools may run
 * ({@code spring.ai.tools.resolution.fallback.enabled}, {@code false} by default). They are read as Spring AI
 * reads them, applied as {@link TurnLimits} and {@link BoundaryToolCallingManager.Builder#offeredToolsOnly},
 * and stated once at INFO. A value Spring AI would refuse stops the application, naming the property. This
 * artifact is for Spring Boot 4 and Spring AI 2.0 only: on Spring AI 1.1 it refuses to start, naming the
 * artifact for that line.
 */
final class SpringAiToolSettings {

    static final String LIMITS = "spring.ai.tools.limits";
    static final String FALLBACK = "spring.ai.tools.resolution.fallback.enabled";

    private static final Log LOG = LogFactory.getLog(ToolBoundaryAutoConfiguration.class);

    /** A type Spring AI 2.0 has and 1.1 has not. */
    static final String SPRING_AI_2 = "org.springframework.ai.model.tool.ToolCallLimitBehavior";

    private SpringAiToolSettings() {
    }

    /** Refuses to start when the application runs Spring AI 1.1, for which this artifact is not built. */
    static void checkLine(ClassLoader classLoader) {
        if (!ClassUtils.isPresent(SPRING_AI_2, classLoader)) {
            throw new ToolBoundaryStartupException("io.toolboundary:boundary-spring-ai2 is built for Spring Boot 4"
                    + " and Spring AI 2.0, but this application runs Spring AI 1.1.", "Replace"
                    + " io.toolboundary:boundary-spring-ai2 with io.toolboundary:boundary-spring-ai, built for Spring"
                    + " Boot 3.5 and Spring AI 1.1 (the same packages, classes and toolboundary.* properties).");
        }
    }

    /** Sets {@code manager}'s turn limits and tool resolution from Spring AI's properties in {@code environment}. */
    static void apply(BoundaryToolCallingManager.Builder manager, Environment environment) {
        Binder binder = Binder.get(environment);
        int perTool = limit(binder, "max-calls-per-tool-default", DefaultToolCallingManager.DEFAULT_MAX_CALLS_PER_TOOL);
        int total = limit(binder, "max-total-tool-calls", DefaultToolCallingManager.DEFAULT_MAX_TOTAL_TOOL_CALLS);
        Map<String, Integer> ofTool = new TreeMap<>(binder.bind(LIMITS + ".max-calls-per-tool",
                Bindable.mapOf(String.class, Integer.class)).orElse(Map.of()));
        List<String> excluded = binder.bind(LIMITS + ".excluded-tools", Bindable.listOf(String.class)).orElse(List.of());
        ToolCallLimitBehavior behavior = binder.bind(LIMITS + ".on-limit-exceeded", ToolCallLimitBehavior.class)
                .orElse(ToolCallLimitBehavior.THROW);
        boolean fallback = binder.bind(FALLBACK, Boolean.class).orElse(false);

        TurnLimits.Builder limits = TurnLimits.builder().maxCallsPerTool(perTool).maxTotalCalls(total)
                .onBreach(behavior == ToolCallLimitBehavior.THROW ? TurnLimits.OnBreach.STOP_TURN
                        : TurnLimits.OnBreach.ANSWER_MODEL);
        ofTool.forEach((tool, max) -> limits.maxCallsPerTool(tool, checked(LIMITS + ".max-calls-per-tool." + tool, max)));
        excluded.forEach(limits::excludeTool);
        manager.turnLimits(limits.build()).offeredToolsOnly(!fallback);

        LOG.info("Tool Boundary tool calling manager: Spring AI's tool-call limits apply per turn (" + LIMITS
                + ": " + shown(perTool, " calls per tool") + (ofTool.isEmpty() ? "" : ", " + ofTool)
                + (excluded.isEmpty() ? "" : ", no limit for " + excluded) + ", " + shown(total, " in all") + ", "
                + behavior.name().toLowerCase(Locale.ROOT) + " when exceeded) beside the boundary's per-run budgets; "
                + (fallback ? "any tool with a binding may run (" + FALLBACK + "=true)"
                        : "only the tools offered in the request run (" + FALLBACK + "=false)"));
    }

    private static int limit(Binder binder, String name, int defaultValue) {
        return checked(LIMITS + "." + name, binder.bind(LIMITS + "." + name, Integer.class).orElse(defaultValue));
    }

    private static int checked(String property, Integer value) {
        if (value == null || (value < 1 && value != TurnLimits.UNLIMITED)) {
            throw new ToolBoundaryStartupException(property + " is " + value + ": a tool-call limit must be at least 1,"
                    + " or -1 for no limit.", "Set " + property + " to a positive number of calls, or to -1. The"
                    + " boundary's own budgets stay per run: the RunContext's call budget and each ToolBinding's.");
        }
        return value;
    }

    private static String shown(int limit, String what) {
        return limit == TurnLimits.UNLIMITED ? "no limit" + what.replace(" calls", "") : limit + what;
    }
}
