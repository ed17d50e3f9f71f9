package io.toolboundary.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class InvocationStatusTest {

    @ParameterizedTest(name = "{0} final: {1}")
    @CsvSource({"PROJECTING, false", "READY, true", "ERROR, true"})
    void onlyReadyAndErrorAreFinal(InvocationStatus status, boolean isFinal) {
        assertThat(status.isFinal()).isEqualTo(isFinal);
    }
}
