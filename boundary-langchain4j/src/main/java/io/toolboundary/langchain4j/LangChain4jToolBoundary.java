package io.toolboundary.langchain4j;

import static java.util.Objects.requireNonNull;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderResult;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Puts a {@link ToolBoundary} under the tools of a LangChain4j {@link AiServices} agent, so that every
 * tool call the model makes goes through {@link ToolBoundary#invoke} and the model sees only
 * {@link ToolBoundary#agentText agent text}: the bounded, evidence-labelled result or the safe error.
 *
 * <pre>{@code
 * LangChain4jToolBoundary tools = LangChain4jToolBoundary.of(boundary, harness::currentRun, List.of(logSearchSpec));
 * Agent agent = tools.applyTo(AiServices.builder(Agent.class).chatModel(model)).build();
 * }</pre>
 *
 * <p>The supplier supplies opened runs: the harness opens each run once, when it starts, with
 * {@link ToolBoundary#openRun}, and its supplier answers that context (or one derived from it, such as
 * {@link RunContext#deactivated()}) for every call of the run:
 * <pre>{@code
 * RunContext run = boundary.openRun(RunContext.active(runId, deadline, 50))
 *         .getOrElseThrow(error -> new IllegalStateException(error.message()));
 * harness.setCurrentRun(run);
 * }</pre>
 * The supplier is read when the model calls a tool, not when the tools are built, so a run that was never
 * opened cannot be refused here; and an exception thrown there would reach the model as text (LangChain4j's
 * default tool error handler sends it). Such a call is therefore answered {@code ERROR RUN_NOT_OPENED} by
 * the boundary's preflight: nothing runs, no record is created, and the harness's
 * {@link io.toolboundary.application.BoundaryListener#onRejected} hears the code, so the mistake shows at
 * the run's first tool call. A run whose stored state the store lost (a restart without persistence, a
 * flush, an eviction, a failover) is answered {@code ERROR RUN_STATE_LOST} for every later call, and
 * nothing runs: the harness starts a new run.
 *
 * <p>What it promises, for each {@link ToolExecutionRequest} the framework hands it:
 * <ul>
 *   <li>the envelope carries the framework's {@link ToolExecutionRequest#id()} exactly as given: a
 *       {@code null} or empty id is passed as missing (the boundary answers TOOL_CALL_ID_MISSING);
 *       an id is never generated or replaced;</li>
 *   <li>the tool name is {@link ToolExecutionRequest#name()} and the arguments are
 *       {@link ToolExecutionRequest#arguments()}, both unchanged;</li>
 *   <li>the {@link RunContext} comes from the harness's supplier, read once per tool call (so a run the
 *       harness stops is refused at its next call), and must be opened (see above); the envelope's run id
 *       is that run's id, since the
 *       framework has no notion of a run. The supplier is called on whatever thread the framework runs
 *       tools on (another thread with {@link AiServices#executeToolsConcurrently()}), so it must not
 *       read a thread-local;</li>
 *   <li>the answer is the {@link ToolBoundary#agentText agent text} of the boundary's outcome, flagged as an error to the
 *       framework when the boundary refused or failed the call; no raw response, exception text,
 *       request echo or key ever reaches the model. A supplier that throws or returns {@code null}
 *       gives {@code ERROR INTERNAL_ERROR} and the boundary is not called.</li>
 * </ul>
 *
 * <p>Tool names the model was not offered (LangChain4j calls them hallucinated) are sent through the
 * boundary as well when {@link #unknownToolStrategy()} is installed (as {@link #applyTo} does): the
 * boundary answers TOOL_NOT_REGISTERED unless the name is registered there and the harness's access
 * policy grants it to the run. Which tools run is decided by the boundary's registrations and access
 * policy, not by the list offered to the model.
 *
 * <p>Wiring mistakes fail at {@link #of}: the specifications offered to the model and the tools registered
 * with the boundary must name the same tools. An {@link io.toolboundary.application.AccessPolicy} does not
 * expose the names it grants, so a policy naming a tool that is not registered cannot be caught here; calls
 * to that name are answered TOOL_NOT_REGISTERED. {@link AnnotatedTools} declares each tool once, from a
 * {@code @Tool} method, for both.
 *
 * <p>Limitation of LangChain4j 1.19: within one model message, two tool calls that are equal in id,
 * name and arguments share one result slot in the framework, so the model is shown the second answer
 * (DUPLICATE_TOOL_CALL) for both. The tool still runs once and its record keeps the first result.
 *
 * <p>Immutable and thread-safe.
 */
public final class LangChain4jToolBoundary {

    private final ToolBoundary boundary;
    private final Supplier<RunContext> runContext;
    private final List<ToolSpecification> specifications;
    private final BoundaryToolExecutor executor = new BoundaryToolExecutor();

    private LangChain4jToolBoundary(ToolBoundary boundary, Supplier<RunContext> runContext,
            List<ToolSpecification> specifications) {
        this.boundary = boundary;
        this.runContext = runContext;
        this.specifications = specifications;
    }

    /**
     * Tools for an agent.
     *
     * @param boundary the boundary every call goes through; its registered tools are the ones that can run
     * @param runContext the harness's current facts about the run, opened by {@link ToolBoundary#openRun},
     *     read once per tool call
     * @param specifications what the model is told about each tool: exactly one for each tool registered
     *     with the boundary, and none for any other name
     * @throws IllegalArgumentException when a specification's name is not a safe tool name, two
     *     specifications share a name, a specification names a tool the boundary does not register, or a
     *     tool the boundary registers has no specification (the message lists the names)
     * @return the tools, checked against the boundary
     */
    public static LangChain4jToolBoundary of(ToolBoundary boundary, Supplier<RunContext> runContext,
            Collection<ToolSpecification> specifications) {
        requireNonNull(boundary, "boundary is null");
        requireNonNull(runContext, "runContext is null");
        requireNonNull(specifications, "specifications is null");
        List<ToolSpecification> checked = List.copyOf(specifications);
        Set<String> names = new HashSet<>();
        for (ToolSpecification specification : checked) {
            String name = specification.name();
            if (ToolName.of(name).isLeft()) {
                throw new IllegalArgumentException("specifications: name is not a safe tool name: " + name);
            }
            if (!names.add(name)) {
                throw new IllegalArgumentException("specifications: name appears twice: " + name);
            }
        }
        Set<String> registered = new TreeSet<>();
        boundary.toolNames().forEach(tool -> registered.add(tool.value()));
        Set<String> unregistered = new TreeSet<>(names);
        unregistered.removeAll(registered);
        Set<String> undescribed = new TreeSet<>(registered);
        undescribed.removeAll(names);
        if (!unregistered.isEmpty() || !undescribed.isEmpty()) {
            throw new IllegalArgumentException("specifications and the boundary's tools must match:"
                    + (unregistered.isEmpty() ? "" : " specified but not registered with the boundary " + unregistered + ";")
                    + (undescribed.isEmpty() ? "" : " registered with the boundary but without a specification " + undescribed + ";")
                    + " registered " + registered);
        }
        return new LangChain4jToolBoundary(boundary, runContext, checked);
    }

    /**
     * A {@link ToolProvider} offering the specifications, each executed through the boundary. For
     * {@link AiServices#toolProvider(ToolProvider)}.
     *
     * @return the tool provider
     */
    public ToolProvider toolProvider() {
        return request -> {
            ToolProviderResult.Builder result = ToolProviderResult.builder();
            specifications.forEach(specification -> result.add(specification, executor));
            return result.build();
        };
    }

    /**
     * The answer to a tool name the model was not offered, computed by the boundary like any other
     * call. For {@link AiServices#hallucinatedToolNameStrategy(Function)}; without it, LangChain4j ends
     * the agent's call with an exception.
     *
     * @return the strategy
     */
    public Function<ToolExecutionRequest, ToolExecutionResultMessage> unknownToolStrategy() {
        return request -> {
            Either<BoundaryError, AgentResult> outcome = invoke(request);
            return ToolExecutionResultMessage.builder()
                    .id(request.id())
                    .toolName(request.name())
                    .text(ToolBoundary.agentText(outcome))
                    .isError(outcome.isLeft())
                    .build();
        };
    }

    /**
     * Installs {@link #toolProvider()} and {@link #unknownToolStrategy()} on an AI service builder.
     *
     * @param <T> the AI service interface
     * @param aiServices the builder
     * @return the same builder
     */
    public <T> AiServices<T> applyTo(AiServices<T> aiServices) {
        requireNonNull(aiServices, "aiServices is null");
        return aiServices.toolProvider(toolProvider()).hallucinatedToolNameStrategy(unknownToolStrategy());
    }

    /**
     * Runs one framework tool call through the boundary, for a harness that drives tools itself.
     *
     * @param request the call as the framework produced it
     * @return the text for the model (see {@link ToolBoundary#agentText})
     */
    public String answer(ToolExecutionRequest request) {
        return ToolBoundary.agentText(invoke(request));
    }

    private Either<BoundaryError, AgentResult> invoke(ToolExecutionRequest request) {
        requireNonNull(request, "request is null");
        RunContext run;
        try {
            run = runContext.get();
        } catch (RuntimeException failure) {
            return Either.left(BoundaryError.of(ErrorCode.INTERNAL_ERROR));
        }
        if (run == null) {
            return Either.left(BoundaryError.of(ErrorCode.INTERNAL_ERROR));
        }
        ToolCallEnvelope envelope = ToolCallEnvelope.of(run.runId().value(), request.id(), request.name(),
                request.arguments());
        return boundary.invoke(run, envelope);
    }

    /** The one LangChain4j executor behind every offered tool. */
    private final class BoundaryToolExecutor implements ToolExecutor {

        @Override
        public String execute(ToolExecutionRequest request, Object memoryId) {
            return answer(request);
        }

        @Override
        public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
            Either<BoundaryError, AgentResult> outcome = invoke(request);
            return ToolExecutionResult.builder()
                    .resultText(ToolBoundary.agentText(outcome))
                    .isError(outcome.isLeft())
                    .build();
        }
    }
}
