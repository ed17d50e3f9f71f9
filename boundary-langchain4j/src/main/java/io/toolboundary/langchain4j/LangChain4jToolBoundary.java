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
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Puts a {@link ToolBoundary} under the tools of a LangChain4j {@link AiServices} agent: every tool call
 * goes through {@link ToolBoundary#invoke} and the model sees only {@link ToolBoundary#agentText agent text}.
 *
 * <pre>{@code
 * LangChain4jToolBoundary tools = LangChain4jToolBoundary.of(boundary, harness::currentRun, List.of(logSearchSpec));
 * Agent agent = tools.applyTo(AiServices.builder(Agent.class).chatModel(model)).build();
 * }</pre>
 *
 * <p>The envelope carries the request's id, name and arguments unchanged (a missing id is never generated).
 * The supplier answers a run opened with {@link ToolBoundary#openRun}; it is read once per call, on whatever
 * thread runs tools, so it must not read a thread-local. A supplier that throws or returns {@code null}
 * gives {@code ERROR INTERNAL_ERROR} without calling the boundary. Names the model was not offered also go
 * through the boundary (see {@link #unknownToolStrategy()}). Specifications and the boundary's
 * registrations must name the same tools ({@link #of} refuses otherwise).
 *
 * <p>LangChain4j 1.19 gives two calls equal in id, name and arguments within one message one result slot,
 * so the model sees DUPLICATE_TOOL_CALL for both; the tool still runs once.
 *
 * <p>It remembers the run of the last {@value #REMEMBERED_CALLS} tool call ids it answered, so that a
 * {@link CitationGuardrail} can tell an earlier run's results in the chat memory from the current run's.
 *
 * <p>Thread-safe.
 */
public final class LangChain4jToolBoundary {

    /** How many tool call ids, the most recent, it remembers the run of. */
    public static final int REMEMBERED_CALLS = 10_000;

    private final ToolBoundary boundary;
    private final Supplier<RunContext> runContext;
    private final List<ToolSpecification> specifications;
    private final BoundaryToolExecutor executor = new BoundaryToolExecutor();
    private final RecentRuns recentRuns = new RecentRuns();

    private LangChain4jToolBoundary(ToolBoundary boundary, Supplier<RunContext> runContext,
            List<ToolSpecification> specifications) {
        this.boundary = boundary;
        this.runContext = runContext;
        this.specifications = specifications;
    }

    /**
     * {@return tools for an agent, checked against the boundary}
     *
     * @param boundary the boundary every call goes through; its registered tools are the ones that can run
     * @param runContext the harness's current facts about the run, opened by {@link ToolBoundary#openRun},
     *     read once per tool call
     * @param specifications what the model is told about each tool: exactly one for each tool registered
     *     with the boundary, and none for any other name
     * @throws IllegalArgumentException when a specification's name is not a safe tool name, two
     *     specifications share a name, a specification names a tool the boundary does not register, or a
     *     tool the boundary registers has no specification (the message lists the names)
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
     * {@return a {@link ToolProvider} offering the specifications, each executed through the boundary, for
     * {@link AiServices#toolProvider(ToolProvider)}}
     */
    public ToolProvider toolProvider() {
        return request -> {
            ToolProviderResult.Builder result = ToolProviderResult.builder();
            specifications.forEach(specification -> result.add(specification, executor));
            return result.build();
        };
    }

    /**
     * {@return the answer to a tool name the model was not offered, computed by the boundary like any other call} For
     * {@link AiServices#hallucinatedToolNameStrategy(Function)}; without it, LangChain4j ends the agent's call with an
     * exception.
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
     * {@return the text for the model (see {@link ToolBoundary#agentText}) of one framework tool call run through the
     * boundary} For a harness that drives tools itself.
     *
     * @param request the call as the framework produced it
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
        recentRuns.remember(request.id(), run.runId());
        ToolCallEnvelope envelope = ToolCallEnvelope.of(run.runId().value(), request.id(), request.name(),
                request.arguments());
        return boundary.invoke(run, envelope);
    }

    /** {@return the supplier of the current run, as given to {@link #of}} */
    Supplier<RunContext> runContext() {
        return runContext;
    }

    /**
     * {@return the run this tool call id was last answered under, if it is among the remembered ones}
     *
     * @param toolCallId the id as the framework gave it
     */
    Option<RunId> runOf(String toolCallId) {
        return recentRuns.runOf(toolCallId);
    }

    /** The run of each recently answered tool call id, the oldest forgotten first. */
    private static final class RecentRuns {

        private final Map<String, RunId> runs = new LinkedHashMap<>();

        synchronized void remember(String toolCallId, RunId runId) {
            if (toolCallId == null || ToolCallId.of(toolCallId).isLeft()) {
                return;
            }
            runs.remove(toolCallId);
            runs.put(toolCallId, runId);
            if (runs.size() > REMEMBERED_CALLS) {
                runs.remove(runs.keySet().iterator().next());
            }
        }

        synchronized Option<RunId> runOf(String toolCallId) {
            return Option.of(runs.get(toolCallId));
        }
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
