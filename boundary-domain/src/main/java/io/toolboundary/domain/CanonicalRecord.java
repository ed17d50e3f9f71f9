package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.Objects;

/**
 * The one canonical record of an invocation, kept per {@link InvocationKey}: request, raw response, agent
 * result, status, error code and timestamps. Each lifecycle state is its own type: {@link Projecting}
 * becomes {@link Ready} or {@link Failed} by a {@link Completion}, and those never change again. Its texts
 * are well-formed Unicode, counted once into {@link #byteSize()}; {@code toString()} never shows them.
 */
public abstract sealed class CanonicalRecord permits CanonicalRecord.Projecting, CanonicalRecord.Final {

    private CanonicalRecord() {
    }

    /** The PROJECTING record this record is, or began as: it holds the request, which a final record shares. */
    abstract Projecting begun();

    /** {@return the run and the exact framework tool_call_id} */
    public InvocationKey key() {
        return begun().key;
    }

    /** {@return the tool that was called} */
    public ToolName tool() {
        return begun().tool;
    }

    /** {@return the complete arguments JSON, exactly as the framework supplied it} */
    public String arguments() {
        return begun().arguments;
    }

    /** {@return the size of {@link #arguments()} in UTF-8 bytes} */
    public long argumentsBytes() {
        return begun().argumentsBytes;
    }

    /** {@return the fingerprint of the tool's name and the arguments' canonical JSON: a replay has the same} */
    public String requestFingerprint() {
        return begun().requestFingerprint;
    }

    /** {@return when the record was created} */
    public Instant createdAt() {
        return begun().createdAt;
    }

    /** {@return when the record last changed: its creation while PROJECTING, its completion once final} */
    public abstract Instant updatedAt();

    /** {@return the record's size in UTF-8 bytes: ids, tool name, arguments, fingerprint, raw response, agent result} */
    public long byteSize() {
        return begun().requestBytes;
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
        return other instanceof CanonicalRecord that && getClass() == that.getClass() && key().equals(that.key())
                && tool().equals(that.tool()) && arguments().equals(that.arguments())
                && requestFingerprint().equals(that.requestFingerprint()) && createdAt().equals(that.createdAt())
                && updatedAt().equals(that.updatedAt()) && rawResponse().equals(that.rawResponse())
                && agentResult().equals(that.agentResult()) && errorCode().equals(that.errorCode());
    }

    @Override
    public final int hashCode() {
        return Objects.hash(key(), tool(), arguments(), requestFingerprint(), createdAt(), updatedAt(), rawResponse(),
                agentResult(), errorCode());
    }

    @Override
    public final String toString() {
        return "CanonicalRecord." + getClass().getSimpleName() + "[key=" + key() + ", tool=" + tool().value()
                + ", status=" + status() + evidence().map(evidence -> ", evidence=" + evidence).getOrElse("")
                + errorCode().map(code -> ", code=" + code).getOrElse("") + ", createdAt=" + createdAt()
                + ", updatedAt=" + updatedAt() + ", " + byteSize() + " bytes]";
    }

    /**
     * Rebuilds a stored record from its parts, for codecs: the begun request and, once final, its
     * completion (taken as it is; no limit is checked).
     *
     * @param key the canonical key
     * @param tool the tool
     * @param arguments the complete arguments JSON
     * @param requestFingerprint the fingerprint of the request's canonical JSON
     * @param createdAt the creation time
     * @param completion how the call ended, or none while it is PROJECTING
     * @return the PROJECTING, READY or ERROR record
     * @throws IllegalArgumentException when a text is not well-formed Unicode
     */
    public static CanonicalRecord restore(InvocationKey key, ToolName tool, String arguments,
            String requestFingerprint, Instant createdAt, Option<Completion> completion) {
        Projecting begun = new Projecting(key, tool, arguments, requestFingerprint, createdAt);
        return requireNonNull(completion, "completion is null").isEmpty() ? begun : begun.complete(completion.get());
    }

