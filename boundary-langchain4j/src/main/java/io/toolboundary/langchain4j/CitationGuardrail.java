package io.toolboundary.langchain4j;

import static java.util.Objects.requireNonNull;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.guardrail.GuardrailRequestParams;
import dev.langchain4j.guardrail.OutputGuardrail;
import dev.langchain4j.guardrail.OutputGuardrailException;
import dev.langchain4j.guardrail.OutputGuardrailRequest;
import dev.langchain4j.guardrail.OutputGuardrailResult;
import dev.langchain4j.guardrail.config.OutputGuardrailsConfig;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.service.AiServices;
import io.toolboundary.application.RunContext;
import io.toolboundary.citations.CitationCheck;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A LangChain4j {@link OutputGuardrail} that holds each final answer of an AI service against the current
 * run's records with a {@link CitationCheck}: a grounded answer passes unchanged; an ungrounded one is sent
 * back to the model with {@link CitationCheck#feedback the check's feedback} as a reprompt, and LangChain4j
 * checks the revised answer again.
 *
 * <pre>{@code
 * CitationGuardrail citations = CitationGuardrail.of(CitationCheck.of(boundary), tools);
 * Agent agent = tools.applyTo(AiServices.builder(Agent.class).chatModel(model)
 *         .chatMemory(MessageWindowChatMemory.withMaxMessages(50))
 *         .outputGuardrails(citations)
 *         .outputGuardrailsConfig(OutputGuardrailsConfig.builder().maxRetries(3).build())).build();
 * }</pre>
 *
 * <p>The results the model was shown are the {@link ToolExecutionResultMessage}s in the service's chat
 * memory. Each is counted under the run the {@link LangChain4jToolBoundary} answered its id in, so that a
 * citation of an earlier run's result is {@code OTHER_RUN}; an id it does not remember (built from a
 * supplier alone, or beyond {@link LangChain4jToolBoundary#REMEMBERED_CALLS}) counts as the current run's,
 * and a citation of it is then read in the current run's records, where it is not found.
 *
 * <p>Fails closed: when the run is unknown or the store cannot be read, the answer is refused without a
 * reprompt and the service's call throws an {@link OutputGuardrailException} whose message holds
 * {@link #UNCHECKED}. When the last answer LangChain4j allows ({@link OutputGuardrailsConfig#maxRetries()},
 * which counts the answers checked, the first included) is still ungrounded, the call throws an
 * {@link OutputGuardrailException} whose message holds {@link CitationCheck#WITHHELD}. Neither message holds
 * record data.
 *
 * <p>What LangChain4j 1.19 allows it: without a chat memory a guardrail sees no message, so nothing counts
 * as shown (an answer that cites nothing passes) and a reprompt carries the feedback alone. The refused
 * answer stays in the chat memory and the revised one is not added to it. The results of tool calls the
 * model makes while revising are not in the memory; their ids are read in the current run's records.
 *
 * <p>Register the instance with {@link AiServices#outputGuardrails}: it has no constructor that the
 * {@code @OutputGuardrails} annotation could call. Thread-safe; one instance serves all runs.
 */
public final class CitationGuardrail implements OutputGuardrail {

    /** What the caller is told in place of an answer whose citations could not be checked. */
    public static final String UNCHECKED = "The answer was withheld: its citations could not be checked against"
            + " the tool results of this run.";

    private final CitationCheck check;
    private final Supplier<RunContext> runContext;
    private final Function<String, Option<RunId>> runOf;

    private CitationGuardrail(CitationCheck check, Supplier<RunContext> runContext,
            Function<String, Option<RunId>> runOf) {
        this.check = check;
        this.runContext = runContext;
        this.runOf = runOf;
    }

    /**
     * {@return a guardrail for the answers of an agent whose tools are {@code tools}, reading the current run
     * from the same supplier and telling earlier runs' results apart by the ids the tools answered}
     *
     * @param check the check, over the boundary {@code tools} run calls through
     * @param tools the agent's tools
     */
    public static CitationGuardrail of(CitationCheck check, LangChain4jToolBoundary tools) {
        requireNonNull(check, "check is null");
        requireNonNull(tools, "tools is null");
        return new CitationGuardrail(check, tools.runContext(), tools::runOf);
    }

    /**
     * {@return a guardrail that reads the current run from {@code runContext} and counts every result in the
     * chat memory as the current run's}
     *
     * @param check the check, over the boundary the agent's tool calls go through
     * @param runContext the current run, as the tools read it; read once per checked answer
     */
    public static CitationGuardrail of(CitationCheck check, Supplier<RunContext> runContext) {
        requireNonNull(check, "check is null");
        requireNonNull(runContext, "runContext is null");
        return new CitationGuardrail(check, runContext, id -> Option.none());
    }

    /**
     * Checks the model's final answer in one store read.
     *
     * @param request the answer, with the service's chat memory
     * @return success when the answer is grounded; a reprompt with the check's feedback when it is not; a
     *     failure when the run is unknown or the store could not be read
     */
    @Override
    public OutputGuardrailResult validate(OutputGuardrailRequest request) {
        requireNonNull(request, "request is null");
        Either<BoundaryError, CitationReport> checked;
        try {
            RunContext run = runContext.get();
            if (run == null) {
                return failure(UNCHECKED);
            }
            String answer = request.responseFromLLM().aiMessage().text();
            checked = check.check(run.runId(), answer == null ? "" : answer, shown(run.runId(), request));
        } catch (RuntimeException failure) {
            return failure(UNCHECKED);
        }
        if (checked.isLeft()) {
            return failure(UNCHECKED);
        }
        CitationReport report = checked.get();
        return report.grounded() ? success() : reprompt(CitationCheck.WITHHELD, check.feedback(report));
    }

    private List<InvocationKey> shown(RunId current, OutputGuardrailRequest request) {
        GuardrailRequestParams params = request.requestParams();
        ChatMemory memory = params == null ? null : params.chatMemory();
        if (memory == null) {
            return List.of();
        }
        Set<InvocationKey> shown = new LinkedHashSet<>();
        for (ChatMessage message : memory.messages()) {
            if (message instanceof ToolExecutionResultMessage result && result.id() != null) {
                ToolCallId.of(result.id()).forEach(id ->
                        shown.add(InvocationKey.of(runOf.apply(result.id()).getOrElse(current), id)));
            }
        }
        return List.copyOf(shown);
    }
}
