package io.toolboundary.springai;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Limits on the tool calls of one turn (the last {@link UserMessage} and what follows), counted by tool name
 * as Spring AI 2.0 counts them for {@code spring.ai.tools.limits.*}, beside the boundary's per-run budgets. A
 * call over a limit never reaches the boundary; by {@link OnBreach}, the turn stops or the model is told.
 * {@link #none()} applies no limit.
 *
 * <p>Immutable and thread-safe.
 */
public final class TurnLimits {

    /** A limit value meaning "no limit", as {@code -1} means in {@code spring.ai.tools.limits.*}. */
    public static final int UNLIMITED = -1;

    private static final TurnLimits NONE = builder().build();

    private final int maxCallsPerTool;
    private final Map<String, Integer> maxCallsOfTool;
    private final Set<String> excludedTools;
    private final int maxTotalCalls;
    private final OnBreach onBreach;

    private TurnLimits(Builder builder) {
        this.maxCallsPerTool = builder.maxCallsPerTool;
        this.maxCallsOfTool = Map.copyOf(builder.maxCallsOfTool);
        this.excludedTools = Set.copyOf(builder.excludedTools);
        this.maxTotalCalls = builder.maxTotalCalls;
        this.onBreach = builder.onBreach;
    }

    /** {@return no limits: every call goes to the boundary, whose budgets decide} */
    public static TurnLimits none() {
        return NONE;
    }

    /** {@return a builder with no limit and {@link OnBreach#STOP_TURN} until set} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return whether the turn stops or the model is told, for a call over a limit} */
    public OnBreach onBreach() {
        return onBreach;
    }

    /** The calls each tool already had in the current turn of {@code instructions}, by tool name. */
    static Map<String, Integer> callsSoFar(List<Message> instructions) {
        int start = 0;
        for (int i = instructions.size() - 1; i >= 0; i--) {
            if (instructions.get(i) instanceof UserMessage) {
                start = i;
                break;
            }
        }
        Map<String, Integer> counts = new HashMap<>();
        for (Message message : instructions.subList(start, instructions.size())) {
            if (message instanceof ToolResponseMessage responses) {
                responses.getResponses().forEach(response -> counts.merge(nameOf(response.name()), 1, Integer::sum));
            }
        }
        return counts;
    }

    /**
     * {@return the limit a call breaks, counting the call itself, or none when it is within every limit}
     *
     * @param toolName the called tool's name as the model gave it ({@code null} counts as the empty name)
     * @param callsOfTool the tool's calls in this turn, this one included
     * @param calls all calls in this turn, this one included
     */
    Option<Breach> check(String toolName, int callsOfTool, int calls) {
        String name = nameOf(toolName);
        if (!excludedTools.contains(name)) {
            int limit = maxCallsOfTool.getOrDefault(name, maxCallsPerTool);
            if (limit != UNLIMITED && callsOfTool > limit) {
                return Option.some(new Breach(name, limit, "Tool call limit (%d) exceeded for tool '%s'. No further calls"
                        .formatted(limit, name) + " to this tool are allowed in this turn."));
            }
        }
        if (maxTotalCalls != UNLIMITED && calls > maxTotalCalls) {
            return Option.some(new Breach(null, maxTotalCalls, "Total tool call limit (%d) exceeded for this turn."
                    .formatted(maxTotalCalls) + " No further tool calls are allowed."));
        }
        return Option.none();
    }

    static String nameOf(String toolName) {
        return toolName == null ? "" : toolName;
    }

    /** A limit a call broke: the tool whose limit it was ({@code null} for the total), the limit, the text. */
    record Breach(String toolName, int limit, String message) {
    }

    /** What happens to a call over a limit. */
    public enum OnBreach {
        /** The turn stops: no later call of the response runs, and the manager throws. */
        STOP_TURN,
        /** The model is told that the limit is reached, in that call's response; the other calls still run. */
        ANSWER_MODEL
    }

    /** Builds {@link TurnLimits}; every value is checked as it is set. */
    public static final class Builder {

        private int maxCallsPerTool = UNLIMITED;
        private final Map<String, Integer> maxCallsOfTool = new HashMap<>();
        private final Set<String> excludedTools = new HashSet<>();
        private int maxTotalCalls = UNLIMITED;
        private OnBreach onBreach = OnBreach.STOP_TURN;

        private Builder() {
        }

        /**
         * The most calls of any one tool in a turn, unless set for that tool.
         *
         * @param max at least 1, or {@link #UNLIMITED}
         * @return this builder
         * @throws IllegalArgumentException when {@code max} is neither positive nor {@link #UNLIMITED}
         */
        public Builder maxCallsPerTool(int max) {
            this.maxCallsPerTool = checked("maxCallsPerTool", max);
            return this;
        }

        /**
         * The most calls of the named tool in a turn.
         *
         * @param toolName the tool's name
         * @param max at least 1, or {@link #UNLIMITED} to exempt the tool (as {@link #excludeTool} does)
         * @return this builder
         * @throws IllegalArgumentException when {@code max} is neither positive nor {@link #UNLIMITED}
         */
        public Builder maxCallsPerTool(String toolName, int max) {
            requireNonNull(toolName, "toolName is null");
            if (checked("maxCallsPerTool", max) == UNLIMITED) {
                return excludeTool(toolName);
            }
            excludedTools.remove(toolName);
            maxCallsOfTool.put(toolName, max);
            return this;
        }

        /**
         * Exempts the named tool from the per-tool limits; its calls still count towards the total.
         *
         * @param toolName the tool's name
         * @return this builder
         */
        public Builder excludeTool(String toolName) {
            requireNonNull(toolName, "toolName is null");
            maxCallsOfTool.remove(toolName);
            excludedTools.add(toolName);
            return this;
        }

        /**
         * The most calls of all tools together in a turn.
         *
         * @param max at least 1, or {@link #UNLIMITED}
         * @return this builder
         * @throws IllegalArgumentException when {@code max} is neither positive nor {@link #UNLIMITED}
         */
        public Builder maxTotalCalls(int max) {
            this.maxTotalCalls = checked("maxTotalCalls", max);
            return this;
        }

        /**
         * What happens to a call over a limit.
         *
         * @param onBreach stop the turn, or tell the model
         * @return this builder
         */
        public Builder onBreach(OnBreach onBreach) {
            this.onBreach = requireNonNull(onBreach, "onBreach is null");
            return this;
        }

        /** {@return limits as set on this builder} */
        public TurnLimits build() {
            return new TurnLimits(this);
        }

        private static int checked(String name, int max) {
            if (max < 1 && max != UNLIMITED) {
                throw new IllegalArgumentException(name + " must be at least 1, or " + UNLIMITED + " for no limit: " + max);
            }
            return max;
        }
    }
}