    /** A record that is READY or ERROR: its PROJECTING self with a {@link Completion}. It never changes again. */
    public abstract static sealed class Final extends CanonicalRecord permits Ready, Failed {

        private final Projecting begun;
        private final Completion completion;

        private Final(Projecting begun, Completion completion) {
            this.begun = begun;
            this.completion = completion;
        }

        @Override
        Projecting begun() {
            return begun;
        }

        /** {@return how the call ended: raw response, agent result or error code, and time} */
        public Completion completion() {
            return completion;
        }

        @Override
        public Instant updatedAt() {
            return completion.completedAt();
        }

        @Override
        public Option<String> rawResponse() {
            return completion.rawResponse();
        }

        @Override
        public long byteSize() {
            return super.byteSize() + completion.byteSize();
        }
    }

    /** Created just before the tool runs. Holds the arguments, no result yet. */
    public static final class Projecting extends CanonicalRecord {

        private final InvocationKey key;
        private final ToolName tool;
        private final String arguments;
        private final String requestFingerprint;
        private final Instant createdAt;
        private final long argumentsBytes;
        /** Ids, tool name, arguments and fingerprint, in UTF-8 bytes. */
        private final long requestBytes;

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
            this.key = requireNonNull(key, "key is null");
            this.tool = requireNonNull(tool, "tool is null");
            this.arguments = requireNonNull(arguments, "arguments is null");
            this.requestFingerprint = requireNonNull(requestFingerprint, "requestFingerprint is null");
            this.createdAt = requireNonNull(createdAt, "createdAt is null");
            this.argumentsBytes = Utf8.measure(arguments, "arguments");
            // Ids and tool names are ASCII by construction: one byte per character.
            this.requestBytes = key.runId().value().length() + key.toolCallId().value().length()
                    + tool.value().length() + argumentsBytes + Utf8.measure(requestFingerprint, "requestFingerprint");
        }

        @Override
        Projecting begun() {
            return this;
        }

        /**
         * Completes the invocation with its checked raw response and agent result.
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
            return Either.right(new Ready(this, new Completion.Succeeded(rawResponse.text(), rawResponse.byteSize(),
                    result, notBefore(at))));
        }

        /**
         * Ends the invocation in ERROR, keeping the checked raw response when there is one.
         *
         * @param code the error code
         * @param rawResponse the checked raw response, when it was obtained and fits the record limit
         * @param at the time of failure (never earlier than {@link #createdAt()} in the record)
         * @return the ERROR record with that code
         */
        public Failed failed(ErrorCode code, Option<RawResponse> rawResponse, Instant at) {
            requireNonNull(rawResponse, "rawResponse is null");
            return new Failed(this, new Completion.Failed(code, rawResponse.map(RawResponse::text),
                    rawResponse.map(RawResponse::byteSize).getOrElse(0L), notBefore(requireNonNull(at, "at is null"))));
        }

        /**
         * The final record this record becomes with {@code completion}, taken as it is (no limit is checked).
         *
         * @param completion how the call ended
         * @return the READY or ERROR record
         */
        public Final complete(Completion completion) {
            requireNonNull(completion, "completion is null");
            return completion instanceof Completion.Succeeded succeeded
                    ? new Ready(this, succeeded)
                    : new Failed(this, (Completion.Failed) completion);
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

        private final Completion.Succeeded succeeded;

        private Ready(Projecting begun, Completion.Succeeded succeeded) {
            super(begun, succeeded);
            this.succeeded = succeeded;
        }

        /** {@return the complete raw response} */
        public String raw() {
            return succeeded.raw();
        }

        /** {@return the agent result} */
        public AgentResult result() {
            return succeeded.result();
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.READY;
        }

        @Override
        public Option<AgentResult> agentResult() {
            return Option.of(succeeded.result());
        }
    }

    /** The invocation failed after its record was created: status and evidence ERROR; never referencable. */
    public static final class Failed extends Final {

        private final Completion.Failed failure;

        private Failed(Projecting begun, Completion.Failed failure) {
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
