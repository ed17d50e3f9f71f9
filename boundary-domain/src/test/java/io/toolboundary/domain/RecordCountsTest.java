package io.toolboundary.domain;

import static io.toolboundary.domain.CanonicalRecordTest.CREATED;
import static io.toolboundary.domain.CanonicalRecordTest.FINGERPRINT;
import static io.toolboundary.domain.CanonicalRecordTest.KEY;
import static io.toolboundary.domain.CanonicalRecordTest.LATER;
import static io.toolboundary.domain.CanonicalRecordTest.REQUEST;
import static io.toolboundary.domain.CanonicalRecordTest.TOOL;
import static io.toolboundary.domain.CanonicalRecordTest.UNBOUNDED;
import static io.toolboundary.domain.CanonicalRecordTest.bytes;
import static io.toolboundary.domain.CanonicalRecordTest.found;
import static io.toolboundary.domain.CanonicalRecordTest.nothing;
import static io.toolboundary.domain.CanonicalRecordTest.projecting;
import static io.toolboundary.domain.CanonicalRecordTest.raw;
import static io.toolboundary.domain.CanonicalRecordTest.ready;
import static org.assertj.core.api.Assertions.assertThat;
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
        Ready completed = ready(projecting(), RAW, result, LATER, UNBOUNDED).get();
        Ready whole = (Ready) CanonicalRecord.restore(KEY, TOOL, REQUEST, FINGERPRINT, CREATED,
                Option.some(new Completion.Succeeded(RAW, result, LATER)));

        assertThat(completed).isEqualTo(whole).hasSameHashCodeAs(whole);
        assertThat(completed.byteSize()).isEqualTo(whole.byteSize())
                .isEqualTo(bytes("run-1") + bytes("call_01:a.b") + bytes("search.logs") + bytes(REQUEST)
                        + bytes(FINGERPRINT) + bytes(RAW) + bytes("n\u00e9ant") + bytes("scope \ud83d\ude00"));
        assertThat(completed.argumentsBytes()).isEqualTo(whole.argumentsBytes()).isEqualTo(bytes(REQUEST));
    }

    @Test
    void aRecordCompletedByItsCompletionKeepsTheCompletionsCount() {
        Projecting begun = projecting();
        Final ready = ready(begun, RAW, found("found"), LATER, UNBOUNDED).get();
        Final failed = begun.failed(ErrorCode.PROJECTION_FAILED, Option.some(raw(RAW)), LATER);

        for (Final done : List.of(ready, failed)) {
            Completion completion = done.completion();
            assertThat(begun.complete(completion)).isEqualTo(done);
            assertThat(begun.complete(completion).completion()).isSameAs(completion);
            assertThat(begun.complete(completion).byteSize()).isEqualTo(done.byteSize())
                    .isEqualTo(begun.byteSize() + completion.byteSize());
        }
    }

    @Test
    void aCompletionBuiltWholeCountsAsTheOneTakenFromItsRecord() {
        Ready ready = ready(projecting(), RAW, found("found \u00e9"), LATER, UNBOUNDED).get();

        Completion whole = new Completion.Succeeded(RAW, found("found \u00e9"), LATER);

        assertThat(whole).isEqualTo(ready.completion()).hasSameHashCodeAs(ready.completion());
        assertThat(whole.byteSize()).isEqualTo(ready.completion().byteSize()).isEqualTo(bytes(RAW) + bytes("found \u00e9"));
        assertThat(new Completion.Failed(ErrorCode.EXECUTION_FAILED, Option.some(RAW), LATER).byteSize())
                .isEqualTo(bytes(RAW));
    }

    @Test
    void aRawResponseIsCountedOnceAndRefusedWithALoneSurrogate() {
        assertThat(RawResponse.of(RAW).get().byteSize()).isEqualTo(bytes(RAW));
        assertThat(RawResponse.of(RAW).get().text()).isSameAs(RAW);
        assertThat(RawResponse.of(LONE).getLeft().code()).isEqualTo(ErrorCode.TEXT_NOT_UNICODE);
        assertThat(RawResponse.of(RAW).get().toString()).doesNotContain("raw").contains(bytes(RAW) + " bytes");
    }

    @Test
    void aCheckedRawResponseMakesTheSameRecordAsItsText() {
        RawResponse raw = RawResponse.of(RAW).get();

        assertThat(projecting().ready(raw, found("f"), LATER, UNBOUNDED))
                .isEqualTo(ready(projecting(), RAW, found("f"), LATER, UNBOUNDED));
        assertThat(projecting().failed(ErrorCode.PROJECTION_INVALID, Option.some(raw), LATER))
                .isEqualTo(projecting().failed(ErrorCode.PROJECTION_INVALID, Option.some(raw(RAW)), LATER));
    }

    @ParameterizedTest
    @ValueSource(strings = {"arguments", "fingerprint", "raw", "failedRaw", "outcomeRaw", "content", "scope"})
    void noValueHoldsTextUtf8CannotKeep(String where) {
        assertThatThrownBy(() -> {
            switch (where) {
                case "arguments" -> new Projecting(KEY, TOOL, "{\"q\":\"" + LONE + "\"}", FINGERPRINT, CREATED);
                case "fingerprint" -> new Projecting(KEY, TOOL, REQUEST, LONE, CREATED);
                case "raw" -> CanonicalRecord.restore(KEY, TOOL, REQUEST, FINGERPRINT, CREATED,
                        Option.some(new Completion.Succeeded(LONE, found("f"), LATER)));
                case "failedRaw" -> CanonicalRecord.restore(KEY, TOOL, REQUEST, FINGERPRINT, CREATED,
                        Option.some(new Completion.Failed(ErrorCode.EXECUTION_FAILED, Option.some(LONE), LATER)));
                case "outcomeRaw" -> new Completion.Failed(ErrorCode.EXECUTION_FAILED, Option.some(LONE), LATER);
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
                .isNotEqualTo(begun.failed(ErrorCode.EXECUTION_FAILED, Option.some(raw("r")), LATER))
                .isNotEqualTo(begun.failed(ErrorCode.EXECUTION_FAILED, Option.none(), LATER.plusMillis(1)));
        assertThat(ready(begun, "r", found("a"), LATER, UNBOUNDED))
                .isNotEqualTo(ready(begun, "r", found("b"), LATER, UNBOUNDED));
    }

    @Test
    void aRecordsTextNeverReachesItsToString() {
        Ready ready = ready(projecting(), RAW, found("found"), LATER, UNBOUNDED).get();
        Failed failed = projecting().failed(ErrorCode.PROJECTION_FAILED, Option.some(raw(RAW)), LATER);

        for (Object value : List.of(projecting(), ready, failed, ready.completion(), failed.completion())) {
            assertThat(value.toString()).doesNotContain("caf\u00e9").doesNotContain("raw \u20ac")
                    .doesNotContain(FINGERPRINT).contains("bytes");
        }
        assertThat(ready.toString()).contains("call_01:a.b", "search.logs", "READY", "EVIDENCE_FOUND");
        assertThat(failed.toString()).contains("ERROR", "PROJECTION_FAILED");
    }
}
