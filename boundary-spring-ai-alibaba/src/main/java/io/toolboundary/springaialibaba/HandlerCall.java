package io.toolboundary.springaialibaba;

import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallHandler;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallRequest;
import com.alibaba.cloud.ai.graph.agent.interceptor.ToolCallResponse;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolFailure;
import io.toolboundary.application.ToolRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * One {@code ReactAgent} tool call as the executor of its own {@link ToolBoundary#invoke}, so the framework's
 * handler reaches the boundary directly on any thread and however calls nest. The tools of
 * {@link ReactAgentTools#from} tell it through the tool context whether they threw.
 */
final class HandlerCall implements ToolExecutor {

    /**
     * The status {@code LargeResultEvictionInterceptor} gives a result it replaced by a notice and a file path:
     * placed after the boundary, it would put its notice, with the first raw lines, in place of the tool's
     * output; the boundary refuses such a response.
     */
    static final String EVICTED_STATUS = "evicted_to_filesystem";

    /** The tool context key under which the call travels to the tools of {@link ReactAgentTools#from}. */
    static final String TOOL_CONTEXT_KEY = "io.toolboundary.toolCall";

    private final ToolCallRequest request;
    private final ToolCallHandler handler;
    private volatile boolean toolFailed;

    HandlerCall(ToolCallRequest request, ToolCallHandler handler) {
        this.request = request;
        this.handler = handler;
    }

    /** Told by a tool of {@link ReactAgentTools#from} how its latest run ended. */
    void toolEnded(boolean failed) {
        this.toolFailed = failed;
    }

    /**
     * Runs the handler once: its text is the raw response, or a {@link ToolFailure} keeps it when the handler
     * answered an error, the tool failed or an inner interceptor evicted the result.
     *
     * @param checked the call as the boundary checked it (the same call as {@link #request})
     */
    @Override
    public String execute(ToolRequest checked) throws Exception {
        Map<String, Object> context = new HashMap<>(request.getContext());
        context.put(TOOL_CONTEXT_KEY, this);
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
