package io.toolboundary.springai;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.function.BiFunction;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.execution.ToolCallResultConverter;
import org.springframework.ai.tool.function.FunctionToolCallback;
import org.springframework.ai.tool.method.MethodToolCallback;

/**
 * What a tool returns, as the boundary's raw response: a {@code String} exactly as returned, anything else
 * as JSON by {@link ToolResultJson}, {@code void} or {@code null} as the empty text. Spring AI's default
 * converter would JSON-encode a {@code String} too, so {@link MethodToolCallback}s and
 * {@link FunctionToolCallback}s are rebuilt with {@link #CONVERTER} (by reflection); one that cannot be is
 * refused, never run with the encoding converter.
 */
final class RawToolResults {

    /** The converter of {@code @Tool} method and function results into the raw response. */
    static final ToolCallResultConverter CONVERTER = RawToolResults::convert;

    private RawToolResults() {
    }

    static String convert(Object result, Type returnType) {
        if (result == null || returnType == void.class || returnType == Void.class) {
            return "";
        }
        if (result instanceof String text) {
            return text;
        }
        return ToolResultJson.write(result);
    }

    /** {@code callback}, rebuilt with {@link #CONVERTER} when Spring AI built it from a method or a function. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static ToolCallback rawResults(ToolCallback callback) {
        if (callback instanceof MethodToolCallback) {
            return MethodToolCallback.builder()
                    .toolDefinition(callback.getToolDefinition())
                    .toolMetadata(callback.getToolMetadata())
                    .toolMethod(field(callback, MethodToolCallback.class, "toolMethod", Method.class))
                    .toolObject(field(callback, MethodToolCallback.class, "toolObject", Object.class))
                    .toolCallResultConverter(CONVERTER)
                    .build();
        }
        if (callback instanceof FunctionToolCallback) {
            return new FunctionToolCallback(callback.getToolDefinition(), callback.getToolMetadata(),
                    field(callback, FunctionToolCallback.class, "toolInputType", Type.class),
                    field(callback, FunctionToolCallback.class, "toolFunction", BiFunction.class),
                    CONVERTER);
        }
        return callback;
    }

    private static <T> T field(ToolCallback callback, Class<?> owner, String name, Class<T> type) {
        try {
            Field field = owner.getDeclaredField(name);
            field.setAccessible(true);
            Object value = field.get(callback);
            if (!type.isInstance(value)) {
                throw new IllegalArgumentException("callback: " + owner.getSimpleName() + "." + name + " is not a "
                        + type.getSimpleName());
            }
            return type.cast(value);
        } catch (ReflectiveOperationException | RuntimeException unreadable) {
            if (unreadable instanceof IllegalArgumentException refused) {
                throw refused;
            }
            throw new IllegalArgumentException("callback: cannot read " + owner.getSimpleName() + "." + name
                    + " to keep the tool's own output as the raw response; bind a ToolExecutor instead", unreadable);
        }
    }
}
