package io.toolboundary.domain;

import static io.toolboundary.domain.Utf8Test.charOfWidth;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.CanonicalRecord.Failed;
import io.toolboundary.domain.CanonicalRecord.Projecting;
import io.toolboundary.domain.CanonicalRecord.Ready;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalRecordTest {

    static final Instant CREATED = Instant.parse("2025-03-01T10:00:00Z");
    static final Instant LATER = CREATED.plusMillis(1500);
    static final InvocationKey KEY = InvocationKey.of(new RunId("run-1"), new ToolCallId("call_01:a.b"));
    static final ToolName TOOL = new ToolName("search.logs");
    static final String REQUEST = "{\"q\":\"caf\u00e9 \u20ac \ud83d\ude00\"}";
    static final String FINGERPRINT = "0123456789abcdef".repeat(4);
    static final Limits UNBOUNDED = new Limits(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);

    /** The checked raw response of a text that is well-formed Unicode. */
    static RawResponse raw(String text) {
        return RawResponse.of(text).get();
    }

    /** Completes {@code begun} with a raw response checked first, as the boundary does. */
    static Either<BoundaryError, Ready> ready(Projecting begun, String raw, AgentResult result, java.time.Instant at,
            Limits limits) {
        return RawResponse.of(raw).flatMap(checked -> begun.ready(checked, result, at, limits));
    }

    static Projecting projecting() {
        return new Projecting(KEY, TOOL, REQUEST, FINGERPRINT, CREATED);
    }

    static AgentResult found(String content) {
        return new AgentResult(content, EvidenceStatus.EVIDENCE_FOUND, Option.none());
    }

    static AgentResult nothing(String content, String scope) {
        return new AgentResult(content, EvidenceStatus.NO_EVIDENCE, Option.of(scope));
    }

    static long bytes(String text) {
        return text.getBytes(UTF_8).length;
    }

    /** Bytes every record of {@link #projecting()} holds: ids, tool, request, fingerprint. */
    static long fixedBytes() {
        return bytes("run-1") + bytes("call_01:a.b") + bytes("search.logs") + bytes(REQUEST) + bytes(FINGERPRINT);
    }

    @Nested
    class ProjectingRecord {

        @Test
        void isInFlightWithoutEvidenceRawResultOrCode() {
            Projecting record = projecting();

            assertThat(record.status()).isEqualTo(InvocationStatus.PROJECTING);
            assertThat(record.evidence()).isEmpty();
            assertThat(record.rawResponse()).isEmpty();
            assertThat(record.agentResult()).isEmpty();
            assertThat(record.errorCode()).isEmpty();
            assertThat(record.referencability()).isEqualTo(Referencability.NOT_REFERENCABLE);
            assertThat(record.updatedAt()).isEqualTo(CREATED);
        }

        @Test
        void countsIdsToolRequestAndFingerprintInUtf8() {
            assertThat(projecting().byteSize()).isEqualTo(fixedBytes()).isEqualTo(5 + 11 + 11 + 22 + 64);
        }
    }

    @Nested
    class ReadyRecord {

        @Test
        void withEvidenceFoundIsCitableEvidence() {
            AgentResult result = found("3 hits");

            Ready ready = ready(projecting(), "raw body", result, LATER, UNBOUNDED).get();

            assertThat(ready.status()).isEqualTo(InvocationStatus.READY);
            assertThat(ready.evidence()).isEqualTo(Option.of(EvidenceStatus.EVIDENCE_FOUND));
            assertThat(ready.referencability()).isEqualTo(Referencability.CITABLE_EVIDENCE);
            assertThat(ready.rawResponse()).isEqualTo(Option.of("raw body"));
            assertThat(ready.agentResult()).isEqualTo(Option.of(result));
            assertThat(ready.errorCode()).isEmpty();
            assertThat(ready.updatedAt()).isEqualTo(LATER);
            assertSameInvocation(ready);
        }

        @Test
        void withNoEvidenceIsOnlyAScopedNegativeObservation() {
            AgentResult result = nothing("no match", "service checkout, 10:00-10:15");

            Ready ready = ready(projecting(), "[]", result, LATER, UNBOUNDED).get();

            assertThat(ready.status()).isEqualTo(InvocationStatus.READY);
            assertThat(ready.evidence()).isEqualTo(Option.of(EvidenceStatus.NO_EVIDENCE));
            assertThat(ready.referencability()).isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
            assertThat(ready.result().scope()).isEqualTo(Option.of("service checkout, 10:00-10:15"));
        }

        @Test
        void neverUpdatesBeforeItWasCreated() {
            Ready ready = ready(projecting(), "raw", found("x"), CREATED.minusSeconds(30), UNBOUNDED).get();

            assertThat(ready.updatedAt()).isEqualTo(CREATED);
            assertThat(ready(projecting(), "raw", found("x"), CREATED, UNBOUNDED).get().updatedAt()).isEqualTo(CREATED);
        }

        @Test
        void countsEveryPartInUtf8() {
            String raw = "r\u00e9\u20ac\ud83d\ude00";
            AgentResult result = nothing("c\u00e9", "s\u20ac\ud83d\ude00");

            Ready ready = ready(projecting(), raw, result, LATER, UNBOUNDED).get();

            assertThat(ready.byteSize())
                    .isEqualTo(fixedBytes() + bytes(raw) + bytes("c\u00e9") + bytes("s\u20ac\ud83d\ude00"))
                    .isEqualTo(fixedBytes() + 10 + 3 + 8);
        }

        @ParameterizedTest(name = "raw ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void acceptsARecordOfExactlyTheRecordLimit(int lastWidth) {
            AgentResult result = found("hit \u00e9");
            String raw = "r".repeat(100) + charOfWidth(lastWidth);
            long exact = fixedBytes() + 100 + lastWidth + bytes("hit \u00e9");

            Either<BoundaryError, Ready> ready = ready(projecting(), raw, result, LATER, recordLimit(exact));

            assertThat(ready.isRight()).isTrue();
            assertThat(ready.get().byteSize()).isEqualTo(exact);
        }

        @ParameterizedTest(name = "raw ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void rejectsARecordOfOneByteOverTheRecordLimit(int lastWidth) {
            AgentResult result = found("hit \u00e9");
            String raw = "r".repeat(101) + charOfWidth(lastWidth);
            long limit = fixedBytes() + 100 + lastWidth + bytes("hit \u00e9");

            Either<BoundaryError, Ready> ready = ready(projecting(), raw, result, LATER, recordLimit(limit));

            assertThat(ready.getLeft()).isEqualTo(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE));
        }

        @ParameterizedTest(name = "scope ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void countsTheAgentResultAgainstTheRecordLimit(int lastWidth) {
            String scope = "s".repeat(20) + charOfWidth(lastWidth);
            long exact = fixedBytes() + bytes("raw") + bytes("c") + 20 + lastWidth;

            assertThat(ready(projecting(), "raw", nothing("c", scope), LATER, recordLimit(exact)).isRight()).isTrue();
            assertThat(ready(projecting(), "raw", nothing("c", scope), LATER, recordLimit(exact - 1)).getLeft().code())
                    .isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        }

        @ParameterizedTest
        @ValueSource(strings = {"\uD83D", "\uDE00", "ok\uD83D", "\uDE00\uD83D", "\ud83d\ude00\ude00"})
        void rejectsRawResponseWithALoneSurrogate(String raw) {
            Either<BoundaryError, Ready> ready = ready(projecting(), raw, found("x"), LATER, UNBOUNDED);

            assertThat(ready.getLeft()).isEqualTo(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
        }

        private static Limits recordLimit(long recordBytes) {
            return new Limits(1, 1, recordBytes, 1);
        }
    }

    @Nested
    class FailedRecord {

        @ParameterizedTest
        @EnumSource(ErrorCode.class)
        void endsInErrorWithErrorEvidenceAndIsNeverReferencable(ErrorCode code) {
            Failed failed = projecting().failed(code, Option.none(), LATER);

            assertThat(failed.status()).isEqualTo(InvocationStatus.ERROR);
            assertThat(failed.evidence()).isEqualTo(Option.of(EvidenceStatus.ERROR));
            assertThat(failed.referencability()).isEqualTo(Referencability.NOT_REFERENCABLE);
            assertThat(failed.errorCode()).isEqualTo(Option.of(code));
            assertThat(failed.agentResult()).isEmpty();
            assertThat(failed.rawResponse()).isEmpty();
            assertThat(failed.updatedAt()).isEqualTo(LATER);
            assertSameInvocation(failed);
        }

        @Test
        void keepsTheRawResponseWhenGiven() {
            Failed failed = projecting().failed(ErrorCode.PROJECTION_FAILED, Option.of(raw("raw \u20ac")), LATER);

            assertThat(failed.rawResponse()).isEqualTo(Option.of("raw \u20ac"));
            assertThat(failed.byteSize()).isEqualTo(fixedBytes() + 7);
        }

        @Test
        void neverUpdatesBeforeItWasCreated() {
            assertThat(projecting().failed(ErrorCode.EXECUTION_FAILED, Option.none(), CREATED.minusNanos(1)).updatedAt())
                    .isEqualTo(CREATED);
        }

        @Test
        void countsOnlyTheFixedPartsWithoutRaw() {
            assertThat(projecting().failed(ErrorCode.EXECUTION_FAILED, Option.none(), LATER).byteSize())
                    .isEqualTo(fixedBytes());
        }
    }

    static void assertSameInvocation(CanonicalRecord record) {
        assertThat(record.key()).isEqualTo(KEY);
        assertThat(record.tool()).isEqualTo(TOOL);
        assertThat(record.arguments()).isEqualTo(REQUEST);
        assertThat(record.requestFingerprint()).isEqualTo(FINGERPRINT);
        assertThat(record.createdAt()).isEqualTo(CREATED);
    }
}
