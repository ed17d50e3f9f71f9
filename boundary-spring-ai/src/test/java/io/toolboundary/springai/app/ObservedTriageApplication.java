package io.toolboundary.springai.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@link TriageApplicationWithPolicy} with a meter registry and an observation registry that keeps what it saw. */
@Configuration(proxyBeanMethods = false)
@Import(TriageApplicationWithPolicy.class)
public class ObservedTriageApplication {

    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    @Bean
    StoppedObservations stoppedObservations() {
        return new StoppedObservations();
    }

    @Bean
    ObservationRegistry observationRegistry(StoppedObservations stopped) {
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(stopped.handler());
        return registry;
    }

    /**
     * Every observation context, as it stopped. Not itself a handler bean, so that Spring Boot's Actuator
     * does not register it a second time.
     */
    public static final class StoppedObservations {

        private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

        ObservationHandler<Observation.Context> handler() {
            return new ObservationHandler<>() {
                @Override
                public void onStop(Observation.Context context) {
                    stopped.add(context);
                }

                @Override
                public boolean supportsContext(Observation.Context context) {
                    return true;
                }
            };
        }

        /** The stopped observations of one name. */
        public List<Observation.Context> named(String name) {
            return stopped.stream().filter(context -> name.equals(context.getName())).toList();
        }
    }
}
