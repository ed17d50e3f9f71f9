package io.toolboundary.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolBoundaryConfig;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.Projection;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
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

    // ---------------------------------------------------------------------------------------------
    // The stricter checks: non-ASCII at the cut, a large request, credentials in raw lines
    // ---------------------------------------------------------------------------------------------

    private static final String EVIDENCE_LINE = "10:00:02 ERROR timeout calling payments";
    private static final String LARGE_ASCII = "10:00:01 ERROR timeout after 30000 ms\n".repeat(5_000);

    /**
     * A newcomer's projector: the ERROR lines, cut with {@code substring} to {@code maxChars} chars (or
     * by {@code cut}), the scope built from the arguments, nothing masked. It passes every ASCII check.
     */
    private static Projector naive(Function<String, String> cut) {
        return (request, raw) -> {
            String errors = raw.lines().filter(line -> line.contains("ERROR")).collect(Collectors.joining("\n"));
            String scope = "log lines returned for " + request.arguments();
            return errors.isEmpty()
                    ? Projection.noEvidence("no ERROR lines", scope)
                    : Projection.evidenceFound(cut.apply(errors), scope);
        };
    }

    private static Function<String, String> substring(int maxChars) {
        return text -> text.length() > maxChars ? text.substring(0, maxChars) : text;
    }

    /** Cuts by encoding and decoding a byte prefix: the decoder turns a cut character into U+FFFD. */
    private static Function<String, String> bytePrefix(int maxBytes) {
        return text -> {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            return new String(Arrays.copyOf(bytes, Math.min(bytes.length, maxBytes)), StandardCharsets.UTF_8);
        };
    }

    /** The same projector written with the helpers. */
    private static Projection withHelpers(ToolRequest request, String raw) {
        String errors = Projector.firstLines(Projector.mask(raw).lines().filter(l -> l.contains("ERROR"))
                .map(line -> Projector.cut(line, 300)), 4_000);
        String scope = "log lines returned for " + request.tool().value();
        return errors.isEmpty()
                ? Projection.noEvidence("no ERROR lines", scope)
                : Projection.evidenceFound(errors, scope);
    }

    private static String carrying(String text) {
        return EVIDENCE_LINE + " " + text + "\n";
    }

    private static ToolRequest largeRequest() {
        return ProjectorContract.sampleRequest("log-search",
                "{\"query\":\"" + ProjectorContract.echoFiller(ProjectorContract.LARGE_REQUEST_BYTES - 12) + "\"}");
    }

    @Test
    void theLargeRequestIsSixtyKibibytesOfValidArguments() {
        assertThat(largeRequest().arguments()).hasSize(ProjectorContract.LARGE_REQUEST_BYTES).startsWith("{\"query\":\"")
                .endsWith("\"}");
        assertThat((long) ProjectorContract.LARGE_REQUEST_BYTES).isLessThan(ToolBoundaryConfig.DEFAULT_ARGUMENTS_BYTES);
    }

    @Test
    void acceptsTheProjectorWrittenWithTheHelpersOnEveryStricterCheck() {
        Projector projector = ProjectorContractTest::withHelpers;

        assertThatCode(() -> {
            for (String characters : ProjectorContract.NON_ASCII_CHARACTERS) {
                for (int alignment = 0; alignment < 4; alignment++) {
                    ProjectorContract.checkNonAsciiRaw(projector, request,
                            carrying(ProjectorContract.nonAsciiRun(characters, alignment, LIMIT)), LIMIT);
                }
            }
            for (String raw : List.of(WITH_EVIDENCE, WITHOUT_EVIDENCE, LARGE)) {
                ProjectorContract.checkLargeRequest(projector, largeRequest(), raw, LIMIT,
                        ProjectorContract.DEFAULT_MAX_SCOPE_BYTES);
            }
            for (List<String> credential : ProjectorContract.CREDENTIAL_LINES) {
                ProjectorContract.checkNoCredential(projector, request, carrying(credential.get(0)), credential.get(1),
                        LIMIT);
            }
        }).doesNotThrowAnyException();
    }

    @Test
    void catchesASubstringThatGoesOverTheLimitWithThreeByteCharacters() {
        Projector naive = naive(substring(4_000));
        String raw = carrying(ProjectorContract.nonAsciiRun("\u20ac", 0, LIMIT));

        assertThatCode(() -> ProjectorContract.checkWithinLimit(naive, request, LARGE_ASCII, LIMIT))
                .as("the same projector on ASCII").doesNotThrowAnyException();
        assertThatThrownBy(() -> ProjectorContract.checkNonAsciiRaw(naive, request, raw, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("RESULT_TOO_LARGE");
    }

    @Test
    void catchesASubstringThatSplitsASurrogatePair() {
        Projector naive = naive(substring(200));
        String evenAligned = carrying(ProjectorContract.nonAsciiRun("\uD83D\uDE00", 0, LIMIT));
        String oddAligned = carrying(ProjectorContract.nonAsciiRun("\uD83D\uDE00", 1, LIMIT));

        assertThatCode(() -> ProjectorContract.checkNonAsciiRaw(naive, request, evenAligned, LIMIT))
                .as("a cut between two pairs").doesNotThrowAnyException();
        assertThatThrownBy(() -> ProjectorContract.checkNonAsciiRaw(naive, request, oddAligned, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("TEXT_NOT_UNICODE");
    }

    @Test
    void catchesAByteCutThatLeavesAReplacementCharacter() {
        Projector naive = naive(bytePrefix(4_000));
        String raw = carrying(ProjectorContract.nonAsciiRun("\u00e9", 1, LIMIT));

        assertThatThrownBy(() -> ProjectorContract.checkNonAsciiRaw(naive, request, raw, LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("U+FFFD");
    }

    @Test
    void catchesAScopeThatCarriesTheLargeRequest() {
        assertThatThrownBy(() -> ProjectorContract.checkLargeRequest(naive(substring(4_000)), largeRequest(),
                WITH_EVIDENCE, LIMIT, ProjectorContract.DEFAULT_MAX_SCOPE_BYTES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("RESULT_TOO_LARGE");
    }

    @Test
    void catchesAScopeOverItsBoundEvenWithoutAnEcho() {
        Projector wordy = (req, raw) -> Projection.evidenceFound("found", "x".repeat(513));

        assertThatThrownBy(() -> ProjectorContract.checkLargeRequest(wordy, largeRequest(), WITH_EVIDENCE, LIMIT,
                ProjectorContract.DEFAULT_MAX_SCOPE_BYTES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("UTF-8 bytes of the scope");
        assertThatCode(() -> ProjectorContract.checkLargeRequest((req, raw) -> Projection.evidenceFound("found",
                "x".repeat(512)), largeRequest(), WITH_EVIDENCE, LIMIT, ProjectorContract.DEFAULT_MAX_SCOPE_BYTES))
                .as("exactly the bound").doesNotThrowAnyException();
    }

    @Test
    void catchesABoundedEchoOfTheRequestInTheScopeOrTheContent() {
        Projector inScope = (req, raw) -> Projection.evidenceFound("found", Projector.cut(req.arguments(), 300));
        Projector inContent = (req, raw) -> Projection.evidenceFound("found for " + Projector.cut(req.arguments(), 300),
                "the given log lines");

        assertThatThrownBy(() -> ProjectorContract.checkLargeRequest(inScope, largeRequest(), WITH_EVIDENCE, LIMIT,
                ProjectorContract.DEFAULT_MAX_SCOPE_BYTES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("scope echoes the request");
        assertThatThrownBy(() -> ProjectorContract.checkLargeRequest(inContent, largeRequest(), WITH_EVIDENCE, LIMIT,
                ProjectorContract.DEFAULT_MAX_SCOPE_BYTES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("content echoes the request");
    }

    @Test
    void catchesEveryCredentialShapeInAnUnmaskedQuote() {
        Projector naive = naive(substring(4_000));

        for (List<String> credential : ProjectorContract.CREDENTIAL_LINES) {
            assertThatThrownBy(() -> ProjectorContract.checkNoCredential(naive, request, carrying(credential.get(0)),
                    credential.get(1), LIMIT))
                    .as(credential.get(0))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("reaches the content")
                    .hasMessageNotContaining(credential.get(1));
        }
    }

    @Test
    void catchesACredentialInTheScope() {
        Projector leaky = (req, raw) -> Projection.evidenceFound("found", Projector.cut(raw, 200));
        List<String> credential = ProjectorContract.CREDENTIAL_LINES.get(0);

        assertThatThrownBy(() -> ProjectorContract.checkNoCredential(leaky, request, carrying(credential.get(0)),
                credential.get(1), LIMIT))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("reaches the scope");
    }

    /** A newcomer's substring projector passes the seven ASCII checks and fails each stricter one. */
    @Nested
    class WhenExtendedWithANaiveSubstringProjector {

        private final ProjectorContract suite = suite(naive(substring(4_000)), false);

        @Test
        void passesTheAsciiChecks() {
            assertThatCode(() -> {
                suite.largeRawIsLargerThanTheAgentLimit();
                suite.staysWithinTheAgentLimitForRawWithEvidence();
                suite.staysWithinTheAgentLimitForRawWithoutEvidence();
                suite.staysWithinTheAgentLimitForLargeRaw();
                suite.labelsEvidenceAsFound();
                suite.labelsAbsenceAsNoEvidenceWithScope();
                suite.neverCopiesTheLargeRawThrough();
            }).doesNotThrowAnyException();
        }

        @Test
        void failsTheNonAsciiTest() {
            assertThatThrownBy(suite::staysWithinTheAgentLimitForNonAsciiLargeRaw).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("RESULT_TOO_LARGE");
        }

        @Test
        void failsTheLargeRequestTest() {
            assertThatThrownBy(suite::keepsTheScopeBoundedAndDoesNotEchoALargeRequest).isInstanceOf(AssertionError.class);
        }

        @Test
        void failsTheCredentialTest() {
            assertThatThrownBy(suite::keepsCredentialsOutOfTheContent).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("password=<secret>");
        }
    }

    /** The same projector written with the helpers passes the whole suite; opting out skips the credential check. */
    @Nested
    class WhenExtendedWithTheHelpers {

        @Test
        void passesEveryCheck() {
            ProjectorContract suite = suite(ProjectorContractTest::withHelpers, false);

            assertThatCode(() -> {
                suite.largeRawIsLargerThanTheAgentLimit();
                suite.staysWithinTheAgentLimitForRawWithEvidence();
                suite.staysWithinTheAgentLimitForRawWithoutEvidence();
                suite.staysWithinTheAgentLimitForLargeRaw();
                suite.labelsEvidenceAsFound();
                suite.labelsAbsenceAsNoEvidenceWithScope();
                suite.neverCopiesTheLargeRawThrough();
                suite.staysWithinTheAgentLimitForNonAsciiLargeRaw();
                suite.keepsTheScopeBoundedAndDoesNotEchoALargeRequest();
                suite.keepsCredentialsOutOfTheContent();
            }).doesNotThrowAnyException();
        }

        @Test
        void anExplicitOptOutLetsCredentialsThroughButStillHoldsTheLimit() {
            Projector quoting = (req, raw) -> Projection.evidenceFound(Projector.firstLines(raw, 4_000), "secrets");
            Projector flooding = (req, raw) -> Projection.evidenceFound(raw.repeat(1_000), "secrets");

            assertThatCode(suite(quoting, true)::keepsCredentialsOutOfTheContent).doesNotThrowAnyException();
            assertThatThrownBy(suite(quoting, false)::keepsCredentialsOutOfTheContent).isInstanceOf(AssertionError.class);
            assertThatThrownBy(suite(flooding, true)::keepsCredentialsOutOfTheContent).isInstanceOf(AssertionError.class);
            assertThatCode(suite(quoting, true)::staysWithinTheAgentLimitForNonAsciiLargeRaw).doesNotThrowAnyException();
        }
    }

    private static ProjectorContract suite(Projector projector, boolean allowsCredentials) {
        return new ProjectorContract() {
            @Override
            protected Projector projector() {
                return projector;
            }

            @Override
            protected String rawWithEvidence() {
                return "10:00:01 INFO request ok\n" + EVIDENCE_LINE + "\n";
            }

            @Override
            protected String rawWithoutEvidence() {
                return "10:00:01 INFO request ok\n";
            }

            @Override
            protected String largeRaw() {
                return LARGE_ASCII;
            }

            @Override
            protected boolean allowsCredentialsInContent() {
                return allowsCredentials;
            }
        };
    }
}
