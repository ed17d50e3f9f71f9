package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.internal.Utf8;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.Objects;

/**
 * The one canonical record of an invocation, kept per {@link InvocationKey}: request, raw response, agent
 * result, status, error code and timestamps. Each lifecycle state is its own type: {@link Projecting}
 * becomes {@link Ready} or {@link Failed}, and those never change again. Its texts
 * are well-formed Unicode, counted once into {@link #byteSize()}; {@code toString()} never shows them.
 */
public abstract sealed class CanonicalRecord permits CanonicalRecord.Projecting, CanonicalRecord.Final {

    private CanonicalRecord() {
    }

    /** The PROJECTING record this record is, or began as: it holds the request, which a final record shares. */
    abstract Projecting request();

    /** {@return the run and the exact framework tool_call_id} */
    public InvocationKey key() {
        return request().key;
    }

    /** {@return the tool that was called} */
    public ToolName tool() {
        return request().tool;
    }

    /** {@return the complete arguments JSON, exactly as the framework supplied it} */
    public String arguments() {
        return request().arguments;
    }

    /** {@return the size of {@link #arguments()} in UTF-8 bytes} */
    public long argumentsBytes() {
        return request().argumentsBytes;
    }

    /** {@return the fingerprint of the tool's name and the arguments' canonical JSON: a replay has the same} */
    public String requestFingerprint() {
        return request().requestFingerprint;
    }

    /** {@return when the record was created} */
    public Instant createdAt() {
        return request().createdAt;
    }

    /** {@return when the record last changed: its creation while PROJECTING, its completion once final} */
    public abstract Instant updatedAt();

    /** {@return the record's size in UTF-8 bytes: ids, tool name, arguments, fingerprint, raw response, agent result} */
    public long byteSize() {
        return request().requestBytes;
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

    /** {@return the type of the failure that ended the record, when one said why (harness-only); only on ERROR} */
    public Option<String> failureType() {
        return Option.none();
    }

    /** {@return the failure's masked, bounded message, when one said why (harness-only); only on ERROR} */
    public Option<String> failureMessage() {
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
                && agentResult().equals(that.agentResult()) && errorCode().equals(that.errorCode())
                && failureType().equals(that.failureType()) && failureMessage().equals(that.failureMessage());
    }

    @Override
    public final int hashCode() {
        return Objects.hash(key(), tool(), arguments(), requestFingerprint(), createdAt(), updatedAt(), rawResponse(),
                agentResult(), errorCode(), failureType(), failureMessage());
    }

    @Override
    public final String toString() {
        return "CanonicalRecord." + getClass().getSimpleName() + "[key=" + key() + ", tool=" + tool().value()
                + ", status=" + status() + evidence().map(evidence -> ", evidence=" + evidence).getOrElse("")
                + errorCode().map(code -> ", code=" + code).getOrElse("") + ", createdAt=" + createdAt()
                + ", updatedAt=" + updatedAt() + ", " + byteSize() + " bytes]";
    }


    /** A record that is READY or ERROR: its PROJECTING self with how the call ended. It never changes again. */
    public abstract static sealed class Final extends CanonicalRecord permits Ready, Failed {

        private final Projecting begun;
        private final Option<String> rawResponse;
        private final Instant completedAt;
        /** What the completion adds to the record, in UTF-8 bytes. */
        private final long addedBytes;

        private Final(Projecting begun, Option<String> rawResponse, long addedBytes, Instant completedAt) {
            this.begun = begun;
            this.rawResponse = rawResponse;
            this.addedBytes = addedBytes;
            this.completedAt = completedAt.isBefore(begun.createdAt()) ? begun.createdAt() : completedAt;
        }

        @Override
        Projecting request() {
            return begun;
        }

        /** {@return the PROJECTING record this record completed: the request both share} */
        public Projecting begun() {
            return begun;
        }

        @Override
        public Instant updatedAt() {
            return completedAt;
        }

        @Override
        public Option<String> rawResponse() {
            return rawResponse;
        }

        @Override
        public long byteSize() {
            return super.byteSize() + addedBytes;
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
        Projecting request() {
            return this;
        }

        /**
         * Completes the invocation with its raw response and checked agent result. No limit is checked here:
         * the caller compares {@link #byteSize()} of the answer with its record limit.
         *
         * @param rawResponse the complete raw response
         * @param result the checked agent result
         * @param at the completion time (never earlier than {@link #createdAt()} in the record)
         * @return the READY record
         * @throws IllegalArgumentException when the raw response is not well-formed Unicode
         */
        public Ready ready(String rawResponse, AgentResult result, Instant at) {
            return new Ready(this, rawResponse, result, at);
        }

        /**
         * Ends the invocation in ERROR, keeping the raw response when there is one.
         *
         * @param code the error code
         * @param rawResponse the raw response, when it was obtained and fits the record limit
         * @param at the time of failure (never earlier than {@link #createdAt()} in the record)
         * @return the ERROR record with that code
         * @throws IllegalArgumentException when the raw response is not well-formed Unicode
         */
        public Failed failed(ErrorCode code, Option<String> rawResponse, Instant at) {
            return new Failed(this, code, rawResponse, Option.none(), Option.none(), at);
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

        private final AgentResult result;

        private Ready(Projecting begun, String raw, AgentResult result, Instant at) {
            super(begun, Option.of(raw), Utf8.measure(requireNonNull(raw, "rawResponse is null"), "rawResponse")
                    + requireNonNull(result, "result is null").byteSize(), requireNonNull(at, "at is null"));
            this.result = result;
        }

        /** {@return the complete raw response} */
        public String raw() {
            return rawResponse().get();
        }

        /** {@return the agent result} */
        public AgentResult result() {
            return result;
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.READY;
        }

        @Override
        public Option<AgentResult> agentResult() {
            return Option.of(result);
        }
    }

    /**
     * The invocation failed after its record was created: status and evidence ERROR; never referencable.
     * When a tool or projector threw, it may say why, for the harness only: the failure's type and a
     * message the boundary masked and bounded.
     */
    public static final class Failed extends Final {

        private final ErrorCode code;
        private final Option<String> failureType;
        private final Option<String> failureMessage;

        private Failed(Projecting begun, ErrorCode code, Option<String> raw, Option<String> failureType,
                Option<String> failureMessage, Instant at) {
            super(begun, requireNonNull(raw, "rawResponse is null"), measure(raw, "rawResponse")
                    + measure(failureType, "failureType") + measure(failureMessage, "failureMessage"),
                    requireNonNull(at, "at is null"));
            this.code = requireNonNull(code, "code is null");
            this.failureType = failureType;
            this.failureMessage = failureMessage;
        }

        private static long measure(Option<String> text, String what) {
            return text.isEmpty() ? 0 : Utf8.measure(requireNonNull(text.get(), what + " is null"), what);
        }

        /**
         * {@return this record, saying why it failed}
         *
         * @param type the failure's type, for example the exception's class name
         * @param message what the failure said, masked and bounded by the caller (harness-only data)
         * @throws IllegalArgumentException when a text is not well-formed Unicode
         */
        public Failed because(String type, String message) {
            return new Failed(begun(), code, rawResponse(), Option.of(requireNonNull(type, "type is null")),
                    Option.of(requireNonNull(message, "message is null")), updatedAt());
        }

        /** {@return the error code} */
        public ErrorCode code() {
            return code;
        }

        @Override
        public Option<String> failureType() {
            return failureType;
        }

        @Override
        public Option<String> failureMessage() {
            return failureMessage;
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.ERROR;
        }

        @Override
        public Option<ErrorCode> errorCode() {
            return Option.of(code);
        }
    }
}
