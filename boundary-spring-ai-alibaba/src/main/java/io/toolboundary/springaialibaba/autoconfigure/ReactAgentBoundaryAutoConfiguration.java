package io.toolboundary.springaialibaba.autoconfigure;

import com.alibaba.cloud.ai.graph.agent.interceptor.ToolInterceptor;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfiguration;
import io.toolboundary.springaialibaba.BoundaryToolInterceptor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configures the {@link BoundaryToolInterceptor} when Spring AI Alibaba's agent framework is on the
 * class path, so a {@code ReactAgent} needs {@code .interceptors(boundaryInterceptor)}; it backs off when the
 * context has one. Everything else, and its rules (the <b>required</b> {@code AccessPolicy} bean,
 * {@code toolboundary.enabled}), are {@link ToolBoundaryAutoConfiguration}'s. One property more:
 * {@code toolboundary.duplicate-calls}, {@code refuse} (default) or {@code replay-ready}
 * ({@link ToolBoundaryConfig#replayReadyDuplicates()}); any other value stops the start.
 */
@AutoConfiguration(after = ToolBoundaryAutoConfiguration.class)
@ConditionalOnClass({ToolInterceptor.class, ToolBoundary.class})
@ConditionalOnProperty(prefix = "toolboundary", name = "enabled", havingValue = "true", matchIfMissing = true)
public class ReactAgentBoundaryAutoConfiguration {

    /** Created by Spring Boot. */
    public ReactAgentBoundaryAutoConfiguration() {
    }

    /**
     * Applies {@code toolboundary.duplicate-calls} to the context's {@link ToolBoundaryConfig}.
     *
     * @param environment where the property is read
     * @return a post-processor that gives the config the rule the property names ({@code refuse} when it is
     *     not set)
     */
    @Bean
    public static BeanPostProcessor toolBoundaryDuplicateCalls(Environment environment) {
        boolean replay = Binder.get(environment)
                .bind("toolboundary.duplicate-calls", DuplicateCalls.class)
                .orElse(DuplicateCalls.REFUSE) == DuplicateCalls.REPLAY_READY;
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                return bean instanceof ToolBoundaryConfig config && config.replayReadyDuplicates() != replay
                        ? config.withReplayReadyDuplicates(replay) : bean;
            }
        };
    }

    /**
     * {@return the interceptor over {@code boundary} to give every {@code ReactAgent} of the application}
     *
     * @param boundary the context's boundary, built by {@link ToolBoundaryAutoConfiguration} unless the
     *     application has its own
     */
    @Bean
    @ConditionalOnBean(ToolBoundary.class)
    @ConditionalOnMissingBean
    public BoundaryToolInterceptor boundaryToolInterceptor(ToolBoundary boundary) {
        return BoundaryToolInterceptor.of(boundary);
    }

    /** The values of {@code toolboundary.duplicate-calls}. */
    private enum DuplicateCalls {
        /** {@code refuse}: {@code DUPLICATE_TOOL_CALL}, the specification's rule. */
        REFUSE,
        /** {@code replay-ready}: a READY record's agent result again. */
        REPLAY_READY
    }
}
