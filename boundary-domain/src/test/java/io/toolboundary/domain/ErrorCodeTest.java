package io.toolboundary.domain;

import static org.assertj.core.api.Assertions.assertThat;
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
    void boundaryErrorHasNoComponentButItsCode() {
        assertThat(BoundaryError.class.getRecordComponents())
                .extracting(java.lang.reflect.RecordComponent::getName)
                .containsExactly("code");
    }

    @Test
    void boundaryErrorRefusesNullCode() {
        assertThatNullPointerException().isThrownBy(() -> BoundaryError.of(null)).withMessage("code is null");
    }
}
