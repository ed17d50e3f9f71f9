package io.toolboundary.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.Projection;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The projector contract's checks catch each way a projector can break it. */
class ProjectorContractTest {

    private static final long LIMIT = ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES;
    private static final String WITH_EVIDENCE = "ERROR timeout";
    private static final String WITHOUT_EVIDENCE = "INFO ok";
    private static final String LARGE = Fixtures.textOfUtf8Bytes((int) LIMIT * 4);

    private final ToolRequest request = ProjectorContract.sampleRequest("log-search", Fixtures.DEFAULT_ARGUMENTS);

    /** Answers like a correct projector: evidence only when the raw says ERROR, a short content. */
    private static Projection correct(ToolRequest request, String raw) {
        return raw.contains("ERROR")
                ? Projection.evidenceFound("found ERROR")
                : Projection.noEvidence("nothing found", "the given log lines");
    }

    @Test
    void acceptsACorrectProjector() {
        Projector projector = ProjectorContractTest::correct;

        assertThatCode(() -> {
            ProjectorContract.checkWithinLimit(projector, request, LARGE, LIMIT);
            ProjectorContract.checkEvidenceFound(projector, request, WITH_EVIDENCE, LIMIT);
            ProjectorContract.checkNoEvidenceWithScope(projector, request, WITHOUT_EVIDENCE, LIMIT);
            ProjectorContract.checkDoesNotCopyRawThrough(projector, request, LARGE, LIMIT);
        }).doesNotThrowAnyException();
    }

    @Test
    void catchesAProjectorThatEchoesTheRawResponse() {
        Projector echo = FakeProjectors.echoingRaw();

        assertThatThrownBy(() -> ProjectorContract.checkWithinLimit(echo, request, LARGE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("RESULT_TOO_LARGE");
        assertThatThrownBy(() -> ProjectorContract.checkDoesNotCopyRawThrough(echo, request, LARGE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("copies the whole raw response");
    }

    @Test
    void catchesAProjectorThatHidesTheRawInItsScope() {
        Projector hiding = (req, raw) -> Projection.evidenceFound("short", raw);

        assertThatThrownBy(() -> ProjectorContract.checkDoesNotCopyRawThrough(hiding, request, LARGE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("scope copies the whole raw response");
    }

    @Test
    void catchesAProjectorThatAlwaysClaimsEvidence() {
        Projector optimist = FakeProjectors.evidenceFound("all good");

        assertThatThrownBy(() -> ProjectorContract.checkNoEvidenceWithScope(optimist, request, WITHOUT_EVIDENCE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("without evidence");
    }

    @Test
    void catchesAProjectorThatNeverFindsEvidence() {
        Projector pessimist = FakeProjectors.noEvidence("nothing", "the given log lines");

        assertThatThrownBy(() -> ProjectorContract.checkEvidenceFound(pessimist, request, WITH_EVIDENCE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("with evidence");
    }

    @Test
    void catchesANegativeObservationWithoutScope() {
        Projector blank = FakeProjectors.noEvidenceWithBlankScope();

        assertThatThrownBy(() -> ProjectorContract.checkNoEvidenceWithScope(blank, request, WITHOUT_EVIDENCE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PROJECTION_INVALID");
    }

    @Test
    void catchesAnErrorEvidenceStatus() {
        assertThatThrownBy(() -> ProjectorContract.checkWithinLimit(FakeProjectors.invalidEvidenceStatus(), request,
                WITH_EVIDENCE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("PROJECTION_INVALID");
    }

    @Test
    void catchesAThrowingProjector() {
        assertThatThrownBy(() -> ProjectorContract.checkWithinLimit(FakeProjectors.throwing("boom"), request,
                WITH_EVIDENCE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("threw java.lang.IllegalStateException");
    }

    @Test
    void catchesAProjectorReturningNull() {
        assertThatThrownBy(() -> ProjectorContract.checkWithinLimit(FakeProjectors.returningNull(), request,
                WITH_EVIDENCE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("returned null");
    }

    @Test
    void catchesAnOversizeProjection() {
        assertThatThrownBy(() -> ProjectorContract.checkWithinLimit(FakeProjectors.returningBytes((int) LIMIT + 1),
                request, WITH_EVIDENCE, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("RESULT_TOO_LARGE");
    }

    @Test
    void acceptsAProjectionOfExactlyTheLimit() {
        assertThat(ProjectorContract.checkWithinLimit(FakeProjectors.returningBytes((int) LIMIT), request,
                WITH_EVIDENCE, LIMIT).evidence()).isEqualTo(EvidenceStatus.EVIDENCE_FOUND);
    }

    @Test
    void catchesALargeRawThatIsNotLarge() {
        assertThatThrownBy(() -> ProjectorContract.checkLargeRawIsLarge("small", LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("must be over the agent limit");
    }

    /** The abstract suite itself fails for a projector that echoes the raw response. */
    @Nested
    class WhenExtendedWithAnEchoingProjector {

        private final ProjectorContract suite = new ProjectorContract() {
            @Override
            protected Projector projector() {
                return FakeProjectors.echoingRaw();
            }

            @Override
            protected String rawWithEvidence() {
                return WITH_EVIDENCE;
            }

            @Override
            protected String rawWithoutEvidence() {
                return WITHOUT_EVIDENCE;
            }

            @Override
            protected String largeRaw() {
                return LARGE;
            }
        };

        @Test
        void failsTheLargeRawLimitTest() {
            assertThatThrownBy(suite::staysWithinTheAgentLimitForLargeRaw).isInstanceOf(AssertionError.class);
        }

        @Test
        void failsTheCopyThroughTest() {
            assertThatThrownBy(suite::neverCopiesTheLargeRawThrough).isInstanceOf(AssertionError.class);
        }

        @Test
        void failsTheNoEvidenceTest() {
            assertThatThrownBy(suite::labelsAbsenceAsNoEvidenceWithScope).isInstanceOf(AssertionError.class);
        }
    }
}
