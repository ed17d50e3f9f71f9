package io.toolboundary.springaialibaba;

import static java.util.Objects.requireNonNull;

import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallExecutionContext;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallHandler;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallRequest;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallResponse;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolInterceptor;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.Map;

/**
 * A Spring AI Alibaba {@link ToolInterceptor} that puts every tool call of a {@code ReactAgent} through
 * {@link ToolBoundary#invoke}, once.
 *
 * <p>The envelope carries the run id of the opened {@link RunContext} in the call's {@code RunnableConfig}
 * ({@link BoundaryRunnableConfig}; without one: {@code RUN_NOT_OPENED}, boundary not called) and the request's
 * id, tool name and arguments exactly as sent. The tool runs once, through the framework's {@code handler}
 * as this call's executor; its output is the raw response byte for byte, and a handler error or a thrown
 * tool ends {@code EXECUTION_FAILED}. The answer, with the same id and name, is the
 * {@link ToolBoundary#agentText agent text}; a refusal is an error response ({@code errorCode} metadata),
 * never an exception. Tools must be bound with {@link ReactAgentTools#readOnly} or
 * {@link ReactAgentTools#handler()}.
 *
 * <p>Interceptors listed after this one run inside one attempt on the raw output (put a
 * {@code ToolRetryInterceptor} there); those before it see bounded text only (put a
 * {@code LargeResultEvictionInterceptor} there, or leave it out: a result evicted after the boundary ends
 * {@code EXECUTION_FAILED}). Thread-safe.
 */
public final class BoundaryToolInterceptor extends ToolInterceptor {

    /** This interceptor's name among the agent's interceptors. */
    public static final String NAME = "toolboundary";

    private final ToolBoundary boundary;

    private BoundaryToolInterceptor(ToolBoundary boundary) {
        this.boundary = boundary;
    }

    /**
     * {@return an interceptor over {@code boundary}}
     *
     * @param boundary the boundary every tool call runs through
     */
    public static BoundaryToolInterceptor of(ToolBoundary boundary) {
        return new BoundaryToolInterceptor(requireNonNull(boundary, "boundary is null"));
    }

    @Override
    public String getName() {
        return NAME;
    }

    /**
     * {@return the response carrying the request's id and name and the text the model may see} Runs the tool call
     * through the boundary.
     *
     * @param request the tool call as the model requested it, with the agent call's config
     * @param handler runs the tool (and the interceptors after this one); called at most once
     */
    @Override
    public ToolCallResponse interceptToolCall(ToolCallRequest request, ToolCallHandler handler) {
        requireNonNull(request, "request is null");
        requireNonNull(handler, "handler is null");
        Option<RunContext> run = Option.ofOptional(request.getExecutionContext())
                .map(ToolCallExecutionContext::config)
                .flatMap(BoundaryRunnableConfig::runContext);
        Either<BoundaryError, AgentResult> answer = run.isEmpty()
                ? Either.left(BoundaryError.of(ErrorCode.RUN_NOT_OPENED))
                : boundary.invoke(run.get(), ToolCallEnvelope.of(run.get().runId().value(), request.getToolCallId(),
                        request.getToolName(), request.getArguments()), new HandlerCall(request, handler));
        return response(request, answer);
    }

    private static ToolCallResponse response(ToolCallRequest request, Either<BoundaryError, AgentResult> answer) {
        ToolCallResponse.Builder response = ToolCallResponse.builder()
                .toolCallId(request.getToolCallId())
                .toolName(request.getToolName())
                .content(ToolBoundary.agentText(answer));
        if (answer.isLeft()) {
            response.status("error").metadata(Map.of("error", true, "errorCode", answer.getLeft().code().name()));
        }
        return response.build();
    }
}
