package io.toolboundary.domain;

import static io.toolboundary.domain.CanonicalRecordTest.CREATED;
import static io.toolboundary.domain.CanonicalRecordTest.FINGERPRINT;
import static io.toolboundary.domain.CanonicalRecordTest.KEY;
import static io.toolboundary.domain.CanonicalRecordTest.LATER;
import static io.toolboundary.domain.CanonicalRecordTest.REQUEST;
import static io.toolboundary.domain.CanonicalRecordTest.TOOL;
import static io.toolboundary.domain.CanonicalRecordTest.bytes;
import static io.toolboundary.domain.CanonicalRecordTest.found;
import static io.toolboundary.domain.CanonicalRecordTest.nothing;
import static io.toolboundary.domain.CanonicalRecordTest.projecting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.domain.CanonicalRecord.Failed;
import io.toolboundary.domain.CanonicalRecord.Final;
import io.toolboundary.domain.CanonicalRecord.Projecting;
import io.toolboundary.domain.CanonicalRecord.Ready;
import io.vavr.control.Option;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each text of a record, outcome or result is checked for Unicode and counted once, when the value is
 * made; every later state carries the counts, and they agree with what the texts take in UTF-8.
 */
class RecordCountsTest {

    private static final String RAW = "raw \u20ac \ud83d\ude00 " + "x".repeat(100);
    private static final String LONE = "broken \udc00 text";

    @Test
    void aReadyRecordCountsWhatTheSameRecordBuiltWholeCounts() {
        AgentResult result = nothing("n\u00e9ant", "scope \ud83d\ude00");
        Ready completed = projecting().ready(RAW, result, LATER);
        Ready whole = new Projecting(KEY, TOOL, REQUEST, FINGERPRINT, CREATED)
                .ready(RAW, nothing("n\u00e9ant", "scope \ud83d\ude00"), LATER);

        assertThat(completed).isEqualTo(whole).hasSameHashCodeAs(whole);
        assertThat(completed.byteSize()).isEqualTo(whole.byteSize())
                .isEqualTo(bytes("run-1") + bytes("call_01:a.b") + bytes("search.logs") + bytes(REQUEST)
                        + bytes(FINGERPRINT) + bytes(RAW) + bytes("n\u00e9ant") + bytes("scope \ud83d\ude00"));
        assertThat(completed.argumentsBytes()).isEqualTo(whole.argumentsBytes()).isEqualTo(bytes(REQUEST));
    }

    @Test
    void aFinalRecordIsItsBegunRecordAndWhatItsCompletionAdds() {
        Projecting begun = projecting();
        Final ready = begun.ready(RAW, found("found"), LATER);
        Final failed = begun.failed(ErrorCode.PROJECTION_FAILED, Option.some(RAW), LATER);

        assertThat(ready.byteSize() - ready.begun().byteSize()).isEqualTo(bytes(RAW) + bytes("found"));
        assertThat(failed.byteSize() - failed.begun().byteSize()).isEqualTo(bytes(RAW));
        for (Final done : List.of(ready, failed)) {
            assertThat(done.begun()).isSameAs(begun);
            assertThat(done.byteSize()).isEqualTo(begun.byteSize() + bytes(done.rawResponse().get())
                    + done.agentResult().map(AgentResult::byteSize).getOrElse(0L));
        }
    }

    @Test
    void aCompletionMadeAgainCountsAsTheOneItsRecordHolds() {
        Ready ready = projecting().ready(RAW, found("found \u00e9"), LATER);

        Ready again = projecting().ready(RAW, found("found \u00e9"), LATER);

        assertThat(again).isEqualTo(ready).hasSameHashCodeAs(ready);
        assertThat(again.byteSize() - again.begun().byteSize()).isEqualTo(ready.byteSize() - ready.begun().byteSize())
                .isEqualTo(bytes(RAW) + bytes("found \u00e9"));
        Failed failed = projecting().failed(ErrorCode.EXECUTION_FAILED, Option.some(RAW), LATER);
        assertThat(failed.byteSize() - failed.begun().byteSize()).isEqualTo(bytes(RAW));
    }

    @Test
    void aRawResponseIsKeptAsGivenAndRefusedWithALoneSurrogate() {
        Ready ready = projecting().ready(RAW, found("f"), LATER);

        assertThat(ready.raw()).isSameAs(RAW);
        assertThat(ready.rawResponse().get()).isSameAs(RAW);
        assertThat(ready.byteSize() - ready.begun().byteSize() - ready.result().byteSize()).isEqualTo(bytes(RAW));
        assertThatIllegalArgumentException().isThrownBy(() -> projecting().ready(LONE, found("f"), LATER))
                .withMessageNotContaining("broken");
    }

