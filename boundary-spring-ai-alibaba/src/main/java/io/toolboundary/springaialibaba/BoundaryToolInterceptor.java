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
 * {@link ToolBoundary#invoke}, once: {@code ReactAgent.builder()...interceptors(boundaryInterceptor)}.
 *
 * <p>For each {@link ToolCallRequest} it builds a {@link ToolCallEnvelope} with
 * <ul>
 *   <li>the run id of the opened {@link RunContext} in the agent call's {@code RunnableConfig}
 *       ({@link BoundaryRunnableConfig}); never anything the model sent. Without a run there, the call is
 *       answered {@code RUN_NOT_OPENED} and the tool does not run (the boundary is not called, so its
 *       listener is not told); a run never opened is answered the same by the boundary;</li>
 *   <li>the request's {@code tool_call_id} exactly as the model's response carries it: a missing one is
 *       passed on as missing ({@code TOOL_CALL_ID_MISSING}); no id is ever made up;</li>
 *   <li>the tool name and the arguments text exactly as the model sent them.</li>
 * </ul>
 * When the boundary runs the tool, the tool runs through the framework's {@code handler} (so the agent's
 * own tool resolution, tool context and inner interceptors apply), once: the handler is this call's
 * executor, passed with it to {@link ToolBoundary#invoke(RunContext, ToolCallEnvelope,
 * io.toolboundary.application.ToolExecutor)}. Its raw response is what the
 * handler returns, byte for byte (see {@link ReactAgentTools#from} for {@code @Tool} methods); a handler
 * that answers an error, or whose tool threw, ends the record in {@code EXECUTION_FAILED} with that text
 * kept for the harness. The answer is a {@link ToolCallResponse} with the same id and name whose text is
 * the {@link ToolBoundary#agentText agent text} of the outcome; a refused or failed call is an error response
 * ({@code status "error"}, metadata {@code errorCode}), never an exception, and the agent's other calls of
 * the same turn still run.
 *
 * <p>The tools the boundary runs must be bound with {@link ReactAgentTools#readOnly} (or
 * {@link ReactAgentTools#handler()}); a tool the boundary does not register is answered
 * {@code TOOL_NOT_REGISTERED} and not run.
 *
 * <p>Order among the agent's interceptors (the first is outermost): interceptors listed after this one run
 * inside one boundary attempt, on the raw output; those listed before see only the bounded text. Put a
 * {@code ToolRetryInterceptor} after it (a retry is then part of the one attempt and its one record; before
 * it, it never retries, since this interceptor answers and never throws); put a
 * {@code LargeResultEvictionInterceptor} before it, where it sees only bounded text, or leave it out: a
 * result it evicts after the boundary (its notice and the first raw lines in place of the tool's output) is
 * refused, the call ending {@code EXECUTION_FAILED} with the notice kept for the harness. Thread-safe:
 * parallel tool execution runs each call of a turn through the boundary once.
 */
public final class BoundaryToolInterceptor extends ToolInterceptor {

    /** This interceptor's name among the agent's interceptors. */
    public static final String NAME = "toolboundary";

    private final ToolBoundary boundary;

    private BoundaryToolInterceptor(ToolBoundary boundary) {
        this.boundary = boundary;
    }

    /**
     * An interceptor over {@code boundary}.
     *
     * @param boundary the boundary every tool call runs through
     * @return the interceptor
     */
    public static BoundaryToolInterceptor of(ToolBoundary boundary) {
        return new BoundaryToolInterceptor(requireNonNull(boundary, "boundary is null"));
    }

    @Override
    public String getName() {
        return NAME;
    }

    /**
     * Runs the tool call through the boundary.
     *
     * @param request the tool call as the model requested it, with the agent call's config
     * @param handler runs the tool (and the interceptors after this one); called at most once
     * @return the response carrying the request's id and name and the text the model may see
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
