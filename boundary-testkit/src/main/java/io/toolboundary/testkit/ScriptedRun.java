package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.List;

/**
 * A scripted agent run against a {@link ToolBoundary}: tool calls, each with a fresh tool call id unless one is
 * given, played in order by {@link #play()} (again on each play). {@link #on} opens a run not opened yet.
 * Not thread-safe.
 *
 * <pre>{@code
 * List<ScriptedRun.Step> steps = ScriptedRun.on(boundary, run)
 *         .call("log-search", "{\"query\":\"timeout\"}").withToolCallId("c1")
 *         .call("log-search", "{\"query\":\"timeout\"}").withToolCallId("c1")
 *         .play();
 * // steps.get(1).error() is DUPLICATE_TOOL_CALL
 * }</pre>
 */
public final class ScriptedRun {

    private final ToolBoundary boundary;
    private final RunContext run;
    private final List<Fixtures.EnvelopeBuilder> calls = new ArrayList<>();

    private ScriptedRun(ToolBoundary boundary, RunContext run) {
        this.boundary = requireNonNull(boundary, "boundary is null");
        this.run = requireNonNull(run, "run is null");
    }

    /**
     * {@return an empty script for {@code run} against {@code boundary}}
     *
     * @param boundary the boundary every call is invoked on
     * @param run the run context the calls are invoked in, and whose run id they claim
     * @throws NullPointerException when {@code boundary} or {@code run} is null
     * @throws IllegalStateException when the run was not opened and opening it failed
     */
    public static ScriptedRun on(ToolBoundary boundary, RunContext run) {
        requireNonNull(boundary, "boundary is null");
        requireNonNull(run, "run is null");
        return new ScriptedRun(boundary, run.runToken().isDefined() ? run : Fixtures.opened(boundary, run));
    }

    /**
     * Adds a call of {@code toolName} with {@code arguments}, in this run, with a fresh tool call id.
     *
     * @param toolName the tool the call asks for, passed through as given; {@code null} means missing
     * @param arguments the arguments text, passed through as given; {@code null} means missing
     * @return this script, to add more calls or adjust the one just added
     */
    public ScriptedRun call(String toolName, String arguments) {
        calls.add(Fixtures.envelope(run).withToolName(toolName).withArguments(arguments));
        return this;
    }

    /**
     * Gives the last call this tool call id.
     *
     * @param toolCallId the framework tool_call_id for the last call, passed through as given;
     *     {@code null} means missing
     * @return this script
     * @throws IllegalStateException when no call was added yet
     */
    public ScriptedRun withToolCallId(String toolCallId) {
        return replaceLast(calls.get(lastIndex()).withToolCallId(toolCallId));
    }

    /**
     * Makes the last call claim another run id, as a confused or malicious agent might.
     *
     * @param runId the run id the last call claims instead of the script's run, passed through as
     *     given; {@code null} means missing
     * @return this script
     * @throws IllegalStateException when no call was added yet
     */
    public ScriptedRun withRunId(String runId) {
        return replaceLast(calls.get(lastIndex()).withRunId(runId));
    }

    /**
     * {@return the steps of invoking every call in order, unmodifiable, each with the envelope sent and what the
     * boundary returned}
     */
    public List<Step> play() {
        List<Step> steps = new ArrayList<>(calls.size());
        for (Fixtures.EnvelopeBuilder call : calls) {
            ToolCallEnvelope envelope = call.build();
            steps.add(new Step(envelope, boundary.invoke(run, envelope)));
        }
        return List.copyOf(steps);
    }

    private ScriptedRun replaceLast(Fixtures.EnvelopeBuilder replacement) {
        calls.set(lastIndex(), replacement);
        return this;
    }

    private int lastIndex() {
        if (calls.isEmpty()) {
            throw new IllegalStateException("add a call first");
        }
        return calls.size() - 1;
    }

    /**
     * One played call: what was sent and what the agent received.
     *
     * @param envelope the envelope sent
     * @param result what the boundary returned
     */
    public record Step(ToolCallEnvelope envelope, Either<BoundaryError, AgentResult> result) {

        /**
         * A played call.
         *
         * @param envelope the envelope sent
         * @param result what the boundary returned
         * @throws NullPointerException when {@code envelope} or {@code result} is null
         */
        public Step {
            requireNonNull(envelope, "envelope is null");
            requireNonNull(result, "result is null");
        }

        /** {@return the code of the boundary's error, or none when the call succeeded} */
        public Option<ErrorCode> error() {
            return result.isLeft() ? Option.of(result.getLeft().code()) : Option.none();
        }

        /** {@return the result the agent received, or none when the call failed} */
        public Option<AgentResult> agentResult() {
            return result.toOption();
        }
    }
}
