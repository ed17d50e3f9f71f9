package io.toolboundary.micrometer.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.export.RecordExporter;
import io.vavr.control.Either;
import io.toolboundary.micrometer.MicrometerBoundaryListener;
import io.toolboundary.micrometer.ToolSpans;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.testkit.Fixtures;
import java.util.ArrayList;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.FakeTools;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class MicrometerToolBoundaryAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MicrometerToolBoundaryAutoConfiguration.class))
            .withBean(ToolBinding.class, () -> ToolBinding.readOnly("log-search", FakeTools.returning("raw"),
                    FakeProjectors.evidenceFound("bounded")));

    @Test
    void isRegisteredAsASpringBootAutoConfiguration() {
        List<String> candidates = ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader())
                .getCandidates();

        assertThat(candidates).contains(MicrometerToolBoundaryAutoConfiguration.class.getName());
    }

    @Test
    void registersTheListenerWhenTheContextHasAMeterRegistry() {
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> assertThat(context).hasSingleBean(MicrometerBoundaryListener.class));
    }

    @Test
    void registersNothingWithoutAMeterRegistryOrWhenDisabled() {
        runner.run(context -> assertThat(context).doesNotHaveBean(MicrometerBoundaryListener.class));
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("toolboundary.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(MicrometerBoundaryListener.class));
    }

    @Test
    void bindsTheExportersMetersWhenTheContextHasOne() {
        InMemoryCanonicalInvocationStore store = InMemoryCanonicalInvocationStore.custom().outbox(10).build();
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean(RecordExporter.class, () -> RecordExporter.builder(store, rows -> Either.right(rows.size())).build())
                .run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    context.getBean("toolBoundaryExportMeters", MeterBinder.class).bindTo(registry);
                    assertThat(registry.find("toolboundary.export.backlog").gauge()).isNotNull();
                    assertThat(registry.find("toolboundary.export.records").tag("result", "exported").functionCounter())
                            .isNotNull();
                });
        runner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            context.getBean("toolBoundaryExportMeters", MeterBinder.class).bindTo(registry);
            assertThat(registry.find("toolboundary.export.backlog").gauge()).as("no exporter, no meters").isNull();
        });
    }

    @Test
    void registersTheToolSpansWhenTheContextHasAnObservationRegistry() {
        runner.run(context -> assertThat(context).doesNotHaveBean(ToolSpans.class));
        runner.withBean(ObservationRegistry.class, ObservationRegistry::create)
                .run(context -> assertThat(context).hasSingleBean(ToolSpans.class));
    }

    @Test
    void capturesContentOnlyWithTheProperty() {
        for (boolean capture : new boolean[] {false, true}) {
            List<Observation.Context> stopped = new ArrayList<>();
            ObservationRegistry observations = ObservationRegistry.create();
            observations.observationConfig().observationHandler(new ObservationHandler<>() {
                @Override
                public void onStop(Observation.Context context) {
                    stopped.add(context);
                }

                @Override
                public boolean supportsContext(Observation.Context context) {
                    return true;
                }
            });
            runner.withBean(ObservationRegistry.class, () -> observations)
                    .withPropertyValues("toolboundary.observations.capture-content=" + capture)
                    .run(context -> {
                        ToolBoundary boundary = ToolBoundary.builder().store(InMemoryCanonicalInvocationStore.create())
                                .accessPolicy(AccessPolicy.allowAll()).listener(context.getBean(ToolSpans.class))
                                .tool(ToolBinding.readOnly("log-search", FakeTools.returning("raw"),
                                        FakeProjectors.evidenceFound("bounded")))
                                .build();
                        RunContext opened = Fixtures.opened(boundary, Fixtures.anyRunContext());
                        boundary.invoke(opened, Fixtures.envelope(opened).withToolName("log-search").build());
                    });
            assertThat(stopped).singleElement().satisfies(context -> {
                assertThat(context.getLowCardinalityKeyValue("gen_ai.tool.name").getValue()).isEqualTo("log-search");
                assertThat(context.getHighCardinalityKeyValue("gen_ai.tool.call.result") != null)
                        .as("result captured").isEqualTo(capture);
            });
        }
    }
}
