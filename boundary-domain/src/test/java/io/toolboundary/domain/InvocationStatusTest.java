package io.toolboundary.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class InvocationStatusTest {

    @ParameterizedTest(name = "{0} -> {1}: {2}")
    @CsvSource({
        "PROJECTING, PROJECTING, false",
        "PROJECTING, READY,      true",
        "PROJECTING, ERROR,      true",
        "READY,      PROJECTING, false",
        "READY,      READY,      false",
        "READY,      ERROR,      false",
        "ERROR,      PROJECTING, false",
        "ERROR,      READY,      false",
        "ERROR,      ERROR,      false"
    })
    void allowsOnlyProjectingToReadyOrError(InvocationStatus from, InvocationStatus to, boolean legal) {
        assertThat(from.canMoveTo(to)).isEqualTo(legal);
    }

    @ParameterizedTest(name = "{0} final: {1}")
    @CsvSource({"PROJECTING, false", "READY, true", "ERROR, true"})
    void onlyReadyAndErrorAreFinal(InvocationStatus status, boolean isFinal) {
        assertThat(status.isFinal()).isEqualTo(isFinal);
    }
}
