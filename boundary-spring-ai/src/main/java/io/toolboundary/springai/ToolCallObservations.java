package io.toolboundary.springai;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.observation.DefaultToolCallingObservationConvention;
import org.springframework.ai.tool.observation.ToolCallingObservationContext;
import org.springframework.ai.tool.observation.ToolCallingObservationConvention;
import org.springframework.ai.tool.observation.ToolCallingObservationDocumentation;

/** The observations of one tool call: Spring AI's own, and the boundary's with low-cardinality tags only. */
final class ToolCallObservations {

    static final String UNKNOWN = "unknown";
    static final String NONE = "none";

    private static final ToolCallingObservationConvention DEFAULT_CONVENTION = new DefaultToolCallingObservationConvention();

    private ToolCallObservations() {
    }

    /**
     * Spring AI's tool call observation around {@code call}, when the tool's definition was offered, named and
     * tagged by {@code convention} when there is one ({@code null}: Spring AI's default convention).
     */
    static String observe(ObservationRegistry registry, ToolCallingObservationConvention convention,
            ToolDefinition definition, String arguments, Supplier<String> call) {
        if (definition == null || registry.isNoop()) {
            return call.get();
        }
        ToolCallingObservationContext context = ToolCallingObservationContext.builder()
                .toolDefinition(definition)
                .toolCallArguments(arguments == null ? "" : arguments)
                .build();
        return ToolCallingObservationDocumentation.TOOL_CALL
                .observation(convention, DEFAULT_CONVENTION, () -> context, registry)
                .observe(() -> {
                    String text = call.get();
                    context.setToolCallResult(text);
                    return text;
                });
    }

    /** The boundary's observation of one call, tagged when it ends. */
    static String observeBoundary(ObservationRegistry registry, Set<ToolName> registered, String toolName,
            Supplier<Either<BoundaryError, AgentResult>> call) {
        String tool = registered.stream().anyMatch(name -> name.value().equals(toolName)) ? toolName : UNKNOWN;
        Observation observation = Observation.createNotStarted(BoundaryToolCallingManager.OBSERVATION, registry)
                .contextualName("tool boundary " + tool)
                .lowCardinalityKeyValue("tool", tool)
                .start();
        try (Observation.Scope scope = observation.openScope()) {
            Either<BoundaryError, AgentResult> outcome = call.get();
            observation.lowCardinalityKeyValue("outcome", outcome.isRight() ? "ready" : "error")
                    .lowCardinalityKeyValue("evidence", outcome.map(result -> result.evidence().name()).getOrElse(NONE))
                    .lowCardinalityKeyValue("error.code", outcome.swap().map(error -> error.code().name()).getOrElse(NONE));
            return ToolBoundary.agentText(outcome);
        } catch (RuntimeException failure) {
            observation.lowCardinalityKeyValue("outcome", "error")
                    .lowCardinalityKeyValue("evidence", NONE)
                    .lowCardinalityKeyValue("error.code", NONE)
                    .error(failure);
            throw failure;
        } finally {
            observation.stop();
        }
    }
}
