package io.toolboundary.application.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Option;
import java.util.EnumSet;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StoreFailureTest {

    /** Every refusal with the code it is reported with: one row per constant. */
    private static final Map<Refusal, ErrorCode> REFUSAL_CODES = Map.of(
            Refusal.RUN_STATE_LOST, ErrorCode.RUN_STATE_LOST,
            Refusal.DUPLICATE, ErrorCode.DUPLICATE_TOOL_CALL,
            Refusal.ID_REUSED, ErrorCode.TOOL_CALL_ID_REUSED,
            Refusal.RUN_BUDGET_EXHAUSTED, ErrorCode.RUN_BUDGET_EXHAUSTED,
            Refusal.TOOL_BUDGET_EXHAUSTED, ErrorCode.TOOL_BUDGET_EXHAUSTED,
            Refusal.TOO_LARGE, ErrorCode.RESULT_TOO_LARGE,
            Refusal.NOT_UNICODE, ErrorCode.TEXT_NOT_UNICODE,
            Refusal.EXPIRED, ErrorCode.RECORD_EXPIRED,
            Refusal.CONFLICT, ErrorCode.RECORD_CONFLICT,
            Refusal.LEASE_NOT_EXPIRED, ErrorCode.LEASE_NOT_EXPIRED);

    /** Every kind but REFUSED with its factory and the code it is reported with. */
    private static final Map<StoreFailure.Kind, Map.Entry<Supplier<StoreFailure>, ErrorCode>> KIND_CODES = Map.of(
            StoreFailure.Kind.UNAVAILABLE, Map.entry(StoreFailure::unavailable, ErrorCode.STORE_UNAVAILABLE),
            StoreFailure.Kind.FULL, Map.entry(StoreFailure::full, ErrorCode.STORE_FULL),
            StoreFailure.Kind.OUTCOME_UNKNOWN, Map.entry(StoreFailure::outcomeUnknown, ErrorCode.STORE_OUTCOME_UNKNOWN),
            StoreFailure.Kind.DATA_INVALID, Map.entry(StoreFailure::dataInvalid, ErrorCode.STORE_DATA_INVALID));

    @Test
    void theTableHasARowForEveryRefusal() {
        assertThat(REFUSAL_CODES.keySet()).as("every refusal the domain has")
                .containsExactlyInAnyOrderElementsOf(EnumSet.allOf(Refusal.class));
    }

    @ParameterizedTest
    @EnumSource(Refusal.class)
    void reportsEveryRefusalWithItsOwnCode(Refusal refusal) {
        assertThat(REFUSAL_CODES).as("a row for %s", refusal).containsKey(refusal);
        ErrorCode expected = REFUSAL_CODES.get(refusal);

        assertThat(StoreFailure.code(refusal)).isEqualTo(expected);
        assertThat(StoreFailure.refused(refusal).code()).isEqualTo(expected);
    }

    @Test
    void tellsEveryRefusalApart() {
        assertThat(EnumSet.allOf(Refusal.class).stream().map(StoreFailure::code).distinct())
                .hasSize(Refusal.values().length);
    }

    @Test
    void theTableHasARowForEveryKindButRefused() {
        assertThat(KIND_CODES.keySet()).containsExactlyInAnyOrderElementsOf(
                EnumSet.complementOf(EnumSet.of(StoreFailure.Kind.REFUSED)));
    }

    @ParameterizedTest
    @EnumSource(value = StoreFailure.Kind.class, names = "REFUSED", mode = EnumSource.Mode.EXCLUDE)
    void reportsEveryKindWithItsCodeAndNoRefusal(StoreFailure.Kind kind) {
        assertThat(KIND_CODES).as("a row for %s", kind).containsKey(kind);
        StoreFailure failure = KIND_CODES.get(kind).getKey().get();

        assertThat(failure.kind()).isEqualTo(kind);
        assertThat(failure.refusal()).isEmpty();
        assertThat(failure.code()).isEqualTo(KIND_CODES.get(kind).getValue());
        assertThat(failure).isEqualTo(new StoreFailure(kind, Option.none()));
        for (Refusal refusal : Refusal.values()) {
            assertThat(failure.is(refusal)).as("%s is %s", kind, refusal).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(Refusal.class)
    void aRefusalIsOfKindRefusedAndIsOnlyItself(Refusal refusal) {
        StoreFailure failure = StoreFailure.refused(refusal);

        assertThat(failure.kind()).isEqualTo(StoreFailure.Kind.REFUSED);
        assertThat(failure.refusal()).isEqualTo(Option.some(refusal));
        assertThat(failure).isEqualTo(new StoreFailure(StoreFailure.Kind.REFUSED, Option.some(refusal)));
        for (Refusal other : Refusal.values()) {
            assertThat(failure.is(other)).as("%s is %s", refusal, other).isEqualTo(other == refusal);
        }
    }

    @ParameterizedTest
    @EnumSource(value = StoreFailure.Kind.class, names = "REFUSED", mode = EnumSource.Mode.EXCLUDE)
    void refusesARefusalWithAnotherKind(StoreFailure.Kind kind) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new StoreFailure(kind, Option.some(Refusal.CONFLICT)))
                .withMessageContaining("REFUSED").withMessageContaining(kind.name());
    }

    @Test
    void refusesRefusedWithoutARefusal() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new StoreFailure(StoreFailure.Kind.REFUSED, Option.none()))
                .withMessageContaining("REFUSED");
    }

    @Test
    void refusesNulls() {
        assertThatNullPointerException().isThrownBy(() -> new StoreFailure(null, Option.none()))
                .withMessage("kind is null");
        assertThatNullPointerException().isThrownBy(() -> new StoreFailure(StoreFailure.Kind.FULL, null))
                .withMessage("refusal is null");
        assertThatNullPointerException().isThrownBy(() -> StoreFailure.refused(null)).withMessage("refusal is null");
        assertThatNullPointerException().isThrownBy(() -> StoreFailure.code(null)).withMessage("refusal is null");
    }
}
