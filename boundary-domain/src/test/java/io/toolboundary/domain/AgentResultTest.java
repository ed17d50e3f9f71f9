package io.toolboundary.domain;

import static io.toolboundary.domain.internal.Utf8Test.charOfWidth;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.toolboundary.domain.internal.Utf8;
import io.vavr.control.Either;
import io.vavr.control.Option;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AgentResultTest {

    private static final long LIMIT = 64;
    private static final String LONE_HIGH = "\uD83D";
    private static final String LONE_LOW = "\uDE00";

    private static ErrorCode codeOf(Either<BoundaryError, AgentResult> checked) {
        assertThat(checked.isLeft()).as("expected a Left, got %s", checked).isTrue();
        return checked.getLeft().code();
    }

    @Nested
    class Of {

        @Test
        void rejectsErrorEvidence() {
            assertThat(codeOf(AgentResult.of(new Projection("x", EvidenceStatus.ERROR, Option.none()), LIMIT)))
                    .isEqualTo(ErrorCode.PROJECTION_INVALID);
            assertThat(codeOf(AgentResult.of(new Projection("x", EvidenceStatus.ERROR, Option.of("scope")), LIMIT)))
                    .isEqualTo(ErrorCode.PROJECTION_INVALID);
        }

        @Test
        void rejectsNoEvidenceWithoutScope() {
            assertThat(codeOf(AgentResult.of(new Projection("nothing", EvidenceStatus.NO_EVIDENCE, Option.none()), LIMIT)))
                    .isEqualTo(ErrorCode.PROJECTION_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "   ", "\t", "\n", "\r\n", " \u2003 "})
        void rejectsNoEvidenceWithBlankScope(String scope) {
            assertThat(codeOf(AgentResult.of(Projection.noEvidence("nothing", scope), LIMIT)))
                    .isEqualTo(ErrorCode.PROJECTION_INVALID);
        }

        @Test
        void keepsNoEvidenceWithItsScope() {
            AgentResult result = AgentResult.of(Projection.noEvidence("nothing found", "logs 10:00-10:15"), LIMIT).get();

            assertThat(result.evidence()).isEqualTo(EvidenceStatus.NO_EVIDENCE);
            assertThat(result.content()).isEqualTo("nothing found");
            assertThat(result.scope()).isEqualTo(Option.of("logs 10:00-10:15"));
        }

        @Test
        void keepsEvidenceFoundWithOrWithoutScope() {
            assertThat(AgentResult.of(Projection.evidenceFound("hit"), LIMIT).get())
                    .isEqualTo(new AgentResult("hit", EvidenceStatus.EVIDENCE_FOUND, Option.none()));
            assertThat(AgentResult.of(Projection.evidenceFound("hit", "index a"), LIMIT).get())
                    .isEqualTo(new AgentResult("hit", EvidenceStatus.EVIDENCE_FOUND, Option.of("index a")));
        }

        @ParameterizedTest
        @ValueSource(strings = {LONE_HIGH, LONE_LOW, "ok" + LONE_HIGH, LONE_LOW + "ok", "\uDE00\uD83D"})
        void rejectsLoneSurrogateInContent(String content) {
            assertThat(codeOf(AgentResult.of(Projection.evidenceFound(content), LIMIT)))
                    .isEqualTo(ErrorCode.TEXT_NOT_UNICODE);
            assertThat(codeOf(AgentResult.of(Projection.noEvidence(content, "scope"), LIMIT)))
                    .isEqualTo(ErrorCode.TEXT_NOT_UNICODE);
        }

        @ParameterizedTest
        @ValueSource(strings = {LONE_HIGH, LONE_LOW, "scope" + LONE_HIGH})
        void rejectsLoneSurrogateInScope(String scope) {
            assertThat(codeOf(AgentResult.of(Projection.noEvidence("nothing", scope), LIMIT)))
                    .isEqualTo(ErrorCode.TEXT_NOT_UNICODE);
            assertThat(codeOf(AgentResult.of(Projection.evidenceFound("hit", scope), LIMIT)))
                    .isEqualTo(ErrorCode.TEXT_NOT_UNICODE);
        }

        @ParameterizedTest(name = "content ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void acceptsContentAndScopeOfExactlyTheLimit(int lastWidth) {
            String scope = "scope é";
            String content = "c".repeat((int) (LIMIT - Utf8.byteLength(scope)) - lastWidth) + charOfWidth(lastWidth);

            Either<BoundaryError, AgentResult> checked = AgentResult.of(Projection.noEvidence(content, scope), LIMIT);

            assertThat(checked.isRight()).isTrue();
            assertThat(checked.get().byteSize()).isEqualTo(LIMIT);
            assertThat(checked.get().content()).isEqualTo(content);
        }

        @ParameterizedTest(name = "content ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void rejectsContentAndScopeOfOneByteOverTheLimit(int lastWidth) {
            String scope = "scope é";
            String content = "c".repeat((int) (LIMIT - Utf8.byteLength(scope)) - lastWidth + 1) + charOfWidth(lastWidth);
            assertThat(Utf8.byteLength(content) + Utf8.byteLength(scope)).isEqualTo(LIMIT + 1);

            assertThat(codeOf(AgentResult.of(Projection.noEvidence(content, scope), LIMIT)))
                    .isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        }

        @ParameterizedTest(name = "scope ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void countsScopeBytesAtTheLimit(int lastWidth) {
            String content = "content";
            String fits = "s".repeat((int) (LIMIT - content.length()) - lastWidth) + charOfWidth(lastWidth);
            String over = "s" + fits;

            assertThat(AgentResult.of(Projection.noEvidence(content, fits), LIMIT).isRight()).isTrue();
            assertThat(codeOf(AgentResult.of(Projection.noEvidence(content, over), LIMIT)))
                    .isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        }

        @ParameterizedTest(name = "content ending in a {0}-byte character")
        @ValueSource(ints = {1, 2, 3, 4})
        void countsContentAloneWhenThereIsNoScope(int lastWidth) {
            String fits = "c".repeat((int) LIMIT - lastWidth) + charOfWidth(lastWidth);

            assertThat(AgentResult.of(Projection.evidenceFound(fits), LIMIT).isRight()).isTrue();
            assertThat(codeOf(AgentResult.of(Projection.evidenceFound("c" + fits), LIMIT)))
                    .isEqualTo(ErrorCode.RESULT_TOO_LARGE);
        }

        @Test
        void rejectsScopeAloneOverTheLimit() {
            assertThat(codeOf(AgentResult.of(Projection.noEvidence("", "s".repeat((int) LIMIT + 1)), LIMIT)))
                    .isEqualTo(ErrorCode.RESULT_TOO_LARGE);
            assertThat(AgentResult.of(Projection.noEvidence("", "s".repeat((int) LIMIT)), LIMIT).isRight()).isTrue();
        }

        @Test
        void rejectsNullProjection() {
            assertThatNullPointerException().isThrownBy(() -> AgentResult.of(null, LIMIT))
                    .withMessage("projection is null");
        }
    }

    @Nested
    class Constructor {

        @Test
        void buildsValidResults() {
            assertThat(new AgentResult("hit", EvidenceStatus.EVIDENCE_FOUND, Option.none()).byteSize()).isEqualTo(3);
            assertThat(new AgentResult("é", EvidenceStatus.NO_EVIDENCE, Option.of("€😀")).byteSize()).isEqualTo(9);
        }

        @Test
        void refusesErrorEvidence() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new AgentResult("x", EvidenceStatus.ERROR, Option.none()));
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new AgentResult("x", EvidenceStatus.ERROR, Option.of("scope")));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "\t\n"})
        void refusesNoEvidenceWithBlankScope(String scope) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new AgentResult("x", EvidenceStatus.NO_EVIDENCE, Option.of(scope)));
        }

        @Test
        void refusesNoEvidenceWithoutScope() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new AgentResult("x", EvidenceStatus.NO_EVIDENCE, Option.none()));
        }

        @Test
        void refusesLoneSurrogates() {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new AgentResult("x" + LONE_HIGH, EvidenceStatus.EVIDENCE_FOUND, Option.none()));
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> new AgentResult("x", EvidenceStatus.NO_EVIDENCE, Option.of(LONE_LOW)));
        }

        @Test
        void refusesNullsNamingTheField() {
            assertThatNullPointerException()
                    .isThrownBy(() -> new AgentResult(null, EvidenceStatus.EVIDENCE_FOUND, Option.none()))
                    .withMessage("content is null");
            assertThatNullPointerException().isThrownBy(() -> new AgentResult("x", null, Option.none()))
                    .withMessage("evidence is null");
            assertThatNullPointerException().isThrownBy(() -> new AgentResult("x", EvidenceStatus.EVIDENCE_FOUND, null))
                    .withMessage("scope is null");
        }

        @Test
        void doesNotApplyAByteLimit() {
            String large = "x".repeat(100_000);

            assertThat(new AgentResult(large, EvidenceStatus.EVIDENCE_FOUND, Option.none()).content()).isSameAs(large);
        }
    }
}
