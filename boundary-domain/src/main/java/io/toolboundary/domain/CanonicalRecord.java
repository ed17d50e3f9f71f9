package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;

/**
 * The one canonical record of an invocation, kept per {@link InvocationKey}: the complete request (tool and arguments),
 * the complete raw response, the agent result, the lifecycle and evidence status, the error code and
 * the timestamps.
 *
 * <p>Each lifecycle state is its own type, so an illegal record cannot be built:
 * {@link Projecting} may become {@link Ready} or {@link Failed}, and those never change again.
 */
public sealed interface CanonicalRecord permits CanonicalRecord.Projecting, CanonicalRecord.Final {

    /** {@return the run and the exact framework tool_call_id} */
    InvocationKey key();

    /** {@return the tool that was called} */
    ToolName tool();

    /** {@return the complete arguments JSON, exactly as the framework supplied it} */
    String arguments();

    /** {@return a fingerprint of the request (the tool's name and the arguments' canonical JSON), used to tell a replay from a reused id} */
    String requestFingerprint();

    /** {@return when the record was created} */
    Instant createdAt();

    /** {@return when the record last changed} */
    Instant updatedAt();

    /** {@return the lifecycle status} */
    InvocationStatus status();

    /** {@return the evidence status; none while PROJECTING} */
    Option<EvidenceStatus> evidence();

    /** {@return the complete raw response, when one was obtained and kept (harness-only data)} */
    Option<String> rawResponse();

    /** {@return the bounded result given to the agent; only on READY} */
    Option<AgentResult> agentResult();

    /** {@return the error code; only on ERROR} */
    Option<ErrorCode> errorCode();

    /** {@return how this record may be cited} */
    Referencability referencability();

    /** {@return the record's size in UTF-8 bytes: ids, tool name, arguments, fingerprint, raw response, agent result} */
    default long byteSize() {
        // Ids and tool names are ASCII by construction: one byte per character.
        long bytes = key().runId().value().length()
                + key().toolCallId().value().length()
                + tool().value().length()
                + Utf8.byteLength(arguments())
                + Utf8.byteLength(requestFingerprint());
        Option<String> raw = rawResponse();
        if (raw.isDefined()) {
            bytes += Utf8.byteLength(raw.get());
        }
        Option<AgentResult> result = agentResult();
        if (result.isDefined()) {
            bytes += result.get().byteSize();
        }
        return bytes;
    }

    /** A record that is READY or ERROR: it never changes again. */
    sealed interface Final extends CanonicalRecord permits Ready, Failed {
    }

    /**
     * Created just before the tool runs. Holds the arguments, no result yet.
     *
     * @param key the canonical key
     * @param tool the tool
     * @param arguments the complete arguments JSON
     * @param requestFingerprint the fingerprint of the request's canonical JSON
     * @param createdAt the creation time
     */
    record Projecting(InvocationKey key, ToolName tool, String arguments, String requestFingerprint, Instant createdAt)
            implements CanonicalRecord {

        /**
         * Builds the record of a call that is about to run.
         *
         * @param key the canonical key
         * @param tool the tool
         * @param arguments the complete arguments JSON
         * @param requestFingerprint the fingerprint of the request's canonical JSON
         * @param createdAt the creation time
         */
        public Projecting {
            requireNonNull(key, "key is null");
            requireNonNull(tool, "tool is null");
            requireNonNull(arguments, "arguments is null");
            requireNonNull(requestFingerprint, "requestFingerprint is null");
            requireNonNull(createdAt, "createdAt is null");
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
            requireNonNull(result, "result is null");
            requireNonNull(at, "at is null");
            requireNonNull(limits, "limits is null");
            long rawBytes = Utf8.wellFormedByteLength(rawResponse);
            if (rawBytes < 0) {
                return Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
            }
            // The READY record's byteSize(), without counting the raw response a second time.
            if (byteSize() + rawBytes + result.byteSize() > limits.recordBytes()) {
                return Either.left(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE));
            }
            return Either.right(new Ready(key, tool, arguments, requestFingerprint, createdAt, notBefore(at), rawResponse,
                    result));
        }

