package io.toolboundary.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.List;

/**
 * The OpenTelemetry GenAI semantic conventions' tool execution span ({@code semantic-conventions-genai} v0.1.0,
 * Development status): span name {@code execute_tool {gen_ai.tool.name}}, observation (and so timer) name
 * {@value #NAME}. Low-cardinality, on every call: {@code gen_ai.operation.name}, {@code gen_ai.tool.name},
 * {@code gen_ai.tool.type} and the boundary's {@code toolboundary.outcome}, {@code toolboundary.evidence},
 * {@code toolboundary.error.code}, {@code toolboundary.replayed}. Span only: {@code gen_ai.tool.call.id},
 * {@code toolboundary.store.duration_ms} (the call's time in store calls, when it reached the store),
 * {@code toolboundary.run.id}, {@code gen_ai.tool.description}, {@code error.type} (on failure only, so it is
 * kept off the timer, whose tag keys must not vary) and the opt-in {@code gen_ai.tool.call.arguments} and
 * {@code gen_ai.tool.call.result}.
 */
public class DefaultToolCallObservationConvention implements ToolCallObservationConvention {

    /** The observation's name: the GenAI conventions' tool execution metric, when a meter handler records it. */
    public static final String NAME = "gen_ai.execute_tool.duration";
    /** The value of {@code gen_ai.operation.name}. */
    public static final String OPERATION = "execute_tool";
    /** The value of {@code gen_ai.tool.type}: every boundary tool is a function the application runs. */
    public static final String TOOL_TYPE = "function";

    /** Key: the GenAI operation. */
    public static final String GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
    /** Key: the tool's name. */
    public static final String GEN_AI_TOOL_NAME = "gen_ai.tool.name";
    /** Key: the tool's type. */
    public static final String GEN_AI_TOOL_TYPE = "gen_ai.tool.type";
    /** Key: the framework's tool_call_id. */
    public static final String GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id";
    /** Key: the tool's description. */
    public static final String GEN_AI_TOOL_DESCRIPTION = "gen_ai.tool.description";
    /** Key (opt-in, sensitive): the call's arguments. */
    public static final String GEN_AI_TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments";
    /** Key (opt-in, sensitive): the bounded text the model got. */
    public static final String GEN_AI_TOOL_CALL_RESULT = "gen_ai.tool.call.result";
    /** Key: the class of error the call ended with, the boundary's error code; absent on success. */
    public static final String ERROR_TYPE = "error.type";
    /** Key: the run. */
    public static final String RUN_ID = "toolboundary.run.id";
    /** Key: how the call ended, as {@link MicrometerBoundaryListener}'s {@code outcome} tag. */
    public static final String OUTCOME = "toolboundary.outcome";
    /** Key: {@code EVIDENCE_FOUND}, {@code NO_EVIDENCE} or {@code none}. */
    public static final String EVIDENCE = "toolboundary.evidence";
    /** Key: the boundary's error code, or {@code none}. */
    public static final String ERROR_CODE = "toolboundary.error.code";
    /** Key: whether the call was answered from an earlier READY record. */
    public static final String REPLAYED = "toolboundary.replayed";
    /** Key: the call's time in store calls, in milliseconds with a fraction; span only. */
    public static final String STORE_DURATION = "toolboundary.store.duration_ms";

    /** Created by {@link ToolSpans}, or by a convention that extends this one. */
    public DefaultToolCallObservationConvention() {
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(ToolCallObservationContext context) {
        return OPERATION + " " + toolName(context);
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(ToolCallObservationContext context) {
        List<KeyValue> values = new ArrayList<>(List.of(
                KeyValue.of(GEN_AI_OPERATION_NAME, OPERATION),
                KeyValue.of(GEN_AI_TOOL_NAME, toolName(context)),
                KeyValue.of(GEN_AI_TOOL_TYPE, TOOL_TYPE),
                KeyValue.of(OUTCOME, outcome(context)),
                KeyValue.of(EVIDENCE, context.outcome().flatMap(Either::toOption).map(result -> result.evidence().name())
                        .getOrElse(MicrometerBoundaryListener.NONE)),
                KeyValue.of(ERROR_CODE, errorCode(context).getOrElse(MicrometerBoundaryListener.NONE)),
                KeyValue.of(REPLAYED, Boolean.toString(context.replayed()))));
        return KeyValues.of(values);
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(ToolCallObservationContext context) {
        List<KeyValue> values = new ArrayList<>();
        values.add(KeyValue.of(RUN_ID, context.run().runId().value()));
        toolCallId(context).forEach(id -> values.add(KeyValue.of(GEN_AI_TOOL_CALL_ID, id)));
        // Bounded, but present on failure only: as a span attribute, so a timer's tag keys never vary.
        errorCode(context).forEach(code -> values.add(KeyValue.of(ERROR_TYPE, code)));
        context.description().forEach(text -> values.add(KeyValue.of(GEN_AI_TOOL_DESCRIPTION, text)));
        context.arguments().forEach(text -> values.add(KeyValue.of(GEN_AI_TOOL_CALL_ARGUMENTS, text)));
        context.resultText().forEach(text -> values.add(KeyValue.of(GEN_AI_TOOL_CALL_RESULT, text)));
        context.storeTime().forEach(elapsed -> values.add(KeyValue.of(STORE_DURATION,
                java.math.BigDecimal.valueOf(elapsed.toNanos(), 6).toPlainString())));
        return KeyValues.of(values);
    }

    /** {@return the registered tool's name, or {@value MicrometerBoundaryListener#UNKNOWN_TOOL}} */
    private static String toolName(ToolCallObservationContext context) {
        return context.tool().getOrElse(MicrometerBoundaryListener.UNKNOWN_TOOL);
    }

    /** The record's tool_call_id, else the envelope's when it is a safe identifier: never the model's raw text. */
    private static Option<String> toolCallId(ToolCallObservationContext context) {
        return context.record().map(kept -> kept.key().toolCallId().value())
                .orElse(() -> ToolCallId.of(context.envelope().toolCallId()).toOption().map(ToolCallId::value));
    }

    private static Option<String> errorCode(ToolCallObservationContext context) {
        return context.outcome().filter(Either::isLeft).map(Either::getLeft).map(BoundaryError::code).map(Enum::name);
    }

    private static String outcome(ToolCallObservationContext context) {
        if (context.replayed()) {
            return MicrometerBoundaryListener.OUTCOME_REPLAYED;
        }
        Option<Either<BoundaryError, AgentResult>> ended = context.outcome();
        if (ended.isEmpty()) {
            return MicrometerBoundaryListener.NONE;
        }
        if (ended.get().isRight()) {
            return MicrometerBoundaryListener.OUTCOME_READY;
        }
        if (context.internalError()) {
            return MicrometerBoundaryListener.OUTCOME_INTERNAL_ERROR;
        }
        if (context.storeFailed()) {
            return MicrometerBoundaryListener.OUTCOME_STORE_FAILED;
        }
        Option<CanonicalRecord> kept = context.record();
        return kept.isDefined() && kept.get() instanceof CanonicalRecord.Failed
                ? MicrometerBoundaryListener.OUTCOME_ERROR : MicrometerBoundaryListener.OUTCOME_REJECTED;
    }
}
