package io.toolboundary.springaialibaba.autoconfigure;

import com.alibaba.cloud.ai.graph.agent.interceptor.ToolInterceptor;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfiguration;
import io.toolboundary.springaialibaba.BoundaryToolInterceptor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configures the {@link BoundaryToolInterceptor} when Spring AI Alibaba's agent framework is on the
 * class path, so that a {@code ReactAgent} built in the application needs one line,
 * {@code .interceptors(boundaryInterceptor)}.
 *
 * <p>Everything else is {@link ToolBoundaryAutoConfiguration}'s, with its rules: the {@code toolboundary.*}
 * properties validated as they are bound, the store chosen by {@code toolboundary.store}, the boundary
 * from the context's {@code ToolBinding} beans ({@code ReactAgentTools.readOnly(...)}) and its
 * <b>required</b> {@code AccessPolicy} bean: without one the application does not start, and the failure
 * analyzer names the bean to add. {@code toolboundary.enabled=false} switches this off too. The interceptor
 * backs off when the context has one of its own.
 */
@AutoConfiguration(after = ToolBoundaryAutoConfiguration.class)
@ConditionalOnClass({ToolInterceptor.class, ToolBoundary.class})
@ConditionalOnProperty(prefix = "toolboundary", name = "enabled", havingValue = "true", matchIfMissing = true)
public class ReactAgentBoundaryAutoConfiguration {

    /** Created by Spring Boot. */
    public ReactAgentBoundaryAutoConfiguration() {
    }

    /**
     * The interceptor to give every {@code ReactAgent} of the application.
     *
     * @param boundary the context's boundary, built by {@link ToolBoundaryAutoConfiguration} unless the
     *     application has its own
     * @return the interceptor over {@code boundary}
     */
    @Bean
    @ConditionalOnBean(ToolBoundary.class)
    @ConditionalOnMissingBean
    public BoundaryToolInterceptor boundaryToolInterceptor(ToolBoundary boundary) {
        return BoundaryToolInterceptor.of(boundary);
    }
}