        /**
         * Ends the invocation in ERROR, keeping the raw response when there is one.
         *
         * @param code the error code
         * @param rawResponse the raw response, when it was obtained, is Unicode and fits the record limit
         * @param at the time of failure (never earlier than {@link #createdAt()} in the record)
         * @return the ERROR record with that code
         */
        public Failed fail(ErrorCode code, Option<String> rawResponse, Instant at) {
            return new Failed(key, tool, arguments, requestFingerprint, createdAt, notBefore(at), rawResponse, code);
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
            if (outcome instanceof Outcome.Ready ready) {
                return new Ready(key, tool, arguments, requestFingerprint, createdAt, ready.completedAt(), ready.raw(),
                        ready.result());
            }
            Outcome.Failed failed = (Outcome.Failed) outcome;
            return new Failed(key, tool, arguments, requestFingerprint, createdAt, failed.completedAt(),
                    failed.rawResponse(), failed.code());
        }

        private Instant notBefore(Instant at) {
            return at.isBefore(createdAt) ? createdAt : at;
        }

        @Override
        public Instant updatedAt() {
            return createdAt;
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.PROJECTING;
        }

        @Override
        public Option<EvidenceStatus> evidence() {
            return Option.none();
        }

        @Override
        public Option<String> rawResponse() {
            return Option.none();
        }

        @Override
        public Option<AgentResult> agentResult() {
            return Option.none();
        }

        @Override
        public Option<ErrorCode> errorCode() {
            return Option.none();
        }

        @Override
        public Referencability referencability() {
            return Referencability.NOT_REFERENCABLE;
        }
    }

    /**
     * The tool ran and its bounded projection is stored beside the complete raw response.
     *
     * @param key the canonical key
     * @param tool the tool
     * @param arguments the complete arguments JSON
     * @param requestFingerprint the fingerprint of the request's canonical JSON
     * @param createdAt the creation time
     * @param updatedAt the completion time
     * @param raw the complete raw response
     * @param result the agent result
     */
    record Ready(InvocationKey key, ToolName tool, String arguments, String requestFingerprint, Instant createdAt,
            Instant updatedAt, String raw, AgentResult result) implements Final {

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
         */
        public Ready {
            requireNonNull(key, "key is null");
            requireNonNull(tool, "tool is null");
            requireNonNull(arguments, "arguments is null");
            requireNonNull(requestFingerprint, "requestFingerprint is null");
            requireNonNull(createdAt, "createdAt is null");
            requireNonNull(updatedAt, "updatedAt is null");
            requireNonNull(raw, "raw is null");
            requireNonNull(result, "result is null");
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.READY;
        }

        @Override
        public Option<EvidenceStatus> evidence() {
            return Option.of(result.evidence());
        }

        @Override
        public Option<String> rawResponse() {
            return Option.of(raw);
        }

        @Override
        public Option<AgentResult> agentResult() {
            return Option.of(result);
        }

        @Override
        public Option<ErrorCode> errorCode() {
            return Option.none();
        }

        @Override
        public Referencability referencability() {
            return result.evidence() == EvidenceStatus.EVIDENCE_FOUND
                    ? Referencability.CITABLE_EVIDENCE
                    : Referencability.SCOPED_NEGATIVE_OBSERVATION;
        }
    }

    /**
     * The invocation failed after its record was created. Evidence is ERROR; it is never referencable.
     *
     * @param key the canonical key
     * @param tool the tool
     * @param arguments the complete arguments JSON
     * @param requestFingerprint the fingerprint of the request's canonical JSON
     * @param createdAt the creation time
     * @param updatedAt the failure time
     * @param rawResponse the raw response, when it was obtained and could be kept (harness-only)
     * @param code the error code
     */
    record Failed(InvocationKey key, ToolName tool, String arguments, String requestFingerprint, Instant createdAt,
            Instant updatedAt, Option<String> rawResponse, ErrorCode code) implements Final {

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
         */
        public Failed {
            requireNonNull(key, "key is null");
            requireNonNull(tool, "tool is null");
            requireNonNull(arguments, "arguments is null");
            requireNonNull(requestFingerprint, "requestFingerprint is null");
            requireNonNull(createdAt, "createdAt is null");
            requireNonNull(updatedAt, "updatedAt is null");
            requireNonNull(rawResponse, "rawResponse is null");
            requireNonNull(code, "code is null");
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.ERROR;
        }

        @Override
        public Option<EvidenceStatus> evidence() {
            return Option.of(EvidenceStatus.ERROR);
        }

        @Override
        public Option<AgentResult> agentResult() {
            return Option.none();
        }

        @Override
        public Option<ErrorCode> errorCode() {
            return Option.of(code);
        }

        @Override
        public Referencability referencability() {
            return Referencability.NOT_REFERENCABLE;
        }
    }
}
