package io.toolboundary.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.vavr.control.Either;
import io.vavr.control.Option;
import org.junit.jupiter.api.Test;

class ToolResultTextTest {

    @Test
    void writesEvidenceFoundWithoutScopeAsHeaderLineThenContent() {
        AgentResult result = new AgentResult("3 timeouts", EvidenceStatus.EVIDENCE_FOUND, Option.none());

        assertThat(ToolResultText.result(result)).isEqualTo("EVIDENCE_FOUND\n3 timeouts");
    }

    @Test
    void writesTheScopeInTheHeaderLine() {
        AgentResult result = new AgentResult("3 timeouts", EvidenceStatus.EVIDENCE_FOUND, Option.of("service checkout"));

        assertThat(ToolResultText.result(result)).isEqualTo("EVIDENCE_FOUND (scope: service checkout)\n3 timeouts");
    }

    @Test
    void writesNoEvidenceAsAScopedNegativeObservation() {
        AgentResult result = new AgentResult("no errors", EvidenceStatus.NO_EVIDENCE, Option.of("logs 10:00-10:15 UTC"));

        assertThat(ToolResultText.of(Either.right(result)))
                .isEqualTo("NO_EVIDENCE (scope: logs 10:00-10:15 UTC)\nno errors");
    }

    @Test
    void writesAnErrorAsItsCodeAndFixedMessageOnOneLine() {
        for (ErrorCode code : ErrorCode.values()) {
            String text = ToolResultText.of(Either.left(BoundaryError.of(code)));

            assertThat(text).isEqualTo("ERROR " + code.name() + ": " + code.safeMessage()).doesNotContain("\n");
        }
    }
}
