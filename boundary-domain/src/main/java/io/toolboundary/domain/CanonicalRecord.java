package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.Objects;

/**
 * The one canonical record of an invocation, kept per {@link InvocationKey}: the complete request (tool and arguments),
 * the complete raw response, the agent result, the lifecycle and evidence status, the error code and
 * the timestamps.
 *
 * <p>Each lifecycle state is its own type, so an illegal record cannot be built:
 * {@link Projecting} may become {@link Ready} (status READY) or {@link Failed} (status ERROR, as the
 * specification names it), and those never change again.
 *
 * <p>Every text a record holds is well-formed Unicode (UTF-8 keeps it exactly), checked and counted once
 * when the record is made: {@link #byteSize()} and {@link #argumentsBytes()} are those counts, carried
 * from a PROJECTING record to the final one, so limits and stores never scan the texts again. Two records
 * are equal when they are in the same state with the same contents. {@code toString()} names the key,
 * tool, state and sizes, never the texts (the request and the raw response are harness-only data).
 */
public abstract sealed class CanonicalRecord permits CanonicalRecord.Projecting, CanonicalRecord.Final {

    private final InvocationKey key;
    private final ToolName tool;
    private final String arguments;
    private final String requestFingerprint;
    private final Instant createdAt;
    private final long argumentsBytes;
    /** Ids, tool name, arguments and fingerprint, in UTF-8 bytes. */
    private final long requestBytes;

    private CanonicalRecord(InvocationKey key, ToolName tool, String arguments, String requestFingerprint,
            Instant createdAt) {
        this.key = requireNonNull(key, "key is null");
        this.tool = requireNonNull(tool, "tool is null");
        this.arguments = requireNonNull(arguments, "arguments is null");
        this.requestFingerprint = requireNonNull(requestFingerprint, "requestFingerprint is null");
        this.createdAt = requireNonNull(createdAt, "createdAt is null");
        this.argumentsBytes = Utf8.measure(arguments, "arguments");
        // Ids and tool names are ASCII by construction: one byte per character.
        this.requestBytes = key.runId().value().length() + key.toolCallId().value().length() + tool.value().length()
                + argumentsBytes + Utf8.measure(requestFingerprint, "requestFingerprint");
    }

    /** What the PROJECTING record {@code begun} holds, its counts included. */
    private CanonicalRecord(CanonicalRecord begun) {
        this.key = begun.key;
        this.tool = begun.tool;
        this.arguments = begun.arguments;
        this.requestFingerprint = begun.requestFingerprint;
        this.createdAt = begun.createdAt;
        this.argumentsBytes = begun.argumentsBytes;
        this.requestBytes = begun.requestBytes;
    }

    /** {@return the run and the exact framework tool_call_id} */
    public InvocationKey key() {
        return key;
    }

    /** {@return the tool that was called} */
    public ToolName tool() {
        return tool;
    }

    /** {@return the complete arguments JSON, exactly as the framework supplied it} */
    public String arguments() {
        return arguments;
    }

    /** {@return the size of {@link #arguments()} in UTF-8 bytes} */
    public long argumentsBytes() {
        return argumentsBytes;
    }

    /** {@return a fingerprint of the request (the tool's name and the arguments' canonical JSON), used to tell a replay from a reused id} */
    public String requestFingerprint() {
        return requestFingerprint;
    }

    /** {@return when the record was created} */
    public Instant createdAt() {
        return createdAt;
    }

    /** {@return when the record last changed: its creation while PROJECTING, its completion once final} */
    public abstract Instant updatedAt();

    /** {@return the record's size in UTF-8 bytes: ids, tool name, arguments, fingerprint, raw response, agent result} */
    public long byteSize() {
        return requestBytes;
    }

    /** {@return the lifecycle status} */
    public abstract InvocationStatus status();

    /** {@return the evidence status: the agent result's on READY, ERROR on ERROR, none while PROJECTING} */
    public final Option<EvidenceStatus> evidence() {
        return errorCode().isDefined() ? Option.of(EvidenceStatus.ERROR) : agentResult().map(AgentResult::evidence);
    }

    /** {@return the complete raw response, when one was obtained and kept (harness-only data)} */
    public Option<String> rawResponse() {
        return Option.none();
    }

    /** {@return the bounded result given to the agent; only on READY} */
    public Option<AgentResult> agentResult() {
        return Option.none();
    }

    /** {@return the error code; only on ERROR} */
    public Option<ErrorCode> errorCode() {
        return Option.none();
    }

