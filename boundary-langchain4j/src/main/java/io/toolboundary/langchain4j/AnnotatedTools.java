package io.toolboundary.langchain4j;

import static java.util.Objects.requireNonNull;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import dev.langchain4j.service.tool.ToolExecutionResult;
import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolExecutor;
import io.toolboundary.domain.ToolName;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tools declared once, as LangChain4j {@link Tool @Tool} methods: each method gives both the
 * {@link ToolSpecification} the model is shown and the executor the boundary runs
 * ({@code LangChain4jToolBoundary.of(boundary, run, annotated.specifications())}).
 *
 * <p>The raw response is the method's {@code String} as returned, else its result as LangChain4j serialises
 * it (JSON). An exception it throws reaches the boundary (EXECUTION_FAILED), never the model.
 *
 * <p>Immutable and thread-safe as far as the tool objects are.
 */
public final class AnnotatedTools {

    private final Map<String, AnnotatedTool> tools;

    private AnnotatedTools(Map<String, AnnotatedTool> tools) {
        this.tools = tools;
    }

    /**
     * The {@code @Tool} methods of {@code toolObjects}, named as LangChain4j names them (the annotation's
     * {@code name}, else the method's name).
     *
     * @throws IllegalArgumentException when an object has no {@code @Tool} method, a name is not a safe tool
     *     name, or two methods share a name
     * @param toolObjects objects with {@code @Tool} methods
     * @return their tools, by name
     */
    public static AnnotatedTools from(Object... toolObjects) {
        requireNonNull(toolObjects, "toolObjects is null");
        Map<String, AnnotatedTool> tools = new LinkedHashMap<>();
        for (Object toolObject : toolObjects) {
            requireNonNull(toolObject, "toolObjects holds null");
            int found = 0;
            for (Method method : toolObject.getClass().getDeclaredMethods()) {
                if (!method.isAnnotationPresent(Tool.class)) {
                    continue;
                }
                found++;
                ToolSpecification specification = ToolSpecifications.toolSpecificationFrom(method);
                String name = specification.name();
                if (ToolName.of(name).isLeft()) {
                    throw new IllegalArgumentException("toolObjects: @Tool name is not a safe tool name: " + name);
                }
                if (tools.putIfAbsent(name, new AnnotatedTool(specification, toolObject, method)) != null) {
                    throw new IllegalArgumentException("toolObjects: @Tool name appears twice: " + name);
                }
            }
            if (found == 0) {
                throw new IllegalArgumentException("toolObjects: " + toolObject.getClass().getName() + " has no @Tool method");
            }
        }
        return new AnnotatedTools(Map.copyOf(tools));
    }

    /** {@return the specifications of every tool, one each, for {@link LangChain4jToolBoundary#of}} */
    public List<ToolSpecification> specifications() {
        List<ToolSpecification> specifications = new ArrayList<>();
        tools.values().forEach(tool -> specifications.add(tool.specification()));
        return List.copyOf(specifications);
    }

    /**
     * {@return a read-only binding of the named tool, with an unlimited per-run budget}
     *
     * @throws IllegalArgumentException when no {@code @Tool} method has that name
     * @param name the tool name
     * @param projector turns its raw response into an agent result
     */
    public ToolBinding readOnly(String name, Projector projector) {
        return ToolBinding.readOnly(name, executor(name), projector);
    }

    /**
     * {@return a binding of the named tool as one that writes: registered so that calls to it get a clear error, never
     * run}
     *
     * @throws IllegalArgumentException when no {@code @Tool} method has that name
     * @param name the tool name
     * @param projector turns its raw response into an agent result
     */
    public ToolBinding writable(String name, Projector projector) {
        return ToolBinding.writable(name, executor(name), projector);
    }

    /**
     * {@return the executor of the named tool, which calls its method and returns its own output as the raw response}
     *
     * @throws IllegalArgumentException when no {@code @Tool} method has that name
     * @param name the tool name
     */
    public ToolExecutor executor(String name) {
        requireNonNull(name, "name is null");
        AnnotatedTool tool = tools.get(name);
        if (tool == null) {
            throw new IllegalArgumentException("name: no @Tool method is named " + name + "; known: "
                    + new java.util.TreeSet<>(tools.keySet()));
        }
        DefaultToolExecutor executor = DefaultToolExecutor.builder()
                .object(tool.object())
                .originalMethod(tool.method())
                .methodToInvoke(tool.method())
                .propagateToolExecutionExceptions(true)
                .wrapToolArgumentsExceptions(true)
                .build();
        return request -> {
            ToolExecutionRequest call = ToolExecutionRequest.builder()
                    .id(request.key().toolCallId().value())
                    .name(request.tool().value())
                    .arguments(request.arguments())
                    .build();
            ToolExecutionResult result = executor.executeWithContext(call,
                    InvocationContext.builder().chatMemoryId(request.key().runId().value()).timestampNow().build());
            if (result.isError()) {
                throw new IllegalStateException("the @Tool method reported an error");
            }
            return result.result() instanceof String text ? text : result.resultText();
        };
    }

    private record AnnotatedTool(ToolSpecification specification, Object object, Method method) {
    }
}
