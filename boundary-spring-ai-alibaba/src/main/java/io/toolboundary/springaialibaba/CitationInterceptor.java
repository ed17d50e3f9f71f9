package io.toolboundary.springaialibaba;

import static java.util.Objects.requireNonNull;

import com.alibaba.cloud.ai.graph.agent.interceptor.ModelCallHandler;
import com.alibaba.cloud.ai.graph.agent.interceptor.ModelInterceptor;
import com.alibaba.cloud.ai.graph.agent.interceptor.ModelRequest;
import com.alibaba.cloud.ai.graph.agent.interceptor.ModelResponse;
import io.toolboundary.application.RunContext;
import io.toolboundary.citations.CitationCheck;
import io.toolboundary.citations.CitationReport;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A Spring AI Alibaba {@link ModelInterceptor} that holds the final answer of a {@code ReactAgent} (a model
 * response without tool calls) against the run's records with a {@link CitationCheck}, before the agent
 * keeps it.
 *
 * <p>The run is the {@link RunContext} of the agent call's config ({@link BoundaryRunnableConfig}), as the
 * {@link BoundaryToolInterceptor} finds it. The results the model was shown are the tool responses in the
 * request's messages: each under the run named by its {@link #RUN_ID_KEY} metadata (see
 * {@link ToolResultRunHook}), and under the current run when it carries none.
 *
 * <p>A grounded answer goes out unchanged. An ungrounded one is sent back to the model, with the check's
 * {@linkplain CitationCheck#feedback feedback} after it, for at most {@link Builder#rounds rounds} revisions;
 * a revision that requests tools is not an answer and counts as ungrounded. When no revision is grounded,
 * when the store cannot be read, when the call's config holds no run, or when the response is of a shape
 * this interceptor cannot read, the answer text becomes {@link CitationCheck#WITHHELD}: it fails closed and
 * never shows the model's ungrounded text to the user. Responses that request tools pass unchanged.
 *
 * <p>A streamed response is held until complete, checked, then emitted as one chunk. List this interceptor
 * first among the model interceptors, so that retries and fallbacks run inside it. Thread-safe.
 */
public final class CitationInterceptor extends ModelInterceptor {

    /** This interceptor's name among the agent's interceptors. */
    public static final String NAME = "toolboundary-citations";

    /** The revisions an ungrounded answer gets unless the builder says otherwise. */
    public static final int DEFAULT_ROUNDS = 1;

    /** The metadata key of a tool response message that names the run its results were made in. */
    public static final String RUN_ID_KEY = "io.toolboundary.runId";

    private final CitationCheck check;
    private final int rounds;

    private CitationInterceptor(Builder builder) {
        this.check = builder.check;
        this.rounds = builder.rounds;
    }

    /**
     * {@return an interceptor that gives an ungrounded answer {@value #DEFAULT_ROUNDS} revision}
     *
     * @param check the check every final answer is held against
     */
    public static CitationInterceptor of(CitationCheck check) {
        return builder(check).build();
    }

    /**
     * {@return a builder of an interceptor over {@code check}}
     *
     * @param check the check every final answer is held against
     */
    public static Builder builder(CitationCheck check) {
        return new Builder(requireNonNull(check, "check is null"));
    }

    @Override
    public String getName() {
        return NAME;
    }

    /**
     * {@return the model's response when it requests tools or is grounded, a grounded revision, or the
     * withheld text} Calls the model once, and once more per revision.
     *
     * @param request the model request, with the agent call's config metadata as its context
     * @param handler calls the model (and the interceptors after this one)
     */
    @Override
    public ModelResponse interceptModel(ModelRequest request, ModelCallHandler handler) {
        requireNonNull(request, "request is null");
        requireNonNull(handler, "handler is null");
        ModelResponse response = handler.call(request);
        if (response != null && response.getMessage() instanceof Flux<?> stream) {
            Flux<ChatResponse> held = Mono.fromCallable(() -> settle(request, handler, Answer.of(stream)))
                    .subscribeOn(Schedulers.boundedElastic())
                    .flatMapMany(answer -> answer.chunks().isEmpty() ? Flux.just(answer.chatResponse())
                            : Flux.fromIterable(answer.chunks()));
            return ModelResponse.of(held);
        }
        Answer answer = settle(request, handler, Answer.of(response));
        return answer.response() != null ? answer.response() : ModelResponse.of(answer.message(), answer.chatResponse());
    }

    private Answer settle(ModelRequest request, ModelCallHandler handler, Answer first) {
        if (first.unreadable()) {
            return Answer.withheld(first);
        }
        if (first.message().hasToolCalls()) {
            return first;
        }
        Option<RunContext> run = runContext(request.getContext());
        if (run.isEmpty()) {
            return Answer.withheld(first);
        }
        RunId runId = run.get().runId();
        Set<InvocationKey> shown = shown(runId, request.getMessages());
        Answer answer = first;
        for (int round = 0; ; round++) {
            Either<BoundaryError, CitationReport> checked = check.check(runId, text(answer.message()), shown);
            if (checked.isLeft()) {
                return Answer.withheld(answer);
            }
            if (checked.get().grounded()) {
                return answer;
            }
            if (round >= rounds) {
                return Answer.withheld(answer);
            }
            answer = revised(request, handler, answer, check.feedback(checked.get()));
            if (answer.unreadable() || answer.message().hasToolCalls()) {
                return Answer.withheld(answer);
            }
        }
    }

    private static Answer revised(ModelRequest request, ModelCallHandler handler, Answer answer, String feedback) {
        List<Message> messages = new ArrayList<>(request.getMessages() == null ? List.of() : request.getMessages());
        messages.add(new AssistantMessage(text(answer.message())));
        messages.add(new UserMessage(feedback));
        ModelResponse response = handler.call(ModelRequest.builder(request).messages(messages).build());
        if (response != null && response.getMessage() instanceof Flux<?> stream) {
            return Answer.of(stream);
        }
        return Answer.of(response);
    }

    /** The results in {@code messages}, each under the run its message names, or under {@code current}. */
    static Set<InvocationKey> shown(RunId current, List<Message> messages) {
        Set<InvocationKey> shown = new LinkedHashSet<>();
        if (messages == null) {
            return shown;
        }
        for (Message message : messages) {
            if (message instanceof ToolResponseMessage results) {
                RunId runId = runOf(results).getOrElse(current);
                for (ToolResponseMessage.ToolResponse result : results.getResponses()) {
                    ToolCallId.of(result.id()).forEach(id -> shown.add(InvocationKey.of(runId, id)));
                }
            }
        }
        return shown;
    }

    private static Option<RunId> runOf(ToolResponseMessage results) {
        Object stamped = results.getMetadata().get(RUN_ID_KEY);
        return stamped instanceof String value ? RunId.of(value).toOption() : Option.none();
    }

    private static Option<RunContext> runContext(Map<String, Object> context) {
        return Option.of(context)
                .flatMap(metadata -> Option.of(metadata.get(BoundaryRunnableConfig.RUN_CONTEXT_KEY)))
                .filter(RunContext.class::isInstance)
                .map(RunContext.class::cast);
    }

    private static String text(AssistantMessage message) {
        String text = message.getText();
        return text == null ? "" : text;
    }

    /** Builds a {@link CitationInterceptor}; the default is {@value CitationInterceptor#DEFAULT_ROUNDS} revision. */
    public static final class Builder {

        private final CitationCheck check;
        private int rounds = DEFAULT_ROUNDS;

        private Builder(CitationCheck check) {
            this.check = check;
        }

        /**
         * Sets how many times an ungrounded answer is sent back to the model before it is withheld.
         *
         * @param rounds the revisions, 0 to withhold an ungrounded answer at once
         * @return this builder
         * @throws IllegalArgumentException when {@code rounds} is negative
         */
        public Builder rounds(int rounds) {
            if (rounds < 0) {
                throw new IllegalArgumentException("rounds must not be negative, was " + rounds);
            }
            this.rounds = rounds;
            return this;
        }

        /** {@return the interceptor} */
        public CitationInterceptor build() {
            return new CitationInterceptor(this);
        }
    }

    /** One model response read whole: the message, the chat response it came in, the chunks it was streamed in. */
    private record Answer(AssistantMessage message, ChatResponse chatResponse, List<ChatResponse> chunks,
            ModelResponse response) {

        static Answer of(ModelResponse response) {
            if (response != null && response.getMessage() instanceof AssistantMessage message) {
                ChatResponse chat = response.getChatResponse() != null ? response.getChatResponse()
                        : new ChatResponse(List.of(new Generation(message)));
                return new Answer(message, chat, List.of(), response);
            }
            return new Answer(null, null, List.of(), null);
        }

        static Answer of(Flux<?> stream) {
            List<ChatResponse> chunks = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            List<AssistantMessage.ToolCall> toolCalls = new ArrayList<>();
            for (Object chunk : stream.collectList().block()) {
                if (!(chunk instanceof ChatResponse chat)) {
                    return new Answer(null, null, List.of(), null);
                }
                chunks.add(chat);
                if (chat.getResult() != null && chat.getResult().getOutput() != null) {
                    AssistantMessage part = chat.getResult().getOutput();
                    if (part.getText() != null) {
                        text.append(part.getText());
                    }
                    toolCalls.addAll(part.getToolCalls());
                }
            }
            AssistantMessage message = AssistantMessage.builder().content(text.toString()).toolCalls(toolCalls).build();
            ChatResponse whole = new ChatResponse(List.of(new Generation(message)),
                    chunks.isEmpty() ? new ChatResponseMetadata() : chunks.get(chunks.size() - 1).getMetadata());
            return new Answer(message, whole, List.copyOf(chunks), null);
        }

        /** The withheld text in place of {@code answer}, with its response's metadata (usage) and nothing else. */
        static Answer withheld(Answer answer) {
            AssistantMessage message = new AssistantMessage(CitationCheck.WITHHELD);
            ChatResponseMetadata metadata = answer.chatResponse() == null ? new ChatResponseMetadata()
                    : answer.chatResponse().getMetadata();
            return new Answer(message, new ChatResponse(List.of(new Generation(message)), metadata), List.of(), null);
        }

        boolean unreadable() {
            return message == null;
        }
    }
}