    /** {@return how this record may be cited: only a READY record may be, as evidence or as a scoped negative observation} */
    public final Referencability referencability() {
        return agentResult().map(result -> result.evidence() == EvidenceStatus.EVIDENCE_FOUND
                        ? Referencability.CITABLE_EVIDENCE
                        : Referencability.SCOPED_NEGATIVE_OBSERVATION)
                .getOrElse(Referencability.NOT_REFERENCABLE);
    }

    @Override
    public final boolean equals(Object other) {
        return other instanceof CanonicalRecord that && getClass() == that.getClass() && key.equals(that.key)
                && tool.equals(that.tool) && arguments.equals(that.arguments)
                && requestFingerprint.equals(that.requestFingerprint) && createdAt.equals(that.createdAt)
                && updatedAt().equals(that.updatedAt()) && rawResponse().equals(that.rawResponse())
                && agentResult().equals(that.agentResult()) && errorCode().equals(that.errorCode());
    }

    @Override
    public final int hashCode() {
        return Objects.hash(key, tool, arguments, requestFingerprint, createdAt, updatedAt(), rawResponse(), agentResult(),
                errorCode());
    }

    @Override
    public final String toString() {
        return "CanonicalRecord." + getClass().getSimpleName() + "[key=" + key + ", tool=" + tool.value()
                + ", status=" + status() + evidence().map(evidence -> ", evidence=" + evidence).getOrElse("")
                + errorCode().map(code -> ", code=" + code).getOrElse("") + ", createdAt=" + createdAt
                + ", updatedAt=" + updatedAt() + ", " + byteSize() + " bytes]";
    }

    /**
     * A record that is READY or ERROR: its PROJECTING self completed with an {@link Outcome}. It never
     * changes again.
     */
    public abstract static sealed class Final extends CanonicalRecord permits Ready, Failed {

        private final Outcome outcome;

        private Final(CanonicalRecord begun, Outcome outcome) {
            super(begun);
            this.outcome = outcome;
        }

        /** {@return what the completion added: raw response, agent result or error code, and its time} */
        public Outcome outcome() {
            return outcome;
        }

        @Override
        public Instant updatedAt() {
            return outcome.completedAt();
        }

        @Override
        public Option<String> rawResponse() {
            return outcome.rawResponse();
        }

        @Override
        public long byteSize() {
            return super.byteSize() + outcome.byteSize();
        }
    }

    /** Created just before the tool runs. Holds the arguments, no result yet. */
    public static final class Projecting extends CanonicalRecord {

        /**
         * Builds the record of a call that is about to run.
         *
         * @param key the canonical key
         * @param tool the tool
         * @param arguments the complete arguments JSON
         * @param requestFingerprint the fingerprint of the request's canonical JSON
         * @param createdAt the creation time
         * @throws IllegalArgumentException when the arguments or the fingerprint are not well-formed Unicode
         */
        public Projecting(InvocationKey key, ToolName tool, String arguments, String requestFingerprint,
                Instant createdAt) {
            super(key, tool, arguments, requestFingerprint, createdAt);
        }

        /**
         * Completes the invocation with its raw response and checked agent result.
         *
         * @param rawResponse the complete raw response
         * @param result the checked agent result
         * @param at the completion time (never earlier than {@link #createdAt()} in the record)
         * @param limits the limits; the whole record must fit {@link Limits#recordBytes()}
         * @return the READY record, or {@link ErrorCode#RESULT_TOO_LARGE} or {@link ErrorCode#TEXT_NOT_UNICODE}
         */
        public Either<BoundaryError, Ready> ready(String rawResponse, AgentResult result, Instant at, Limits limits) {
            requireNonNull(rawResponse, "rawResponse is null");
            return RawResponse.of(rawResponse).flatMap(raw -> ready(raw, result, at, limits));
        }

        /**
         * Completes the invocation with its checked raw response and agent result, counting nothing again.
         *
         * @param rawResponse the checked raw response
         * @param result the checked agent result
         * @param at the completion time (never earlier than {@link #createdAt()} in the record)
         * @param limits the limits; the whole record must fit {@link Limits#recordBytes()}
         * @return the READY record, or {@link ErrorCode#RESULT_TOO_LARGE}
         */
        public Either<BoundaryError, Ready> ready(RawResponse rawResponse, AgentResult result, Instant at, Limits limits) {
            requireNonNull(rawResponse, "rawResponse is null");
            requireNonNull(result, "result is null");
            requireNonNull(at, "at is null");
            requireNonNull(limits, "limits is null");
            if (byteSize() + rawResponse.byteSize() + result.byteSize() > limits.recordBytes()) {
                return Either.left(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE));
            }
            return Either.right(new Ready(this, new Outcome.Ready(rawResponse.text(), rawResponse.byteSize(), result,
                    notBefore(at))));
        }

