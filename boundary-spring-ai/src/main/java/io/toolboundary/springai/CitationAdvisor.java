package io.toolboundary.springai;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.RunContext;
import io.toolboundary.citations.CitationCheck;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.core.Ordered;

/**
 * A {@link org.springframework.ai.chat.client.ChatClient} advisor that holds each answer's citations
 * against the run's canonical records with a {@link CitationCheck} before the caller sees it.
 *
 * <p>The run is the {@link RunContext} of the request's tool context ({@link BoundaryToolContext}). The
 * results the model was shown are the tool calls {@link BoundaryToolCallingManager} runs in this request
 * (the advisor passes it a collector in the tool context, which goes to the manager and never to the
 * model) and the tool responses already in the request's messages: under the run the manager stamped on
 * them, else under this run. A grounded answer goes out unchanged. An ungrounded one is sent back to the
 * model, with the tool exchanges of the request, the answer and {@link CitationCheck#feedback the check's
 * feedback}, for up to {@link Builder#reviseRounds} rounds through the rest of the advisor chain; an answer
 * still ungrounded, or one the store could not check, is replaced by {@link CitationCheck#WITHHELD}.
 *
 * <p>Each checked answer (each generation of a response) is one store read. The advisor must run outside
 * the tool calling loop: its {@linkplain #DEFAULT_ORDER default order} wraps Spring AI's tool calling
 * advisor. Only calls are checked: this is not a {@code StreamAdvisor}, and a streamed answer passes
 * unchecked. Thread-safe; one instance serves all requests.
 */
public final class CitationAdvisor implements CallAdvisor {

    /** The default order: before Spring AI's tool calling advisor ({@code HIGHEST_PRECEDENCE + 300}), so outside it. */
    public static final int DEFAULT_ORDER = Ordered.HIGHEST_PRECEDENCE + 200;
    /** How many times an ungrounded answer is sent back to the model by default. */
    public static final int DEFAULT_REVISE_ROUNDS = 1;

    private final CitationCheck check;
    private final int reviseRounds;
    private final int order;

    private CitationAdvisor(Builder builder) {
        this.check = builder.check;
        this.reviseRounds = builder.reviseRounds;
        this.order = builder.order;
    }

    /**
     * {@return an advisor with {@code check}, {@value #DEFAULT_REVISE_ROUNDS} revise round and the default order}
     *
     * @param check the check every answer is held against
     */
    public static CitationAdvisor of(CitationCheck check) {
        return builder(check).build();
    }

    /**
     * {@return a builder of an advisor with {@code check}}
     *
     * @param check the check every answer is held against
     */
    public static Builder builder(CitationCheck check) {
        return new Builder(check);
    }

    @Override
    public String getName() {
        return "CitationAdvisor";
    }

    @Override
    public int getOrder() {
        return order;
    }

    /**
     * Asks the rest of the chain, then checks the answer and asks again or withholds it as needed.
     *
     * @param request the caller's request, whose tool context holds the run
     * @param chain the advisors after this one
     * @return the grounded response, or the response with {@link CitationCheck#WITHHELD} as its answer
     * @throws IllegalStateException when the request has no tool calling options or its tool context holds
     *     no {@link RunContext} (a harness error: the model is not asked)
     */
    @Override
    public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
        requireNonNull(request, "request is null");
        requireNonNull(chain, "chain is null");
        if (!(request.prompt().getOptions() instanceof ToolCallingChatOptions options)) {
            throw new IllegalStateException("the request has no tool calling options, so no RunContext: pass"
                    + " BoundaryToolContext.of(run) as the tool context");
        }
        Map<String, Object> toolContext = options.getToolContext() == null ? Map.of() : options.getToolContext();
        RunId runId = BoundaryToolContext.runContext(toolContext).map(RunContext::runId)
                .getOrElseThrow(() -> new IllegalStateException("the request's tool context holds no RunContext;"
                        + " pass BoundaryToolContext.of(run) as the tool context"));
        ShownResults shown = new ShownResults();
        Map<String, Object> tracked = new HashMap<>(toolContext);
        tracked.put(ShownResults.KEY, shown);
        ChatOptions trackedOptions = ToolContextOptions.with(options, tracked);
        List<Message> conversation = new ArrayList<>(request.prompt().getInstructions());
        List<InvocationKey> inPrompt = ShownResults.keysIn(conversation, runId);

