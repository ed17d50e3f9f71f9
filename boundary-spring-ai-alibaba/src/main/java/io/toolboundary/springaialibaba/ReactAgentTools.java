package io.toolboundary.springaialibaba;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolExecutor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.execution.ToolCallResultConverter;
import org.springframework.ai.tool.metadata.ToolMetadata;
import org.springframework.ai.tool.method.MethodToolCallback;
import org.springframework.ai.tool.support.ToolDefinitions;
import org.springframework.ai.util.json.JsonParser;
import org.springframework.aop.support.AopUtils;

/**
 * The two halves of a {@code ReactAgent} tool under the boundary: the {@link ToolBinding} the boundary
 * registers, whose call runs with the framework's handler, and the {@link ToolCallback}s the agent offers.
 *
 * <pre>{@code
 * ToolBoundary boundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowOnly("log_query"))
 *         .tool(ReactAgentTools.readOnly("log_query", new LogQueryProjector()))
 *         .build();
 * ReactAgent agent = ReactAgent.builder().name("aiops").model(chatModel)
 *         .tools(ReactAgentTools.from(new LogTools()))            // the @Tool methods, raw output kept
 *         .interceptors(BoundaryToolInterceptor.of(boundary))
 *         .build();
 * }</pre>
 *
 * <p>Use {@link #from} rather than {@code methodTools(...)}, whose converter JSON-encodes a {@code String}:
 * its callbacks keep a {@code String} exactly and tell the boundary when the method threw. Without a
 * {@link BoundaryToolInterceptor}, a binding made here answers {@code EXECUTION_FAILED}.
 */
public final class ReactAgentTools {

    private static final ToolCallResultConverter RAW_RESULT = ReactAgentTools::raw;

    private static final ToolExecutor NO_HANDLER = request -> {
        throw new IllegalStateException("no ReactAgent tool call handler: a tool bound with ReactAgentTools runs"
                + " only through a BoundaryToolInterceptor");
    };

    private ReactAgentTools() {
    }

    /**
     * A read-only tool run by the framework's handler of each call, which the {@link BoundaryToolInterceptor}
     * passes to the boundary with the call; the same as
     * {@code ToolBinding.readOnly(name, ReactAgentTools.handler(), projector)}.
     *
     * @param name the tool's name, as the agent's tool callback names it
     * @param projector turns the tool's raw output into the bounded result the model sees
     * @return the binding, with an unlimited per-run budget ({@link ToolBinding#withCallBudgetPerRun} sets one)
     */
    public static ToolBinding readOnly(String name, Projector projector) {
        return ToolBinding.readOnly(name, handler(), projector);
    }

    /**
     * {@return the executor of every binding whose calls the {@link BoundaryToolInterceptor} runs, for bindings made
     * by hand} The interceptor runs each call with the framework's handler in its place; this executor runs nothing
     * and fails, so a call without the interceptor ends {@code EXECUTION_FAILED}.
     */
    public static ToolExecutor handler() {
        return NO_HANDLER;
    }

    /**
     * The agent's tool callbacks of the {@link Tool @Tool} methods of {@code toolObjects}, ordered by
     * tool name, whose results are the tools' own output.
     *
     * @param toolObjects objects with {@code @Tool} methods (Spring proxies are looked through)
     * @return one callback per {@code @Tool} method
     * @throws IllegalArgumentException when an object has no {@code @Tool} method or two tools share a name
     */
    public static List<ToolCallback> from(Object... toolObjects) {
        requireNonNull(toolObjects, "toolObjects is null");
        List<ToolCallback> callbacks = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Object toolObject : toolObjects) {
            requireNonNull(toolObject, "a tool object is null");
            List<Method> methods = Arrays.stream(AopUtils.getTargetClass(toolObject).getMethods())
                    .filter(method -> method.isAnnotationPresent(Tool.class) && !Modifier.isStatic(method.getModifiers()))
                    .sorted(Comparator.comparing(method -> ToolDefinitions.from(method).name()))
                    .toList();
            if (methods.isEmpty()) {
                throw new IllegalArgumentException("toolObjects: " + toolObject.getClass().getName()
                        + " has no public @Tool method");
            }
            for (Method method : methods) {
                MethodToolCallback callback = new MethodToolCallback(ToolDefinitions.from(method),
                        ToolMetadata.from(method), method, toolObject, RAW_RESULT);
                if (!names.add(callback.getToolDefinition().name())) {
                    throw new IllegalArgumentException("toolObjects: two tools are named "
                            + callback.getToolDefinition().name());
                }
                callbacks.add(new ReportingToolCallback(callback));
            }
        }
        return List.copyOf(callbacks);
    }

    /**
     * A sub-agent as a supervisor's tool, in place of {@code AgentTool.getFunctionToolCallback(agent)} (same
     * name, description and schema), run under the supervisor call's run, so its tool calls find the run
     * instead of {@code RUN_NOT_OPENED}. Its raw output is the sub-agent's final answer.
     *
     * @param agent the sub-agent, built with a {@link BoundaryToolInterceptor} of its own
     * @return the supervisor's tool callback that runs {@code agent}
     */
    public static ToolCallback subAgent(com.alibaba.cloud.ai.graph.agent.ReactAgent agent) {
        requireNonNull(agent, "agent is null");
        return new ReportingToolCallback(new SubAgentToolCallback(agent));
    }

    private static String raw(Object result, Type returnType) {
        if (result == null || returnType == void.class || returnType == Void.class) {
            return "";
        }
        if (result instanceof String text) {
            return text;
        }
        return JsonParser.toJson(result);
    }
}