        /**
         * Ends the invocation in ERROR, keeping the raw response when there is one.
         *
         * @param code the error code
         * @param rawResponse the raw response, when it was obtained, is Unicode and fits the record limit
         * @param at the time of failure (never earlier than {@link #createdAt()} in the record)
         * @return the ERROR record with that code
         * @throws IllegalArgumentException when the raw response is not well-formed Unicode
         */
        public Failed failed(ErrorCode code, Option<String> rawResponse, Instant at) {
            return new Failed(this, new Outcome.Failed(code, rawResponse, notBefore(requireNonNull(at, "at is null"))));
        }

        /**
         * Ends the invocation in ERROR, keeping its checked raw response.
         *
         * @param code the error code
         * @param rawResponse the checked raw response, within the record limit
         * @param at the time of failure (never earlier than {@link #createdAt()} in the record)
         * @return the ERROR record with that code
         */
        public Failed failed(ErrorCode code, RawResponse rawResponse, Instant at) {
            requireNonNull(rawResponse, "rawResponse is null");
            return new Failed(this, new Outcome.Failed(code, Option.some(rawResponse.text()), rawResponse.byteSize(),
                    notBefore(requireNonNull(at, "at is null"))));
        }

        /**
         * The final record this record becomes with {@code outcome}: its key, tool, arguments, fingerprint
         * and creation, with the outcome's raw response, agent result or error code, and its completion
         * time as {@code updatedAt} (taken as it is; no limit is checked here).
         *
         * @param outcome what the completion adds
         * @return the READY or ERROR record
         */
        public Final complete(Outcome outcome) {
            requireNonNull(outcome, "outcome is null");
            return outcome instanceof Outcome.Ready ready ? new Ready(this, ready) : new Failed(this, (Outcome.Failed) outcome);
        }

        private Instant notBefore(Instant at) {
            return at.isBefore(createdAt()) ? createdAt() : at;
        }

        @Override
        public Instant updatedAt() {
            return createdAt();
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.PROJECTING;
        }
    }

    /** The tool ran and its bounded projection is stored beside the complete raw response. */
    public static final class Ready extends Final {

        private final Outcome.Ready completion;

        /**
         * Builds the record of a call that ran and was projected.
         *
         * @param key the canonical key
         * @param tool the tool
         * @param arguments the complete arguments JSON
         * @param requestFingerprint the fingerprint of the request's canonical JSON
         * @param createdAt the creation time
         * @param updatedAt the completion time
         * @param raw the complete raw response
         * @param result the agent result
         * @throws IllegalArgumentException when a text is not well-formed Unicode
         */
        public Ready(InvocationKey key, ToolName tool, String arguments, String requestFingerprint, Instant createdAt,
                Instant updatedAt, String raw, AgentResult result) {
            this(new Projecting(key, tool, arguments, requestFingerprint, createdAt),
                    new Outcome.Ready(raw, result, updatedAt));
        }

        private Ready(Projecting begun, Outcome.Ready completion) {
            super(begun, completion);
            this.completion = completion;
        }

        /** {@return the complete raw response} */
        public String raw() {
            return completion.raw();
        }

        /** {@return the agent result} */
        public AgentResult result() {
            return completion.result();
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.READY;
        }

        @Override
        public Option<AgentResult> agentResult() {
            return Option.of(completion.result());
        }
    }

    /**
     * The invocation failed after its record was created: status ERROR, evidence ERROR; it is never
     * referencable.
     */
    public static final class Failed extends Final {

        private final Outcome.Failed failure;

        /**
         * Builds the record of a call that failed after its record was created.
         *
         * @param key the canonical key
         * @param tool the tool
         * @param arguments the complete arguments JSON
         * @param requestFingerprint the fingerprint of the request's canonical JSON
         * @param createdAt the creation time
         * @param updatedAt the failure time
         * @param rawResponse the raw response, when it was obtained and could be kept (harness-only)
         * @param code the error code
         * @throws IllegalArgumentException when a text is not well-formed Unicode
         */
        public Failed(InvocationKey key, ToolName tool, String arguments, String requestFingerprint, Instant createdAt,
                Instant updatedAt, Option<String> rawResponse, ErrorCode code) {
            this(new Projecting(key, tool, arguments, requestFingerprint, createdAt),
                    new Outcome.Failed(code, rawResponse, updatedAt));
        }

        private Failed(Projecting begun, Outcome.Failed failure) {
            super(begun, failure);
            this.failure = failure;
        }

        /** {@return the error code} */
        public ErrorCode code() {
            return failure.code();
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.ERROR;
        }

        @Override
        public Option<ErrorCode> errorCode() {
            return Option.of(failure.code());
        }
    }
}