        ChatClientResponse response = ask(chain, request, conversation, trackedOptions);
        int exchangesSeen = 0;
        for (int round = 0; ; round++) {
            Option<Ungrounded> ungrounded = firstUngrounded(runId, response, inPrompt, shown);
            if (ungrounded.isEmpty()) {
                return response;
            }
            if (ungrounded.get().report() == null || round >= reviseRounds) {
                return withheld(response);
            }
            List<Message> exchanges = shown.exchanges();
            conversation.addAll(exchanges.subList(exchangesSeen, exchanges.size()));
            exchangesSeen = exchanges.size();
            conversation.add(new AssistantMessage(ungrounded.get().answer()));
            conversation.add(new UserMessage(check.feedback(ungrounded.get().report())));
            response = ask(chain, request, conversation, trackedOptions);
        }
    }

    private ChatClientResponse ask(CallAdvisorChain chain, ChatClientRequest request, List<Message> conversation,
            ChatOptions options) {
        ChatClientRequest next = request.mutate().prompt(new Prompt(List.copyOf(conversation), options)).build();
        return chain.copy(this).nextCall(next);
    }

    /** The first answer of the response that is not grounded: its report, or none when the store failed. */
    private Option<Ungrounded> firstUngrounded(RunId runId, ChatClientResponse response, List<InvocationKey> inPrompt,
            ShownResults shown) {
        ChatResponse chatResponse = response.chatResponse();
        if (chatResponse == null) {
            return Option.none();
        }
        Set<InvocationKey> keys = new LinkedHashSet<>(inPrompt);
        keys.addAll(shown.keys());
        for (Generation generation : chatResponse.getResults()) {
            String answer = generation.getOutput() == null || generation.getOutput().getText() == null
                    ? "" : generation.getOutput().getText();
            Option<CitationReport> report = check.check(runId, answer, keys).toOption();
            if (report.isEmpty() || !report.get().grounded()) {
                return Option.some(new Ungrounded(answer, report.getOrNull()));
            }
        }
        return Option.none();
    }

    private static ChatClientResponse withheld(ChatClientResponse response) {
        ChatResponse chatResponse = response.chatResponse();
        List<Generation> generations = chatResponse.getResults().stream()
                .map(generation -> new Generation(new AssistantMessage(CitationCheck.WITHHELD), generation.getMetadata()))
                .toList();
        return response.mutate()
                .chatResponse(ChatResponse.builder().from(chatResponse).generations(generations).build())
                .build();
    }

    /** An answer and its report; no report when the store could not check it. */
    private record Ungrounded(String answer, CitationReport report) {
    }

    /** Builds a {@link CitationAdvisor}. */
    public static final class Builder {

        private final CitationCheck check;
        private int reviseRounds = DEFAULT_REVISE_ROUNDS;
        private int order = DEFAULT_ORDER;

        private Builder(CitationCheck check) {
            this.check = requireNonNull(check, "check is null");
        }

        /**
         * How many times an ungrounded answer is sent back to the model with the check's feedback;
         * {@value CitationAdvisor#DEFAULT_REVISE_ROUNDS} when not set, 0 to withhold it at once.
         *
         * @param reviseRounds the rounds, not negative
         * @return this builder
         * @throws IllegalArgumentException when negative
         */
        public Builder reviseRounds(int reviseRounds) {
            if (reviseRounds < 0) {
                throw new IllegalArgumentException("reviseRounds must not be negative, was " + reviseRounds);
            }
            this.reviseRounds = reviseRounds;
            return this;
        }

        /**
         * The advisor's order in the chain; {@link CitationAdvisor#DEFAULT_ORDER} when not set. Keep it lower
         * than the tool calling advisor's, so the check sees the final answer.
         *
         * @param order the order, lower runs further outside
         * @return this builder
         */
        public Builder order(int order) {
            this.order = order;
            return this;
        }

        /** {@return the advisor} */
        public CitationAdvisor build() {
            return new CitationAdvisor(this);
        }
    }
}
