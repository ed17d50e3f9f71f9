package io.toolboundary.micrometer.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.export.RecordExporter;
import io.toolboundary.micrometer.ExportMeters;
import io.toolboundary.micrometer.MicrometerBoundaryListener;
import io.toolboundary.micrometer.ToolSpans;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Registers a {@link MicrometerBoundaryListener} bean when the context has a {@link MeterRegistry}, for the
 * boundary's auto-configuration (or any harness collecting {@link BoundaryListener} beans) to install; rejected
 * calls are tagged with their tool when it names a {@link ToolBinding} bean. Backs off when the context has
 * one, and with {@code toolboundary.enabled=false}. With {@code boundary-export} on the class path, a
 * {@link MeterBinder} binds {@link ExportMeters} for the context's one {@link RecordExporter} (the Spring
 * starter's, with {@code toolboundary.export.enabled=true}), when there is one. With an
 * {@code ObservationRegistry} bean, a {@link ToolSpans} bean makes each call a GenAI {@code execute_tool} span;
 * {@code toolboundary.observations.capture-content=true} adds the opt-in arguments and agent text.
 */
@AutoConfiguration(
        beforeName = "io.toolboundary.springai.autoconfigure.ToolBoundaryAutoConfiguration",
        afterName = {
            "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
            // Spring Boot 4 moved them to spring-boot-micrometer-metrics.
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
            "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
            "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
            "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"
        })
@ConditionalOnClass({MeterRegistry.class, BoundaryListener.class})
@ConditionalOnProperty(prefix = "toolboundary", name = "enabled", havingValue = "true", matchIfMissing = true)
public class MicrometerToolBoundaryAutoConfiguration {

    /** Created by Spring Boot. */
    public MicrometerToolBoundaryAutoConfiguration() {
    }

    /**
     * {@return the meters' listener, on the context's (primary) meter registry}
     *
     * @param registry the context's (primary) meter registry
     * @param tools the registered tool bindings, whose names tag rejected calls
     */
    @Bean
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnMissingBean(MicrometerBoundaryListener.class)
    public MicrometerBoundaryListener micrometerBoundaryListener(MeterRegistry registry, ObjectProvider<ToolBinding> tools) {
        return MicrometerBoundaryListener.of(registry,
                tools.orderedStream().map(binding -> binding.name().value()).toList());
    }

    /** The GenAI tool spans, when the context has an {@code ObservationRegistry}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.observation.ObservationRegistry")
    static class Spans {

        /**
         * {@return the tool spans' listener on the context's observation registry}
         *
         * @param observations the context's observation registry
         * @param tools the registered tool bindings, whose names name rejected calls
         * @param environment for {@code toolboundary.observations.capture-content}, off by default
         */
        @Bean
        @ConditionalOnBean(io.micrometer.observation.ObservationRegistry.class)
        @ConditionalOnMissingBean(ToolSpans.class)
        ToolSpans toolBoundarySpans(io.micrometer.observation.ObservationRegistry observations,
                ObjectProvider<ToolBinding> tools, Environment environment) {
            return ToolSpans.builder(observations)
                    .registeredTools(tools.orderedStream().map(binding -> binding.name().value()).toList())
                    .captureContent(environment.getProperty("toolboundary.observations.capture-content",
                            Boolean.class, false))
                    .build();
        }
    }

    /** The exporter's meters, when {@code boundary-export} is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.toolboundary.export.RecordExporter")
    static class Export {

        /**
         * {@return a binder of the context's one {@link RecordExporter}'s meters; binds nothing without one}
         * Looked up when a registry binds it, so an exporter defined by a later auto-configuration is found.
         *
         * @param exporters the context's exporters
         */
        @Bean
        @ConditionalOnMissingBean(name = "toolBoundaryExportMeters")
        MeterBinder toolBoundaryExportMeters(ObjectProvider<RecordExporter> exporters) {
            return registry -> exporters.ifUnique(exporter -> ExportMeters.of(exporter).bindTo(registry));
        }
    }
}
