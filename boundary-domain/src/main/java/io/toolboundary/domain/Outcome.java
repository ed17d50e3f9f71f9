package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;
import java.time.Instant;

/**
 * What a completion adds to a PROJECTING record: the raw response, the agent result or the error code,
 * and the completion time. The key, tool, request, fingerprint and creation time stay where the record's
 * begin put them; {@link CanonicalRecord.Projecting#complete(Outcome)} joins the two into the final record,
 * and {@link #of(CanonicalRecord.Final)} takes the outcome back out of one.
 */
public sealed interface Outcome permits Outcome.Ready, Outcome.Failed {

    /** {@return the final status the outcome gives the record: READY or ERROR} */
    InvocationStatus status();

    /** {@return the raw response, when one was obtained and is kept (harness-only data)} */
    Option<String> rawResponse();

    /** {@return when the call was completed; becomes the final record's {@code updatedAt}} */
    Instant completedAt();

    /** {@return the bytes the outcome adds to its record, in UTF-8, as {@link CanonicalRecord#byteSize()} counts them} */
    long byteSize();

    /**
     * The outcome of a final record: what its completion added to it.
     *
     * @param record a READY or ERROR record
     * @return its raw response, agent result or error code, and its {@code updatedAt}
     */
    static Outcome of(CanonicalRecord.Final record) {
        requireNonNull(record, "record is null");
        if (record instanceof CanonicalRecord.Ready ready) {
            return new Ready(ready.raw(), ready.result(), ready.updatedAt());
        }
        CanonicalRecord.Failed failed = (CanonicalRecord.Failed) record;
        return new Failed(failed.code(), failed.rawResponse(), failed.updatedAt());
    }

    /**
     * The tool ran and its result was projected.
     *
     * @param raw the complete raw response
     * @param result the checked agent result
     * @param completedAt the completion time
     */
    record Ready(String raw, AgentResult result, Instant completedAt) implements Outcome {

        /**
         * A READY outcome.
         *
         * @param raw the complete raw response
         * @param result the checked agent result
         * @param completedAt the completion time
         * @throws NullPointerException when any is null
         */
        public Ready {
            requireNonNull(raw, "raw is null");
            requireNonNull(result, "result is null");
            requireNonNull(completedAt, "completedAt is null");
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
            return Utf8.byteLength(raw) + result.byteSize();
        }
    }

    /**
     * The call failed after its record was created.
     *
     * @param code the error code
     * @param rawResponse the raw response, when it was obtained and could be kept (harness-only)
     * @param completedAt the failure time
     */
    record Failed(ErrorCode code, Option<String> rawResponse, Instant completedAt) implements Outcome {

        /**
         * An ERROR outcome.
         *
         * @param code the error code
         * @param rawResponse the raw response, when it was obtained and could be kept (harness-only)
         * @param completedAt the failure time
         * @throws NullPointerException when any is null
         */
        public Failed {
            requireNonNull(code, "code is null");
            requireNonNull(rawResponse, "rawResponse is null");
            requireNonNull(completedAt, "completedAt is null");
        }

        @Override
        public InvocationStatus status() {
            return InvocationStatus.ERROR;
        }

        @Override
        public long byteSize() {
            return rawResponse.map(Utf8::byteLength).getOrElse(0L);
        }
    }
}
