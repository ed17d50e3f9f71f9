package io.toolboundary.springai;

import java.util.Map;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.context.ApplicationContext;

/**
 * The few calls whose API differs between the Spring lines, so that the tests around them run unchanged on
 * both: this is Spring Boot 4 / Spring AI 2.0's (non-deprecated) API; boundary-spring-ai has Spring Boot
 * 3.5 / Spring AI 1.1's.
 */
public final class LineApi {

    private LineApi() {
    }

    /** Spring AI's advisor that runs the tool calling loop with {@code manager}. */
    public static Advisor toolCallingAdvisor(ToolCallingManager manager) {
        return ToolCallingAdvisor.builder().toolCallingManager(manager).build();
    }

    /** {@code request} offering {@code callbacks} to the model. */
    public static ChatClient.ChatClientRequestSpec tools(ChatClient.ChatClientRequestSpec request, ToolCallback... callbacks) {
        return request.tools((Object[]) callbacks);
    }

    /** {@code builder} offering the provider's tools to the model in every request. */
    public static ChatClient.Builder defaultTools(ChatClient.Builder builder, ToolCallbackProvider provider) {
        return builder.defaultTools(provider);
    }

    /** The health the indicator bean {@code name} reports now. */
    public static Reported health(ApplicationContext context, String name) {
        Health health = context.getBean(name, HealthIndicator.class).health();
        return new Reported(health.getStatus().getCode(), health.getDetails());
    }

    /** Whether Actuator's registry holds a health indicator under {@code name}. */
    public static boolean healthIndicatorRegistered(ApplicationContext context, String name) {
        return context.getBean(HealthContributorRegistry.class).getContributor(name) instanceof HealthIndicator;
    }

    /** A health status code ({@code UP}, {@code DOWN}) and its details. */
    public record Reported(String status, Map<String, Object> details) {
    }
}
