package io.toolboundary.springai;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolExecutor;
import java.util.Map;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;

/**
 * Registers Spring AI {@link ToolCallback}s with the boundary: one callback describes the tool to the model
 * and runs it, with a tool context holding {@link #RUN_ID_KEY} and {@link #TOOL_CALL_ID_KEY}.
 *
 * <p>The raw response is the tool's own output: callbacks built from {@code @Tool} methods or functions get
 * the converter of {@link RawToolResults} (a {@code @Tool}'s {@code resultConverter} is not used); any other
 * callback's {@code call} result is taken as it is. Whether a tool only reads is the harness's choice of
 * {@link #readOnly} or {@link #writable}.
 */
public final class ToolCallbackBindings {

    /** The tool context key of the run id given to the callback. */
    public static final String RUN_ID_KEY = "io.toolboundary.runId";
    /** The tool context key of the framework tool call id given to the callback. */
    public static final String TOOL_CALL_ID_KEY = "io.toolboundary.toolCallId";

    private ToolCallbackBindings() {
    }

    /**
     * A read-only tool with an unlimited per-run budget, named as the callback's definition.
     *
     * @param callback the Spring AI callback that describes the tool to the model and runs it
     * @param projector what turns the callback's raw response into the bounded result the model sees
     * @return a binding named as {@code callback}'s tool definition, whose executor is {@link #executor}
     * @throws IllegalArgumentException when the definition's name is not a safe identifier
     */
    public static ToolBinding readOnly(ToolCallback callback, Projector projector) {
        return ToolBinding.readOnly(nameOf(callback), executor(callback), projector);
    }

    /**
     * A tool that writes: registered so that calls to it get a clear error, never run.
     *
     * @param callback the Spring AI callback that describes the tool to the model; never called
     * @param projector the projector the binding carries; not applied, since the tool never runs
     * @return the registration of a tool the boundary refuses to run, named as {@code callback}'s tool
     *     definition
     * @throws IllegalArgumentException when the definition's name is not a safe identifier
     */
    public static ToolBinding writable(ToolCallback callback, Projector projector) {
        return ToolBinding.writable(nameOf(callback), executor(callback), projector);
    }

    /**
     * An executor that calls {@code callback} with the request's arguments exactly as given; its raw
     * response is the tool's own output (see above).
     *
     * @param callback the Spring AI callback to call; it receives a tool context holding
     *     {@link #RUN_ID_KEY} and {@link #TOOL_CALL_ID_KEY}
     * @return an executor whose raw response is what the callback's tool returns
     * @throws IllegalArgumentException when a method or function callback cannot be rebuilt to keep its
     *     tool's own output (the callback is then never run)
     */
    public static ToolExecutor executor(ToolCallback callback) {
        requireNonNull(callback, "callback is null");
        ToolCallback raw = RawToolResults.rawResults(callback);
        return request -> raw.call(request.arguments(), new ToolContext(Map.of(
                RUN_ID_KEY, request.key().runId().value(),
                TOOL_CALL_ID_KEY, request.key().toolCallId().value())));
    }

    private static String nameOf(ToolCallback callback) {
        requireNonNull(callback, "callback is null");
        return callback.getToolDefinition().name();
    }
}
