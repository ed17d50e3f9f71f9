package io.toolboundary.springai;

import static java.util.Objects.requireNonNull;

import io.micrometer.observation.ObservationRegistry;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.observation.ToolCallingObservationConvention;

/**
 * A Spring AI {@link ToolCallingManager} that runs every tool call the model requests through
 * {@link ToolBoundary#invoke} (Spring AI gives the tool call id only to this manager, so the boundary sits here).
 *
 * <p>For each {@link AssistantMessage.ToolCall}, in order, the envelope carries the run id of the chat's
 * {@link RunContext} (see {@link BoundaryToolContext}), and the call's id, tool name and arguments exactly as
 * given (a missing id stays missing; empty arguments are not replaced). The answer carries the same id and
 * name and the {@link ToolBoundary#agentText agent text}; a refused call is an error text, never an
 * exception, and the other calls still run. Tools run from the boundary's bindings, by name; definitions come
 * from a delegate manager. {@link ToolExecutionResult#returnDirect()} is always false. The tool response
 * message carries the run id in its metadata under {@link ToolCallbackBindings#RUN_ID_KEY} (never sent to
 * the model), so that a later check of the conversation, such as {@link CitationAdvisor}'s, knows each
 * result's run.
 *
 * <p>{@link Builder#turnLimits} and {@link Builder#offeredToolsOnly} apply Spring AI 2.0's own rules when set.
 * With an {@link ObservationRegistry}, each call is observed by Spring AI's {@code spring.ai.tool} observation
 * and, inside it, the boundary's {@value #OBSERVATION} with low-cardinality keys {@code tool}, {@code outcome},
 * {@code evidence} and {@code error.code}: never an id, arguments or a payload.
 *
 * <p>Thread-safe.
 */
public final class BoundaryToolCallingManager implements ToolCallingManager {

    /** Name of the boundary's observation of one tool call. */
    public static final String OBSERVATION = "toolboundary.call";

    private final ToolBoundary boundary;
    private final ToolCallingManager definitions;
    private final ObservationRegistry observations;
    private final ToolCallingObservationConvention convention;
    private final TurnLimits turnLimits;
    private final boolean offeredToolsOnly;

    private BoundaryToolCallingManager(Builder builder) {
        this.boundary = builder.boundary;
        this.definitions = builder.definitions;
        this.observations = builder.observations;
        this.convention = builder.convention;
        this.turnLimits = builder.turnLimits;
        this.offeredToolsOnly = builder.offeredToolsOnly;
    }

    /**
     * {@return a manager over {@code boundary} with no observations, resolving tool definitions as Spring AI's default
     * manager does}
     *
     * @param boundary the boundary every tool call runs through
     */
    public static BoundaryToolCallingManager of(ToolBoundary boundary) {
        return builder(boundary).build();
    }

    /**
     * A manager over {@code boundary} that asks {@code definitions} for the tool definitions sent to the
     * model. {@code definitions} never executes a tool call.
     *
     * @param boundary the boundary every tool call runs through
     * @param definitions the manager asked only for {@link #resolveToolDefinitions}
     * @return a manager with no observations
     */
    public static BoundaryToolCallingManager of(ToolBoundary boundary, ToolCallingManager definitions) {
        return builder(boundary).definitions(definitions).build();
    }

    /**
     * {@return a builder of a manager over {@code boundary}, with Spring AI's default definitions and no observations
     * until set}
     *
     * @param boundary the boundary every tool call runs through
     */
    public static Builder builder(ToolBoundary boundary) {
        return new Builder(boundary);
    }

