package io.toolboundary.springai.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AccessPolicy;
import io.toolboundary.springai.BoundaryToolCallingManager;
import org.junit.jupiter.api.Test;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Spring AI 1.1 only (Spring AI 2.0 offers tools by callback, not by name): the boundary's manager takes the
 * place of Spring AI's and resolves the tool names of a chat with the context's {@code ToolCallbackResolver}.
 */
class ToolNameResolutionTest {

    private static final String TOOL = "log-search";

    @Test
    void takesThePlaceOfSpringAisManagerAndResolvesToolNamesWithItsResolver() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ToolBoundaryAutoConfiguration.class, ToolCallingAutoConfiguration.class))
                .withBean(AccessPolicy.class, AccessPolicy::allowAll)
                .withBean("logSearchCallback", ToolCallback.class, () -> ToolBoundaryAutoConfigurationTest.definitionOf(TOOL))
                .run(context -> {
                    assertThat(context).hasSingleBean(ToolCallingManager.class);
                    ToolCallingManager manager = context.getBean(ToolCallingManager.class);
                    assertThat(manager).isInstanceOf(BoundaryToolCallingManager.class);
                    assertThat(manager.resolveToolDefinitions(ToolCallingChatOptions.builder().toolNames(TOOL).build()))
                            .extracting(ToolDefinition::name).containsExactly(TOOL);
                });
    }
}
