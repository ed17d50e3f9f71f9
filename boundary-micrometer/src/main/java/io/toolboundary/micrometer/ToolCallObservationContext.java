package io.toolboundary.micrometer;

import static java.util.Objects.requireNonNull;

import io.micrometer.observation.Observation;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.vavr.control.Either;
import io.vavr.control.Option;

/**
 * What a {@link ToolCallObservationConvention} reads about one call through the boundary: the run and envelope
 * from its start, and, once it has ended, what the agent got and the record the store kept. Content (arguments,
 * agent text) is present only when {@link ToolSpans.Builder#captureContent(boolean)} is set.
 */
public final class ToolCallObservationContext extends Observation.Context {

    private final RunContext run;
    private final ToolCallEnvelope envelope;
    private Option<String> tool;
    private Option<String> description = Option.none();
    private Option<CanonicalRecord> record = Option.none();
    private boolean replayed;
    private boolean storeFailed;
    private boolean internalError;
    private Option<Either<BoundaryError, AgentResult>> outcome = Option.none();
    private Option<String> arguments = Option.none();
    private Option<String> resultText = Option.none();
    private Option<java.time.Duration> storeTime = Option.none();

    ToolCallObservationContext(RunContext run, ToolCallEnvelope envelope, Option<String> tool) {
        this.run = requireNonNull(run, "run is null");
        this.envelope = requireNonNull(envelope, "envelope is null");
        this.tool = tool;
    }

    /** {@return the harness's facts about the run} */
    public RunContext run() {
        return run;
    }

    /** {@return the call as the framework supplied it: untrusted, unchecked text} */
    public ToolCallEnvelope envelope() {
        return envelope;
    }

    /** {@return the tool's name when it is a registered tool, else none (the model named something unknown)} */
    public Option<String> tool() {
        return tool;
    }

    /** {@return the registered tool's description, when the listener was given one} */
    public Option<String> description() {
        return description;
    }

    /** {@return the final record the store kept for the call, or the READY record a duplicate was answered from} */
    public Option<CanonicalRecord> record() {
        return record;
    }

    /** {@return whether the call was answered from the READY record of an earlier call with its key} */
    public boolean replayed() {
        return replayed;
    }

    /** {@return whether the store failed to record the call's end (the agent got a store error)} */
    public boolean storeFailed() {
        return storeFailed;
    }

    /** {@return whether the boundary itself failed and closed the call with INTERNAL_ERROR} */
    public boolean internalError() {
        return internalError;
    }

    /** {@return what the agent got, once the call has ended} */
    public Option<Either<BoundaryError, AgentResult>> outcome() {
        return outcome;
    }

    /** {@return the call's arguments, only when content is captured and the call passed preflight} */
    public Option<String> arguments() {
        return arguments;
    }

    /** {@return the bounded text the model got ({@code ToolBoundary.agentText}), only when content is captured} */
    public Option<String> resultText() {
        return resultText;
    }

    void recorded(CanonicalRecord kept, boolean fromReplay) {
        this.record = Option.some(kept);
        this.tool = Option.some(kept.tool().value());
        this.replayed = fromReplay;
    }

    void storeFailedToRecord() {
        this.storeFailed = true;
    }

    void spentInStore(java.time.Duration elapsed) {
        this.storeTime = Option.of(elapsed);
    }

    /** {@return the time the call spent in store calls, or none when it never reached the store} */
    public Option<java.time.Duration> storeTime() {
        return storeTime;
    }

    void failedInternally() {
        this.internalError = true;
    }

    void described(Option<String> text) {
        this.description = text;
    }

    void ended(Either<BoundaryError, AgentResult> got, Option<String> args, Option<String> text) {
        this.outcome = Option.some(got);
        this.arguments = args;
        this.resultText = text;
    }
}