    @ParameterizedTest
    @ValueSource(strings = {"arguments", "fingerprint", "raw", "failedRaw", "outcomeRaw", "content", "scope"})
    void noValueHoldsTextUtf8CannotKeep(String where) {
        assertThatThrownBy(() -> {
            switch (where) {
                case "arguments" -> new Projecting(KEY, TOOL, "{\"q\":\"" + LONE + "\"}", FINGERPRINT, CREATED);
                case "fingerprint" -> new Projecting(KEY, TOOL, REQUEST, LONE, CREATED);
                case "raw" -> projecting().ready(LONE, found("f"), LATER);
                case "failedRaw" -> projecting().failed(ErrorCode.EXECUTION_FAILED, Option.some(LONE), LATER);
                case "outcomeRaw" -> projecting().failed(ErrorCode.PROJECTION_INVALID, Option.some(LONE), LATER);
                case "content" -> found(LONE);
                default -> nothing("n", LONE);
            }
        }).isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("broken");
    }

    @Test
    void recordsOfDifferentStatesOrContentsDiffer() {
        Projecting begun = projecting();
        Failed failed = begun.failed(ErrorCode.EXECUTION_FAILED, Option.none(), LATER);

        assertThat(begun).isNotEqualTo(failed).isEqualTo(projecting());
        assertThat(failed).isNotEqualTo(begun.failed(ErrorCode.PROJECTION_FAILED, Option.none(), LATER))
                .isNotEqualTo(begun.failed(ErrorCode.EXECUTION_FAILED, Option.some("r"), LATER))
                .isNotEqualTo(begun.failed(ErrorCode.EXECUTION_FAILED, Option.none(), LATER.plusMillis(1)));
        assertThat(begun.ready("r", found("a"), LATER)).isNotEqualTo(begun.ready("r", found("b"), LATER));
    }

    @Test
    void aRecordsTextNeverReachesItsToString() {
        Ready ready = projecting().ready(RAW, found("found"), LATER);
        Failed failed = projecting().failed(ErrorCode.PROJECTION_FAILED, Option.some(RAW), LATER)
                .because("java.lang.IllegalStateException", "raw \u20ac password=[masked]");

        for (Object value : List.of(projecting(), ready, failed)) {
            assertThat(value.toString()).doesNotContain("caf\u00e9").doesNotContain("raw \u20ac")
                    .doesNotContain(FINGERPRINT).contains("bytes");
        }
        assertThat(ready.toString()).contains("call_01:a.b", "search.logs", "READY", "EVIDENCE_FOUND");
        assertThat(failed.toString()).contains("ERROR", "PROJECTION_FAILED").doesNotContain("IllegalStateException");
    }

    @Test
    void aFailureReasonIsPartOfTheRecordItsBytesAndItsEquality() {
        Failed failed = projecting().failed(ErrorCode.EXECUTION_FAILED, Option.some("r"), LATER);
        Failed explained = failed.because("java.net.SocketTimeoutException", "Read timed out \ud83d\ude00");

        assertThat(explained.failureType()).contains("java.net.SocketTimeoutException");
        assertThat(explained.failureMessage()).contains("Read timed out \ud83d\ude00");
        assertThat(explained.byteSize()).isEqualTo(failed.byteSize() + "java.net.SocketTimeoutException".length()
                + "Read timed out ".length() + 4);
        assertThat(explained).isNotEqualTo(failed).isEqualTo(failed.because("java.net.SocketTimeoutException",
                "Read timed out \ud83d\ude00"));
        assertThat(explained.code()).isEqualTo(failed.code());
        assertThat(explained.rawResponse()).isEqualTo(failed.rawResponse());
        assertThat(explained.updatedAt()).isEqualTo(failed.updatedAt());
        assertThat(explained.begun()).isEqualTo(failed.begun());
        assertThat(failed.failureType()).isEmpty();
        assertThat(failed.failureMessage()).isEmpty();
        assertThat(projecting().ready("r", found("a"), LATER).failureType()).isEmpty();
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> failed.because("Type", "lone \udc00 surrogate"));
        org.assertj.core.api.Assertions.assertThatNullPointerException().isThrownBy(() -> failed.because(null, "m"));
    }
}
