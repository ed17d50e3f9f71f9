package io.toolboundary.springai.autoconfigure;

import io.micrometer.observation.ObservationRegistry;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolBoundaryBuilder;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.springai.BoundaryToolCallingManager;
import java.time.Clock;
import java.util.List;
import org.apache.commons.logging.LogFactory;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.observation.ToolCallingObservationConvention;
import org.springframework.ai.tool.resolution.ToolCallbackResolver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configures the tool boundary for a Spring AI application; every bean backs off when the context has
 * one of its type, and {@code toolboundary.enabled=false} switches all of it off. It provides a
 * {@link ToolBoundaryConfig} from {@link ToolBoundaryProperties}; a {@link CanonicalInvocationStore} chosen by
 * {@code toolboundary.store} (see {@link StoreConfigurations}; it runs after Redisson's auto-configuration); a
 * {@link ToolBoundary} with every {@link ToolBinding} bean, the {@link AccessPolicy}, the
 * {@link BoundaryListener} beans and the single {@link Clock}; a {@link BoundaryToolCallingManager} as the
 * {@link ToolCallingManager}, before Spring AI's own, which then backs off (on Spring AI 2.0 it applies
 * {@code spring.ai.tools.*}); with Actuator and the Redis store, the {@code toolBoundaryRedis} health
 * indicator; and with {@code toolboundary.export.enabled=true}, export of every final record to the context's
 * {@code DataSource} (see {@link ExportConfigurations}). Each line's artifact refuses to start on the other
 * line's Spring AI.
 *
 * <p><b>An {@link AccessPolicy} bean is required</b>: no default grants access, so without one (and without
 * the application's own {@code ToolBoundary}) the application does not start and
 * {@link ToolBoundaryFailureAnalyzer} names the bean to add.
 */
@AutoConfiguration(
        beforeName = "org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration",
        afterName = {
            "org.redisson.spring.starter.RedissonAutoConfiguration",
            "org.redisson.spring.starter.RedissonAutoConfigurationV2",
            "org.redisson.spring.starter.RedissonAutoConfigurationV4"
        })
@ConditionalOnClass({ToolBoundary.class, ToolCallingManager.class})
@ConditionalOnProperty(prefix = "toolboundary", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(ToolBoundaryProperties.class)
@Import({StoreConfigurations.Redis.class, StoreConfigurations.InMemory.class, StoreConfigurations.RedisHealth.class,
        ExportConfigurations.ModuleMissing.class, ExportConfigurations.Exporter.class})
public class ToolBoundaryAutoConfiguration {

    /** Spring AI's property that would rethrow a tool's exception; it has no part under the boundary. */
    static final String THROW_EXCEPTION_ON_ERROR = "spring.ai.tools.throw-exception-on-error";

    /** Created by Spring Boot. */
    public ToolBoundaryAutoConfiguration() {
    }

    /**
     * The boundary's settings, from the {@code toolboundary.*} properties.
     *
     * @param properties the bound and validated {@code toolboundary.*} properties
     * @return the limits, record TTL, execution lease and JSON bounds those properties set
     */
    @Bean
    @ConditionalOnMissingBean
    public ToolBoundaryConfig toolBoundaryConfig(ToolBoundaryProperties properties) {
        return properties.toConfig();
    }

    /**
     * The boundary.
     *
     * @param store the store that keeps the canonical records
     * @param accessPolicy the context's access policy; required
     * @param config the boundary's settings
     * @param tools every {@link ToolBinding} bean, each registered as a tool in bean order
     * @param listeners the {@link BoundaryListener} beans, all notified in bean order; none is allowed
     * @param clock the context's clock when it has exactly one, else the system UTC clock is used
     * @return the boundary over {@code store} with those tools, policy, listeners and clock
     * @throws ToolBoundaryStartupException when the context has no {@link AccessPolicy}
     */
    @Bean
    @ConditionalOnMissingBean
    public ToolBoundary toolBoundary(CanonicalInvocationStore store, ObjectProvider<AccessPolicy> accessPolicy,
            ToolBoundaryConfig config, ObjectProvider<ToolBinding> tools, ObjectProvider<BoundaryListener> listeners,
            ObjectProvider<Clock> clock) {
        AccessPolicy policy = accessPolicy.getIfAvailable(() -> {
            throw ToolBoundaryStartupException.missingAccessPolicy();
        });
        ToolBoundaryBuilder builder = ToolBoundary.builder()
                .store(store)
                .accessPolicy(policy)
                .config(config)
                .clock(clock.getIfUnique(Clock::systemUTC))
                .listener(allOf(listeners.orderedStream().toList()));
        tools.orderedStream().forEach(builder::tool);
        return builder.build();
    }

    /**
     * The Spring AI tool calling manager that routes every tool call through the boundary.
     *
     * @param boundary the boundary every tool call runs through
     * @param resolver the context's {@link ToolCallbackResolver}, used to resolve tool definitions when
     *     there is exactly one; else Spring AI's default resolution applies
     * @param observations the context's {@link ObservationRegistry} when there is exactly one; else tool
     *     calls are not observed
     * @param conventions the context's {@link ToolCallingObservationConvention}, when it has one, for Spring
     *     AI's tool call observation
     * @param environment where Spring AI's own tool calling properties ({@code spring.ai.tools.*}) are read on
     *     the Spring AI line that has them
     * @param context the application context, whose class loader tells which Spring AI line the application runs
     * @return the manager, resolving definitions with Spring AI's default manager
     * @throws ToolBoundaryStartupException when the application runs the other Spring AI line than this
     *     artifact's
     */
    @Bean
    @ConditionalOnMissingBean(ToolCallingManager.class)
    public BoundaryToolCallingManager toolCallingManager(ToolBoundary boundary,
            ObjectProvider<ToolCallbackResolver> resolver, ObjectProvider<ObservationRegistry> observations,
            ObjectProvider<ToolCallingObservationConvention> conventions, Environment environment,
            ApplicationContext context) {
        SpringAiToolSettings.checkLine(context.getClassLoader());
        ObservationRegistry registry = observations.getIfUnique(() -> ObservationRegistry.NOOP);
        DefaultToolCallingManager.Builder definitions = DefaultToolCallingManager.builder().observationRegistry(registry);
        resolver.ifUnique(definitions::toolCallbackResolver);
        BoundaryToolCallingManager.Builder manager = BoundaryToolCallingManager.builder(boundary)
                .definitions(definitions.build())
                .observationRegistry(registry);
        conventions.ifAvailable(manager::observationConvention);
        SpringAiToolSettings.apply(manager, environment);
        warnOfThrowExceptionOnError(environment);
        return manager.build();
    }

    /**
     * Says at start that {@code spring.ai.tools.throw-exception-on-error=true} has no effect: under the
     * boundary a tool that throws is answered {@code EXECUTION_FAILED}, its record ended, never rethrown.
     */
    private static void warnOfThrowExceptionOnError(Environment environment) {
        if (environment.getProperty(THROW_EXCEPTION_ON_ERROR, Boolean.class, false)) {
            LogFactory.getLog(ToolBoundaryAutoConfiguration.class).warn("Tool Boundary tool calling manager: "
                    + THROW_EXCEPTION_ON_ERROR + "=true has no effect: a tool that throws is answered"
                    + " EXECUTION_FAILED and its record ended in ERROR; the exception is never rethrown to the caller.");
        }
    }

    private static BoundaryListener allOf(List<BoundaryListener> listeners) {
        if (listeners.isEmpty()) {
            return BoundaryListener.noop();
        }
        if (listeners.size() == 1) {
            return listeners.get(0);
        }
        return BoundaryListener.composite(listeners.toArray(BoundaryListener[]::new));
    }
}
