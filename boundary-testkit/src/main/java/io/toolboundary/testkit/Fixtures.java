package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.RunId;
import java.time.Instant;
import java.util.UUID;

/**
 * Test data with sensible defaults: run contexts, envelopes and texts of a known UTF-8 size. Every
 * fresh id is random and safe, so tests never share a run or a tool call by accident.
 */
public final class Fixtures {

    /** The deadline of the runs built here: far enough ahead that no clock reaches it. */
    public static final Instant FAR_FUTURE = Instant.parse("9999-12-31T23:59:59Z");
    /** The default tool name of envelopes. */
    public static final String DEFAULT_TOOL_NAME = "log-search";
    /** The default arguments of envelopes. */
    public static final String DEFAULT_ARGUMENTS = "{\"query\":\"timeout\"}";

    private Fixtures() {
    }

    /**
     * {@return an active run with a run id from {@link #anyRunId()}, the deadline {@link #FAR_FUTURE} and a budget of
     * {@link RunContext#UNLIMITED} calls}
     */
    public static RunContext anyRunContext() {
        return runContext(anyRunId());
    }

    /**
     * {@return an active run with the given id, the deadline {@link #FAR_FUTURE} and a budget of
     * {@link RunContext#UNLIMITED} calls}
     *
     * @param runId the run id, which must be a safe identifier
     * @throws IllegalArgumentException when {@code runId} is not a safe identifier
     */
    public static RunContext runContext(String runId) {
        return RunContext.active(new RunId(runId), FAR_FUTURE, RunContext.UNLIMITED);
    }

    /**
     * Opens {@code run} on {@code boundary} ({@link ToolBoundary#openRun}) and answers the opened context,
     * which the boundary's calls need.
     *
     * @param boundary the boundary whose store opens the run
     * @param run the run to open
     * @return the opened run context
     * @throws IllegalStateException when the boundary refuses to open the run, naming the error code
     */
    public static RunContext opened(ToolBoundary boundary, RunContext run) {
        return boundary.openRun(run).getOrElseThrow(
                error -> new IllegalStateException("the run could not be opened: " + error.code()));
    }

    /** {@return a fresh random safe run id: {@code "run-"} and a random UUID} */
    public static String anyRunId() {
        return "run-" + UUID.randomUUID();
    }

    /** {@return a fresh random safe tool call id: {@code "call_"} and the 32 hex digits of a random UUID} */
    public static String anyToolCallId() {
        return "call_" + UUID.randomUUID().toString().replace("-", "");
    }

    /**
     * {@return a builder with a fresh run id and tool call id, {@link #DEFAULT_TOOL_NAME} and
     * {@link #DEFAULT_ARGUMENTS}}
     */
    public static EnvelopeBuilder envelope() {
        return new EnvelopeBuilder(anyRunId(), anyToolCallId(), DEFAULT_TOOL_NAME, DEFAULT_ARGUMENTS);
    }

    /**
     * {@return an envelope builder with the run id of {@code run}, a fresh tool call id, {@link #DEFAULT_TOOL_NAME}
     * and {@link #DEFAULT_ARGUMENTS}}
     *
     * @param run the run whose run id the envelope claims
     * @throws NullPointerException when {@code run} is null
     */
    public static EnvelopeBuilder envelope(RunContext run) {
        requireNonNull(run, "run is null");
        return envelope().withRunId(run.runId().value());
    }

    /**
     * A text of exactly {@code utf8Bytes} UTF-8 bytes made mostly of two-byte characters, so that a
     * limit counted in characters instead of bytes is caught.
     *
     * @param utf8Bytes the length of the text, in UTF-8 bytes
     * @return {@code utf8Bytes / 2} characters U+00E9, followed by one {@code x} when
     *     {@code utf8Bytes} is odd
     * @throws IllegalArgumentException when {@code utf8Bytes} is negative
     */
    public static String textOfUtf8Bytes(int utf8Bytes) {
        if (utf8Bytes < 0) {
            throw new IllegalArgumentException("utf8Bytes must not be negative, was " + utf8Bytes);
        }
        StringBuilder text = new StringBuilder(utf8Bytes / 2 + 1);
        text.append("\u00e9".repeat(utf8Bytes / 2));
        if (utf8Bytes % 2 == 1) {
            text.append('x');
        }
        return text.toString();
    }

    /**
     * Builds a {@link ToolCallEnvelope}. Immutable: each {@code with…} returns a new builder. Values
     * are passed through as given, unsafe ones included, so that tests can build what an agent
     * framework might send.
     */
    public static final class EnvelopeBuilder {
        private final String runId;
        private final String toolCallId;
        private final String toolName;
        private final String arguments;

        private EnvelopeBuilder(String runId, String toolCallId, String toolName, String arguments) {
            this.runId = runId;
            this.toolCallId = toolCallId;
            this.toolName = toolName;
            this.arguments = arguments;
        }

        /**
         * The framework tool_call_id; {@code null} means missing.
         *
         * @param toolCallId the tool call id the envelope carries, passed through as given
         * @return a new builder with this tool call id and the other values of this one
         */
        public EnvelopeBuilder withToolCallId(String toolCallId) {
            return new EnvelopeBuilder(runId, toolCallId, toolName, arguments);
        }

        /**
         * The run id the envelope claims; {@code null} means missing.
         *
         * @param runId the run id the envelope claims, passed through as given
         * @return a new builder with this run id and the other values of this one
         */
        public EnvelopeBuilder withRunId(String runId) {
            return new EnvelopeBuilder(runId, toolCallId, toolName, arguments);
        }

        /**
         * The tool the agent asks for; {@code null} means missing.
         *
         * @param toolName the tool name the envelope carries, passed through as given
         * @return a new builder with this tool name and the other values of this one
         */
        public EnvelopeBuilder withToolName(String toolName) {
            return new EnvelopeBuilder(runId, toolCallId, toolName, arguments);
        }

        /**
         * The arguments text; {@code null} means missing.
         *
         * @param arguments the arguments the envelope carries, passed through as given
         * @return a new builder with these arguments and the other values of this one
         */
        public EnvelopeBuilder withArguments(String arguments) {
            return new EnvelopeBuilder(runId, toolCallId, toolName, arguments);
        }

        /** {@return an envelope of this builder's values, unchecked; {@code null} values are read as missing} */
        public ToolCallEnvelope build() {
            return ToolCallEnvelope.of(runId, toolCallId, toolName, arguments);
        }
    }
}
