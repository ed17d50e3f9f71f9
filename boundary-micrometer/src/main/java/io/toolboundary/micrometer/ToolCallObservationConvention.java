package io.toolboundary.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and key values of a tool call's observation; replace {@link DefaultToolCallObservationConvention}
 * with {@link ToolSpans.Builder#convention(ToolCallObservationConvention)}.
 */
public interface ToolCallObservationConvention extends ObservationConvention<ToolCallObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof ToolCallObservationContext;
    }
}
