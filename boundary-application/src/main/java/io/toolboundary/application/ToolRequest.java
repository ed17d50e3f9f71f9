package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolName;

/**
 * A call that passed preflight and has its PROJECTING record: what executors and projectors see. The
 * arguments are one JSON object without duplicate names, within the configured depth and size; they are
 * kept exactly as supplied and parsed into a Jackson tree only when {@link #json()} is first asked.
 * Thread-safe. {@code toString()} never shows the arguments.
 */
public final class ToolRequest {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final InvocationKey key;
    private final ToolName tool;
    private final String arguments;
    private volatile ObjectNode json;

    /**
     * A request.
     *
     * @param key the canonical key (run id and exact tool_call_id)
     * @param tool the tool
     * @param arguments the arguments, one JSON object, exactly as supplied
     */
    public ToolRequest(InvocationKey key, ToolName tool, String arguments) {
        this.key = requireNonNull(key, "key is null");
        this.tool = requireNonNull(tool, "tool is null");
        this.arguments = requireNonNull(arguments, "arguments is null");
    }

    /** {@return the canonical key: the run id and the exact framework tool_call_id} */
    public InvocationKey key() {
        return key;
    }

    /** {@return the tool} */
    public ToolName tool() {
        return tool;
    }

    /** {@return the arguments, one JSON object, exactly as the framework supplied them} */
    public String arguments() {
        return arguments;
    }

    /**
     * The arguments as a Jackson tree, parsed on the first call (fractions and exponents as {@code BigDecimal}),
     * shared by the executor and projector of a call: read it, do not change it.
     *
     * @return the arguments object
     * @throws IllegalArgumentException when the arguments are not one JSON object (never for a request the
     *     boundary built)
     */
    public ObjectNode json() {
        ObjectNode parsed = json;
        if (parsed == null) {
            // Parsed under the lock, so that threads asking at once share one tree.
            synchronized (this) {
                parsed = json;
                if (parsed == null) {
                    parsed = parse(arguments);
                    json = parsed;
                }
            }
        }
        return parsed;
    }

    private static ObjectNode parse(String arguments) {
        try {
            if (JSON.readTree(arguments) instanceof ObjectNode object) {
                return object;
            }
        } catch (JsonProcessingException notJson) {
            // Reported below without the arguments: they may hold what a log must not.
        }
        throw new IllegalArgumentException("the arguments are not one JSON object");
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ToolRequest that && key.equals(that.key) && tool.equals(that.tool)
                && arguments.equals(that.arguments);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * key.hashCode() + tool.hashCode()) + arguments.hashCode();
    }

    @Override
    public String toString() {
        return "ToolRequest[key=" + key + ", tool=" + tool.value() + ", " + arguments.length() + " chars of arguments]";
    }
}
