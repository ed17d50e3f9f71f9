package io.toolboundary.springaialibaba;

import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallHandler;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallRequest;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallResponse;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.application.ToolFailure;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.vavr.control.Either;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Hands the framework's handler of one tool call to the {@code ToolExecutor} of the boundary's binding, for
 * the length of one {@link ToolBoundary#invoke}. The boundary runs its executor on the calling thread,
 * inside {@code invoke}; the calls pending on a thread form a stack, since a tool may itself run an agent
 * whose tool calls come through the boundary on the same thread.
 */
final class HandlerRelay {

    /**
     * The status {@code LargeResultEvictionInterceptor} gives a result it replaced by a notice and a file path:
     * placed after the boundary, it would put its notice, with the first raw lines, in place of the tool's
     * output; the boundary refuses such a response.
     */
    static final String EVICTED_STATUS = "evicted_to_filesystem";

    /** The tool context key under which the pending call travels to the tools of {@link ReactAgentTools#from}. */
    static final String PENDING_CALL_KEY = "io.toolboundary.pendingToolCall";

    private static final ThreadLocal<Deque<PendingCall>> PENDING = ThreadLocal.withInitial(ArrayDeque::new);

    private HandlerRelay() {
    }

    /** Runs {@code envelope} through {@code boundary}, its tool run by {@code handler} if the boundary runs it. */
    static Either<BoundaryError, AgentResult> invoke(ToolBoundary boundary, RunContext run, ToolCallEnvelope envelope,
            ToolCallRequest request, ToolCallHandler handler) {
        Deque<PendingCall> pending = PENDING.get();
        pending.push(new PendingCall(request, handler));
        try {
            return boundary.invoke(run, envelope);
        } finally {
            pending.pop();
            if (pending.isEmpty()) {
                PENDING.remove();
            }
        }
    }

    /**
     * The executor of every binding made by {@link ReactAgentTools}: runs the pending call's handler once.
     *
     * @throws IllegalStateException when no call of this tool_call_id is pending on this thread (the boundary
     *     was invoked without the interceptor); the boundary ends the record in {@code EXECUTION_FAILED}
     */
    static String execute(ToolRequest request) throws Exception {
        Deque<PendingCall> pending = PENDING.get();
        PendingCall call = pending.peek();
        if (call == null) {
            PENDING.remove();
        }
        if (call == null || !request.key().toolCallId().value().equals(call.request.getToolCallId())) {
            throw new IllegalStateException("no ReactAgent tool call is pending on this thread: a tool bound with"
                    + " ReactAgentTools runs only through a BoundaryToolInterceptor");
        }
        return call.run();
    }

    /** One tool call waiting for the boundary to run it; told by the tool when the tool itself failed. */
    static final class PendingCall {

        private final ToolCallRequest request;
        private final ToolCallHandler handler;
        private volatile boolean toolFailed;

        PendingCall(ToolCallRequest request, ToolCallHandler handler) {
            this.request = request;
            this.handler = handler;
        }

        /** Told by a tool of {@link ReactAgentTools#from} how its latest run ended. */
        void toolEnded(boolean failed) {
            this.toolFailed = failed;
        }

        /**
         * The handler's response as the raw response: its text exactly, or a {@link ToolFailure} keeping
         * the text when the handler answered an error, the tool failed (whatever the framework's exception
         * processor turned that into) or an inner interceptor evicted the result; an exception the handler
         * throws is passed on.
         */
        String run() throws Exception {
            Map<String, Object> context = new HashMap<>(request.getContext());
            context.put(PENDING_CALL_KEY, this);
            ToolCallRequest forwarded = ToolCallRequest.builder(request)
                    .context(context)
                    .executionContext(request.getExecutionContext().orElse(null))
                    .build();
            ToolCallResponse response = handler.call(forwarded);
            if (response == null) {
                return null;
            }
            if (response.isError() || toolFailed || EVICTED_STATUS.equals(response.getStatus())) {
                throw new ToolFailure(response.getResult() == null ? "" : response.getResult());
            }
            return response.getResult();
        }
    }
}
