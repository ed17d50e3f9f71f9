package io.toolboundary.domain;

import static io.toolboundary.domain.internal.Utf8Test.charOfWidth;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.domain.CanonicalRecord.Failed;
import io.toolboundary.domain.CanonicalRecord.Projecting;
import io.toolboundary.domain.CanonicalRecord.Ready;
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

            Ready ready = projecting().ready("raw body", result, LATER);

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

            Ready ready = projecting().ready("[]", result, LATER);

            assertThat(ready.status()).isEqualTo(InvocationStatus.READY);
            assertThat(ready.evidence()).isEqualTo(Option.of(EvidenceStatus.NO_EVIDENCE));
            assertThat(ready.referencability()).isEqualTo(Referencability.SCOPED_NEGATIVE_OBSERVATION);
            assertThat(ready.result().scope()).isEqualTo(Option.of("service checkout, 10:00-10:15"));
        }

        @Test
        void neverUpdatesBeforeItWasCreated() {
            Ready ready = projecting().ready("raw", found("x"), CREATED.minusSeconds(30));

            assertThat(ready.updatedAt()).isEqualTo(CREATED);
            assertThat(projecting().ready("raw", found("x"), CREATED).updatedAt()).isEqualTo(CREATED);
        }

        @Test
        void countsEveryPartInUtf8() {
            String raw = "r\u00e9\u20ac\ud83d\ude00";
            AgentResult result = nothing("c\u00e9", "s\u20ac\ud83d\ude00");

            Ready ready = projecting().ready(raw, result, LATER);

            assertThat(ready.byteSize())
                    .isEqualTo(fixedBytes() + bytes(raw) + bytes("c\u00e9") + bytes("s\u20ac\ud83d\ude00"))
                    .isEqualTo(fixedBytes() + 10 + 3 + 8);
        }

        @ParameterizedTest(name = "raw ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void countsARecordOfExactlyTheRecordLimitAsThatLimit(int lastWidth) {
            AgentResult result = found("hit \u00e9");
            String raw = "r".repeat(100) + charOfWidth(lastWidth);
            long exact = fixedBytes() + 100 + lastWidth + bytes("hit \u00e9");

            Ready ready = projecting().ready(raw, result, LATER);

            // ready() checks no limit: the boundary keeps a READY record whose byteSize is within its limit.
            assertThat(ready.byteSize()).isEqualTo(exact);
        }

        @ParameterizedTest(name = "raw ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void countsARecordOfOneByteOverTheRecordLimitAsOver(int lastWidth) {
            AgentResult result = found("hit \u00e9");
            String raw = "r".repeat(101) + charOfWidth(lastWidth);
            long limit = fixedBytes() + 100 + lastWidth + bytes("hit \u00e9");

            Ready ready = projecting().ready(raw, result, LATER);

            // The boundary refuses a READY record whose byteSize is over its limit.
            assertThat(ready.byteSize()).isEqualTo(limit + 1);
        }

        @ParameterizedTest(name = "scope ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void countsTheAgentResultAgainstTheRecordLimit(int lastWidth) {
            String scope = "s".repeat(20) + charOfWidth(lastWidth);
            long exact = fixedBytes() + bytes("raw") + bytes("c") + 20 + lastWidth;

            assertThat(projecting().ready("raw", nothing("c", scope), LATER).byteSize()).isEqualTo(exact);
        }

        @ParameterizedTest
        @ValueSource(strings = {"\uD83D", "\uDE00", "ok\uD83D", "\uDE00\uD83D", "\ud83d\ude00\ude00"})
        void rejectsRawResponseWithALoneSurrogate(String raw) {
            assertThatIllegalArgumentException().isThrownBy(() -> projecting().ready(raw, found("x"), LATER))
                    .withMessageNotContaining(raw);
        }

        @Test
        void addsItsRawResponseAndAgentResultToTheRecordItBegan() {
            String raw = "raw \u20ac \ud83d\ude00";
            AgentResult result = nothing("n\u00e9ant", "scope \ud83d\ude00");
            Projecting begun = projecting();

            Ready ready = begun.ready(raw, result, LATER);

            assertThat(ready.begun()).isSameAs(begun);
            assertThat(ready.byteSize() - ready.begun().byteSize())
                    .isEqualTo(bytes(raw) + bytes("n\u00e9ant") + bytes("scope \ud83d\ude00"))
                    .isEqualTo(bytes(ready.rawResponse().get()) + result.byteSize());
        }

        @Test
        void equalsTheSameCompletionOfTheSameRecord() {
            Ready ready = projecting().ready("raw", found("hit"), LATER);

            assertThat(ready).isEqualTo(projecting().ready("raw", found("hit"), LATER))
                    .hasSameHashCodeAs(projecting().ready("raw", found("hit"), LATER))
                    .isNotEqualTo(projecting().ready("raw2", found("hit"), LATER))
                    .isNotEqualTo(projecting().ready("raw", found("hit2"), LATER))
                    .isNotEqualTo(projecting().ready("raw", found("hit"), LATER.plusMillis(1)))
                    .isNotEqualTo(projecting().failed(ErrorCode.EXECUTION_FAILED, Option.some("raw"), LATER));
        }

        @Test
        void refusesNullParts() {
            assertThatNullPointerException().isThrownBy(() -> projecting().ready(null, found("x"), LATER));
            assertThatNullPointerException().isThrownBy(() -> projecting().ready("raw", null, LATER));
            assertThatNullPointerException().isThrownBy(() -> projecting().ready("raw", found("x"), null));
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
            Failed failed = projecting().failed(ErrorCode.PROJECTION_FAILED, Option.of("raw \u20ac"), LATER);

            assertThat(failed.rawResponse()).isEqualTo(Option.of("raw \u20ac"));
            assertThat(failed.byteSize()).isEqualTo(fixedBytes() + 7);
            assertThat(failed.byteSize() - failed.begun().byteSize()).isEqualTo(bytes(failed.rawResponse().get()))
                    .isEqualTo(7);
        }

        @Test
        void equalsTheSameFailureOfTheSameRecord() {
            Failed failed = projecting().failed(ErrorCode.PROJECTION_FAILED, Option.of("raw"), LATER);

            assertThat(failed).isEqualTo(projecting().failed(ErrorCode.PROJECTION_FAILED, Option.of("raw"), LATER))
                    .hasSameHashCodeAs(projecting().failed(ErrorCode.PROJECTION_FAILED, Option.of("raw"), LATER))
                    .isNotEqualTo(projecting().failed(ErrorCode.PROJECTION_INVALID, Option.of("raw"), LATER))
                    .isNotEqualTo(projecting().failed(ErrorCode.PROJECTION_FAILED, Option.none(), LATER));
        }

        @ParameterizedTest
        @ValueSource(strings = {"\uD83D", "\uDE00", "ok\uD83D"})
        void rejectsRawResponseWithALoneSurrogate(String raw) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> projecting().failed(ErrorCode.EXECUTION_FAILED, Option.of(raw), LATER));
        }

        @Test
        void refusesNullParts() {
            assertThatNullPointerException().isThrownBy(() -> projecting().failed(null, Option.none(), LATER));
            assertThatNullPointerException()
                    .isThrownBy(() -> projecting().failed(ErrorCode.STORE_FULL, null, LATER));
            assertThatNullPointerException()
                    .isThrownBy(() -> projecting().failed(ErrorCode.STORE_FULL, Option.none(), null));
        }

        @Test
        void neverUpdatesBeforeItWasCreated() {
            assertThat(projecting().failed(ErrorCode.EXECUTION_FAILED, Option.none(), CREATED.minusNanos(1)).updatedAt())
                    .isEqualTo(CREATED);
        }

        @Test
        void countsOnlyTheFixedPartsWithoutRaw() {
            Failed failed = projecting().failed(ErrorCode.EXECUTION_FAILED, Option.none(), LATER);

            assertThat(failed.byteSize()).isEqualTo(fixedBytes());
            assertThat(failed.byteSize() - failed.begun().byteSize()).isZero();
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
