package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AgentTextTest {

    @Test
    void labelsEvidenceWithoutScopeOnItsOwnLine() {
        AgentResult result = new AgentResult("2 rows", EvidenceStatus.EVIDENCE_FOUND, Option.none());

        assertThat(ToolBoundary.agentText(Either.right(result))).isEqualTo("EVIDENCE_FOUND\n2 rows");
    }

    @Test
    void labelsEvidenceWithItsScope() {
        AgentResult result = new AgentResult("2 rows", EvidenceStatus.EVIDENCE_FOUND, Option.of("orders db"));

        assertThat(ToolBoundary.agentText(Either.right(result))).isEqualTo("EVIDENCE_FOUND (scope: orders db)\n2 rows");
    }

    @Test
    void labelsNoEvidenceWithItsScope() {
        AgentResult result = new AgentResult("nothing", EvidenceStatus.NO_EVIDENCE, Option.of("logs 10:00-10:15"));

        assertThat(ToolBoundary.agentText(Either.right(result))).isEqualTo("NO_EVIDENCE (scope: logs 10:00-10:15)\nnothing");
    }

    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void writesEveryErrorAsItsCodeAndFixedMessageOnOneLine(ErrorCode code) {
        String text = ToolBoundary.agentText(Either.left(BoundaryError.of(code)));

        assertThat(text).isEqualTo("ERROR " + code.name() + ": " + code.safeMessage()).doesNotContain("\n");
    }

    @Test
    void tellsEveryErrorCodeApart() {
        long distinct = Arrays.stream(ErrorCode.values()).map(BoundaryError::of)
                .map(error -> ToolBoundary.agentText(Either.left(error))).distinct().count();

        assertThat(distinct).isEqualTo(ErrorCode.values().length);
    }

    @Test
    void refusesANullOutcome() {
        assertThatNullPointerException().isThrownBy(() -> ToolBoundary.agentText(null)).withMessage("outcome is null");
    }
}
