package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LimitsTest {

    @Test
    void defaultsAreExactByteCounts() {
        Limits limits = Limits.ofDefaults();

        assertThat(limits.argumentsBytes()).isEqualTo(65_536).isEqualTo(ToolBoundaryConfig.DEFAULT_ARGUMENTS_BYTES);
        assertThat(limits.rawResponseBytes()).isEqualTo(1_048_576).isEqualTo(ToolBoundaryConfig.DEFAULT_RAW_RESPONSE_BYTES);
        assertThat(limits.recordBytes()).isEqualTo(1_310_720).isEqualTo(ToolBoundaryConfig.DEFAULT_RECORD_BYTES);
        assertThat(limits.agentResultBytes()).isEqualTo(8_192).isEqualTo(ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES);
    }

    @Test
    void acceptsOneByteLimits() {
        assertThat(new Limits(1, 1, 1, 1)).isEqualTo(new Limits(1, 1, 1, 1));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void rejectsNonPositiveRequestLimitNamingIt(long value) {
        assertThatIllegalArgumentException().isThrownBy(() -> new Limits(value, 1, 1, 1))
                .withMessage("argumentsBytes must be positive, was " + value);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void rejectsNonPositiveRawResponseLimitNamingIt(long value) {
        assertThatIllegalArgumentException().isThrownBy(() -> new Limits(1, value, 1, 1))
                .withMessage("rawResponseBytes must be positive, was " + value);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void rejectsNonPositiveRecordLimitNamingIt(long value) {
        assertThatIllegalArgumentException().isThrownBy(() -> new Limits(1, 1, value, 1))
                .withMessage("recordBytes must be positive, was " + value);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -1, Long.MIN_VALUE})
    void rejectsNonPositiveAgentResultLimitNamingIt(long value) {
        assertThatIllegalArgumentException().isThrownBy(() -> new Limits(1, 1, 1, value))
                .withMessage("agentResultBytes must be positive, was " + value);
    }
}
