package io.toolboundary.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.toolboundary.application.BoundaryListener;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One Micrometer {@link Observation} per {@link ToolBoundary#invoke}: with a tracing handler, the OpenTelemetry
 * GenAI tool execution span (see {@link DefaultToolCallObservationConvention}). Started in
 * {@link #onStarted} on the calling thread, so the span is a child of whatever observation is current there
 * (the framework's own tool span), and in scope until {@link #onFinished} stops it, with an error when the
 * agent got one. Install it with {@code ToolBoundaryBuilder.listener}, alone or in
 * {@link BoundaryListener#composite}. Thread-safe.
 */
public final class ToolSpans implements BoundaryListener {

    /** A call in progress on this thread: its envelope, observation and scope. */
    private record Call(ToolCallEnvelope envelope, ToolCallObservationContext context, Observation observation,
            Observation.Scope scope) {
    }

    private static final DefaultToolCallObservationConvention DEFAULT = new DefaultToolCallObservationConvention();

    private final ObservationRegistry registry;
    private final ToolCallObservationConvention convention;
    private final Set<String> registeredTools;
    private final Map<String, String> descriptions;
    private final boolean captureContent;
    /** The calls in progress on each thread, innermost first: a tool may call the boundary again. */
    private final ThreadLocal<Deque<Call>> calls = ThreadLocal.withInitial(ArrayDeque::new);

    private ToolSpans(Builder builder) {
        this.registry = builder.registry;
        this.convention = builder.convention;
        this.registeredTools = builder.registeredTools;
        this.descriptions = builder.descriptions;
        this.captureContent = builder.captureContent;
    }

    /**
     * {@return a builder of the listener; content capture is off}
     *
     * @param registry the observation registry, with the application's tracing handler
     */
    public static Builder builder(ObservationRegistry registry) {
        return new Builder(requireNonNull(registry, "registry is null"));
    }

    /**
     * {@return a listener with the default convention, no content captured}
     *
     * @param registry the observation registry, with the application's tracing handler
     */
    public static ToolSpans of(ObservationRegistry registry) {
        return builder(registry).build();
    }

    @Override
    public void onStarted(RunContext run, ToolCallEnvelope envelope) {
        Option<String> tool = registeredTools.contains(envelope.toolName()) ? Option.some(envelope.toolName())
                : Option.none();
        ToolCallObservationContext context = new ToolCallObservationContext(run, envelope, tool);
        context.described(tool.flatMap(name -> Option.of(descriptions.get(name))));
        Observation observation = Observation.createNotStarted(convention, DEFAULT, () -> context, registry).start();
        calls.get().push(new Call(envelope, context, observation, observation.openScope()));
    }

    @Override
    public void onCompleted(CanonicalRecord.Final record) {
        current(record.key()).forEach(call -> call.context().recorded(record, false));
    }

    @Override
    public void onReplayed(CanonicalRecord.Ready record) {
        current(record.key()).forEach(call -> call.context().recorded(record, true));
    }

    @Override
    public void onStoreTime(InvocationKey key, java.time.Duration elapsed) {
        current(key).forEach(call -> call.context().spentInStore(elapsed));
    }

    @Override
    public void onStoreFailed(InvocationKey key, BoundaryError error) {
        current(key).forEach(call -> call.context().storeFailedToRecord());
    }

    @Override
    public void onUnexpectedFailure(Class<? extends Throwable> failure) {
        Call top = calls.get().peek();
        if (top != null) {
            top.context().failedInternally();
        }
    }

    @Override
    public void onFinished(RunContext run, ToolCallEnvelope envelope, Either<BoundaryError, AgentResult> outcome) {
        Deque<Call> open = calls.get();
        Call call = open.peek();
        if (call == null || call.envelope() != envelope) {
            return;
        }
        open.pop();
        if (open.isEmpty()) {
            calls.remove();
        }
        ToolCallObservationContext context = call.context();
        boolean admitted = context.record().isDefined();
        context.ended(outcome,
                captureContent && admitted ? Option.some(envelope.arguments()) : Option.none(),
                captureContent ? Option.some(ToolBoundary.agentText(outcome)) : Option.none());
        try {
            if (outcome.isLeft()) {
                call.observation().error(new ToolCallFailure(outcome.getLeft()));
            }
        } finally {
            call.scope().close();
            call.observation().stop();
        }
    }

    /** The innermost call on this thread, when it is the call of {@code key}. */
    private Option<Call> current(InvocationKey key) {
        Call top = calls.get().peek();
        if (top == null || !top.context().run().runId().equals(key.runId())
                || !top.envelope().toolCallId().equals(key.toolCallId().value())) {
            return Option.none();
        }
        return Option.some(top);
    }

    /**
     * The error a tool span ends with when the agent got a {@link BoundaryError}: its message is the stable code,
     * never a tool's or store's text, and it has no stack trace.
     */
    public static final class ToolCallFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /** The error the agent got. */
        private final transient BoundaryError error;

        ToolCallFailure(BoundaryError error) {
            super(error.code().name(), null, false, false);
            this.error = error;
        }

        /** {@return the error the agent got} */
        public BoundaryError error() {
            return error;
        }
    }

    /** Builds a {@link ToolSpans}; see {@link ToolSpans#builder(ObservationRegistry)}. */
    public static final class Builder {

        private final ObservationRegistry registry;
        private ToolCallObservationConvention convention;
        private Set<String> registeredTools = Set.of();
        private Map<String, String> descriptions = Map.of();
        private boolean captureContent;

        private Builder(ObservationRegistry registry) {
            this.registry = registry;
        }

        /**
         * {@return this builder} Replaces {@link DefaultToolCallObservationConvention}; the observation registry
         * may still replace both with a global convention.
         *
         * @param custom the convention
         */
        public Builder convention(ToolCallObservationConvention custom) {
            this.convention = requireNonNull(custom, "convention is null");
            return this;
        }

        /**
         * {@return this builder} The names of the registered tools, so that a call refused before its record
         * was begun keeps its tool's name; any other name is {@value MicrometerBoundaryListener#UNKNOWN_TOOL}.
         *
         * @param names the tools' names
         * @throws IllegalArgumentException when a name is not a safe tool name
         */
        public Builder registeredTools(Collection<String> names) {
            requireNonNull(names, "names is null");
            this.registeredTools = names.stream()
                    .map(name -> new ToolName(requireNonNull(name, "names holds null")).value())
                    .collect(Collectors.toUnmodifiableSet());
            return this;
        }

        /**
         * {@return this builder} The tools' descriptions, for {@code gen_ai.tool.description}; a description of a
         * tool also registers its name (see {@link #registeredTools(Collection)}).
         *
         * @param byTool description by tool name
         */
        public Builder descriptions(Map<String, String> byTool) {
            this.descriptions = Map.copyOf(requireNonNull(byTool, "byTool is null"));
            registeredTools(Stream.concat(registeredTools.stream(), descriptions.keySet().stream())
                    .distinct().toList());
            return this;
        }

        /**
         * {@return this builder} Off by default. When on, a span carries {@code gen_ai.tool.call.arguments} (the
         * arguments of a call that passed preflight, within the boundary's argument limit) and
         * {@code gen_ai.tool.call.result} (the bounded text the model got, {@link ToolBoundary#agentText}; never
         * the raw response). Both are sensitive: turn it on only where the trace backend may hold them.
         *
         * @param capture whether to capture the call's content
         */
        public Builder captureContent(boolean capture) {
            this.captureContent = capture;
            return this;
        }

        /** {@return the listener} */
        public ToolSpans build() {
            return new ToolSpans(this);
        }
    }
}