    @Override
    public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
        requireNonNull(chatOptions, "chatOptions is null");
        return definitions.resolveToolDefinitions(chatOptions);
    }

    /**
     * Runs the tool calls of the first generation that has any through the boundary.
     *
     * @return the prompt's messages, then the model's tool call message, then one tool response per call
     * @throws IllegalStateException when the response requests no tool call, or the prompt's tool context
     *     holds no {@link RunContext} (a harness error: nothing runs and no record is created)
     */
    @Override
    public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
        requireNonNull(prompt, "prompt is null");
        requireNonNull(chatResponse, "chatResponse is null");
        AssistantMessage request = chatResponse.getResults().stream()
                .map(Generation::getOutput)
                .filter(AssistantMessage::hasToolCalls)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the chat response requests no tool call"));
        RunContext run = runOf(prompt);
        Map<String, ToolDefinition> offered = offeredDefinitions(prompt);
        Map<String, Integer> callsOfTool = TurnLimits.callsSoFar(prompt.getInstructions());
        int calls = callsOfTool.values().stream().mapToInt(Integer::intValue).sum();
        List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
        for (AssistantMessage.ToolCall call : request.getToolCalls()) {
            calls++;
            int ofTool = callsOfTool.merge(TurnLimits.nameOf(call.name()), 1, Integer::sum);
            Option<TurnLimits.Breach> breach = turnLimits.check(call.name(), ofTool, calls);
            if (breach.isDefined()) {
                responses.add(new ToolResponseMessage.ToolResponse(call.id(), call.name(), breach.get().message()));
                if (turnLimits.onBreach() == TurnLimits.OnBreach.STOP_TURN) {
                    throw TurnLimitBreaches.stop(breach.get(), result(prompt, run, request, responses));
                }
                continue;
            }
            String text = ToolCallObservations.observe(observations, convention, offered.get(call.name()),
                    call.arguments(), () -> invoke(run, call, offered));
            responses.add(new ToolResponseMessage.ToolResponse(call.id(), call.name(), text));
        }
        return result(prompt, run, request, responses);
    }

    private static ToolExecutionResult result(Prompt prompt, RunContext run, AssistantMessage request,
            List<ToolResponseMessage.ToolResponse> responses) {
        ToolResponseMessage answered = ToolResponseMessage.builder().responses(responses)
                .metadata(Map.of(ToolCallbackBindings.RUN_ID_KEY, run.runId().value())).build();
        ShownResults.in(toolContextOf(prompt)).forEach(shown -> shown.ran(run.runId(), request, answered));
        List<Message> history = new ArrayList<>(prompt.getInstructions());
        history.add(request);
        history.add(answered);
        return ToolExecutionResult.builder().conversationHistory(history).returnDirect(false).build();
    }

    private String invoke(RunContext run, AssistantMessage.ToolCall call, Map<String, ToolDefinition> offered) {
        Supplier<Either<BoundaryError, AgentResult>> outcome = offeredToolsOnly && !offered.containsKey(call.name())
                ? () -> Either.left(BoundaryError.of(ErrorCode.TOOL_NOT_REGISTERED))
                : () -> boundary.invoke(run, ToolCallEnvelope.of(run.runId().value(), call.id(), call.name(),
                        call.arguments()));
        if (observations.isNoop()) {
            return ToolBoundary.agentText(outcome.get());
        }
        return ToolCallObservations.observeBoundary(observations, boundary.toolNames(), call.name(), outcome);
    }

    /** The definitions offered in the prompt, by name; none when not needed. A map that takes a null name. */
    private Map<String, ToolDefinition> offeredDefinitions(Prompt prompt) {
        if ((observations.isNoop() && !offeredToolsOnly) || !(prompt.getOptions() instanceof ToolCallingChatOptions options)) {
            return Collections.emptyMap();
        }
        Map<String, ToolDefinition> byName = new HashMap<>();
        try {
            definitions.resolveToolDefinitions(options).forEach(definition -> byName.putIfAbsent(definition.name(), definition));
        } catch (RuntimeException unresolvable) {
            return Collections.emptyMap();
        }
        return byName;
    }

    private static RunContext runOf(Prompt prompt) {
        return BoundaryToolContext.runContext(toolContextOf(prompt)).getOrElseThrow(() -> new IllegalStateException(
                "the prompt's tool context holds no RunContext; pass BoundaryToolContext.of(run) as the tool context"));
    }

    private static Map<String, Object> toolContextOf(Prompt prompt) {
        return prompt.getOptions() instanceof ToolCallingChatOptions options
                && options.getToolContext() != null ? options.getToolContext() : Map.of();
    }

    /** Builds a {@link BoundaryToolCallingManager}. */
    public static final class Builder {

        private final ToolBoundary boundary;
        private ToolCallingManager definitions;
        private ObservationRegistry observations = ObservationRegistry.NOOP;
        private ToolCallingObservationConvention convention;
        private TurnLimits turnLimits = TurnLimits.none();
        private boolean offeredToolsOnly;

        private Builder(ToolBoundary boundary) {
            this.boundary = requireNonNull(boundary, "boundary is null");
        }

        /**
         * Where the tool definitions sent to the model come from; Spring AI's default manager when not set.
         *
         * @param definitions the manager asked only for the tool definitions; never for a tool call
         * @return this builder
         */
        public Builder definitions(ToolCallingManager definitions) {
            this.definitions = requireNonNull(definitions, "definitions is null");
            return this;
        }

        /**
         * Where tool calls are observed; none when not set.
         *
         * @param observations the registry of both Spring AI's {@code spring.ai.tool} observation and the
         *     boundary's {@value BoundaryToolCallingManager#OBSERVATION} observation; also given to the
         *     default definitions manager when {@link #definitions} is not set
         * @return this builder
         */
        public Builder observationRegistry(ObservationRegistry observations) {
            this.observations = requireNonNull(observations, "observations is null");
            return this;
        }

        /**
         * The convention of Spring AI's {@code spring.ai.tool} observation; Spring AI's default when not set.
         *
         * @param convention the application's convention, as Spring AI's own manager would use it
         * @return this builder
         */
        public Builder observationConvention(ToolCallingObservationConvention convention) {
            this.convention = requireNonNull(convention, "convention is null");
            return this;
        }

        /**
         * Limits on the tool calls of one turn; {@link TurnLimits#none()} when not set.
         *
         * @param turnLimits the limits checked before a call reaches the boundary
         * @return this builder
         */
        public Builder turnLimits(TurnLimits turnLimits) {
            this.turnLimits = requireNonNull(turnLimits, "turnLimits is null");
            return this;
        }

        /**
         * Whether only the tools offered to the model in the request may run; {@code false} when not set.
         * With {@code true}, a call of a tool the request did not offer is answered {@code TOOL_NOT_REGISTERED}
         * without reaching the boundary (Spring AI 2.0's rule when
         * {@code spring.ai.tools.resolution.fallback.enabled} is {@code false}).
         *
         * @param offeredToolsOnly {@code true} to refuse calls of tools the request did not offer
         * @return this builder
         */
        public Builder offeredToolsOnly(boolean offeredToolsOnly) {
            this.offeredToolsOnly = offeredToolsOnly;
            return this;
        }

        /** {@return a manager over this builder's boundary, definitions and observation registry} */
        public BoundaryToolCallingManager build() {
            if (definitions == null) {
                definitions = DefaultToolCallingManager.builder().observationRegistry(observations).build();
            }
            return new BoundaryToolCallingManager(this);
        }
    }
}
