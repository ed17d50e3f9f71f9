package io.toolboundary.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ErrorCodeTest {

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void hasNonBlankFixedMessageWithoutPlaceholder(ErrorCode code) {
        String message = code.safeMessage();

        assertThat(message).isNotBlank().isSameAs(code.safeMessage());
        assertThat(message).doesNotContain("%", "{", "}", "$", "<", ">");
        assertThat(message).doesNotContain("\n", "\r", "\t");
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void boundaryErrorHoldsOnlyTheCodeAndItsMessage(ErrorCode code) {
        BoundaryError error = BoundaryError.of(code);

        assertThat(error.code()).isSameAs(code);
        assertThat(error.message()).isEqualTo(code.safeMessage());
        assertThat(error.toString()).isEqualTo(code.name() + ": " + code.safeMessage());
        assertThat(error).isEqualTo(new BoundaryError(code)).hasSameHashCodeAs(new BoundaryError(code));
    }

    @Test
    void boundaryErrorHasNoComponentButItsCodeAndLimit() {
        assertThat(BoundaryError.class.getRecordComponents())
                .extracting(java.lang.reflect.RecordComponent::getName)
                .containsExactly("code", "limit");
        assertThat(BoundaryError.of(ErrorCode.RECORD_EXPIRED).limit()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = ErrorCode.class, names = {"ARGUMENTS_TOO_LARGE", "RESULT_TOO_LARGE", "RUN_BUDGET_EXHAUSTED",
        "TOOL_BUDGET_EXHAUSTED"})
    void anErrorOverALimitNamesTheLimitInItsMessage(ErrorCode code) {
        BoundaryError error = BoundaryError.overLimit(code, 64);

        assertThat(error.code()).isSameAs(code);
        assertThat(error.limit()).contains(64L);
        assertThat(error.message()).startsWith(code.safeMessage().substring(0, code.safeMessage().length() - 1))
                .contains("(limit: 64 ").endsWith(").");
        assertThat(error.toString()).isEqualTo(code.name() + ": " + error.message());
        assertThat(error).isNotEqualTo(BoundaryError.of(code));
    }

    @ParameterizedTest
    @EnumSource(value = ErrorCode.class, names = {"ARGUMENTS_TOO_LARGE", "RESULT_TOO_LARGE", "RUN_BUDGET_EXHAUSTED",
        "TOOL_BUDGET_EXHAUSTED"}, mode = EnumSource.Mode.EXCLUDE)
    void refusesALimitForACodeThatConcernsNone(ErrorCode code) {
        assertThatIllegalArgumentException().isThrownBy(() -> BoundaryError.overLimit(code, 64));
    }

    @Test
    void refusesANegativeLimit() {
        assertThatIllegalArgumentException().isThrownBy(() -> BoundaryError.overLimit(ErrorCode.RESULT_TOO_LARGE, -1));
    }

    @Test
    void boundaryErrorRefusesNullCode() {
        assertThatNullPointerException().isThrownBy(() -> BoundaryError.of(null)).withMessage("code is null");
    }
}
