package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;
import java.time.Instant;
import java.util.Objects;

/**
 * How a call ended, as a completion adds it to a PROJECTING record: the raw response, the agent result or
 * the error code, and the time. {@link CanonicalRecord.Projecting#complete(Completion)} joins it to the
 * begun record; {@link CanonicalRecord.Final#completion()} takes it back out. Its texts are well-formed
 * Unicode, measured once into {@link #byteSize()}.
 */
public sealed interface Completion permits Completion.Succeeded, Completion.Failed {

    /** {@return the final status the completion gives the record: READY or ERROR} */
    InvocationStatus status();

    /** {@return the raw response, when one was obtained and is kept (harness-only data)} */
    Option<String> rawResponse();

    /** {@return when the call was completed; becomes the final record's {@code updatedAt}} */
    Instant completedAt();

    /** {@return the bytes the completion adds to its record, in UTF-8, as {@link CanonicalRecord#byteSize()} counts them} */
    long byteSize();

    /** {@return the raw response's length in UTF-8 bytes; 0 without one} */
    long rawBytes();

    /** The tool ran and its result was projected: the record becomes READY. */
    final class Succeeded implements Completion {

        private final String raw;
        private final long rawBytes;
        private final AgentResult result;
        private final Instant completedAt;

        /**
         * A successful completion.
         *
         * @param raw the complete raw response
         * @param result the checked agent result
         * @param completedAt the completion time
         * @throws NullPointerException when any is null
         * @throws IllegalArgumentException when the raw response is not well-formed Unicode
         */
        public Succeeded(String raw, AgentResult result, Instant completedAt) {
            this(requireNonNull(raw, "raw is null"), Utf8.measure(raw, "raw"), result, completedAt);
        }

        Succeeded(String raw, long rawBytes, AgentResult result, Instant completedAt) {
            this.raw = raw;
            this.rawBytes = rawBytes;
            this.result = requireNonNull(result, "result is null");
            this.completedAt = requireNonNull(completedAt, "completedAt is null");
        }

        /** {@return the complete raw response} */
        public String raw() {
            return raw;
        }

        /** {@return the checked agent result} */
        public AgentResult result() {
            return result;
        }

        @Override
        public Instant completedAt() {
            return completedAt;
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.READY;
        }

        @Override
        public Option<String> rawResponse() {
            return Option.of(raw);
        }

        @Override
        public long byteSize() {
            return rawBytes + result.byteSize();
        }

        @Override
        public long rawBytes() {
            return rawBytes;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Succeeded that && raw.equals(that.raw) && result.equals(that.result)
                    && completedAt.equals(that.completedAt);
        }

        @Override
        public int hashCode() {
            return Objects.hash(raw, result, completedAt);
        }

        /** {@return the completion without its texts: the raw response is harness-only data} */
        @Override
        public String toString() {
            return "Completion.Succeeded[evidence=" + result.evidence() + ", completedAt=" + completedAt + ", "
                    + byteSize() + " bytes]";
        }
    }

    /** The call failed after its record was created: the record becomes ERROR. */
    final class Failed implements Completion {

        private final ErrorCode code;
        private final Option<String> rawResponse;
        private final long rawBytes;
        private final Instant completedAt;

        /**
         * A failed completion.
         *
         * @param code the error code
         * @param rawResponse the raw response, when it was obtained and could be kept (harness-only)
         * @param completedAt the failure time
         * @throws NullPointerException when any is null
         * @throws IllegalArgumentException when the raw response is not well-formed Unicode
         */
        public Failed(ErrorCode code, Option<String> rawResponse, Instant completedAt) {
            this(code, requireNonNull(rawResponse, "rawResponse is null"),
                    rawResponse.isDefined() ? Utf8.measure(rawResponse.get(), "rawResponse") : 0, completedAt);
        }

        Failed(ErrorCode code, Option<String> rawResponse, long rawBytes, Instant completedAt) {
            this.code = requireNonNull(code, "code is null");
            this.rawResponse = requireNonNull(rawResponse, "rawResponse is null");
            this.rawBytes = rawBytes;
            this.completedAt = requireNonNull(completedAt, "completedAt is null");
        }

        /** {@return the error code} */
        public ErrorCode code() {
            return code;
        }

        @Override
        public Option<String> rawResponse() {
            return rawResponse;
        }

        @Override
        public Instant completedAt() {
            return completedAt;
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.ERROR;
        }

        @Override
        public long byteSize() {
            return rawBytes;
        }

        @Override
        public long rawBytes() {
            return rawBytes;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Failed that && code == that.code && rawResponse.equals(that.rawResponse)
                    && completedAt.equals(that.completedAt);
        }

        @Override
        public int hashCode() {
            return Objects.hash(code, rawResponse, completedAt);
        }

        /** {@return the completion without its raw response, which is harness-only data} */
        @Override
        public String toString() {
            return "Completion.Failed[code=" + code + ", completedAt=" + completedAt + ", " + rawBytes + " raw bytes]";
        }
    }
}
