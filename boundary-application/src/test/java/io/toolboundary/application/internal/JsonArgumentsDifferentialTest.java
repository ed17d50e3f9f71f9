package io.toolboundary.application.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link JsonArguments} against {@link JacksonReferenceArguments}, the implementation it replaced, on
 * seeded random texts ({@link RandomJsonTexts}): the same decision, the same error code and, for an
 * accepted text, the same canonical form and the same fingerprint. Each text has its own seed, printed
 * with a difference; {@code -Djson.differential.seed=N} starts the seeds elsewhere.
 */
class JsonArgumentsDifferentialTest {

    private static final int TEXTS = 20_000;
    private static final ToolName TOOL = new ToolName("log-search");

    @ParameterizedTest(name = "depth {0}, number length {1}, length {2}")
    @CsvSource({"8, 20, 65536", "64, 100, 65536", "2, 5, 65536", "8, 20, 40"})
    void givesTheReferencesDecisionsAndFingerprints(int maxDepth, int maxNumberLength, long maxLength) {
        JsonArguments checked = new JsonArguments(maxDepth, maxNumberLength, maxLength);
        JacksonReferenceArguments reference = new JacksonReferenceArguments(maxDepth, maxNumberLength, maxLength);
        long firstSeed = Long.getLong("json.differential.seed", 8785L);
        Map<ErrorCode, Integer> refusals = new EnumMap<>(ErrorCode.class);
        int accepted = 0;
        for (int i = 0; i < TEXTS; i++) {
            long seed = firstSeed + i;
            String text = new RandomJsonTexts(seed, maxDepth, maxNumberLength).next();
            Either<BoundaryError, String> expected = reference.fingerprint(TOOL, text);
            Either<BoundaryError, String> actual = checked.fingerprint(TOOL, text);
            if (!sameAnswer(expected, actual)) {
                fail("seed %d (depth %d, number length %d): for %s the reference answers %s (canonical %s), JsonArguments %s"
                        + " (canonical %s)", seed, maxDepth, maxNumberLength, escaped(text), expected,
                        reference.canonical(text).map(RandomJsonTexts::escaped), actual,
                        checked.canonical(text).map(RandomJsonTexts::escaped));
            }
            if (expected.isRight()) {
                accepted++;
            } else {
                refusals.merge(expected.getLeft().code(), 1, Integer::sum);
            }
        }
        assertThat(accepted).as("accepted texts").isGreaterThan(TEXTS / 10);
        assertThat(refusals.getOrDefault(ErrorCode.ARGUMENTS_INVALID, 0)).as("invalid texts").isGreaterThan(TEXTS / 10);
        assertThat(refusals.getOrDefault(ErrorCode.TEXT_NOT_UNICODE, 0)).as("texts that are not Unicode").isGreaterThan(TEXTS / 100);
    }

    private static boolean sameAnswer(Either<BoundaryError, String> expected, Either<BoundaryError, String> actual) {
        return expected.isRight()
                ? actual.isRight() && expected.get().equals(actual.get())
                : actual.isLeft() && expected.getLeft().code() == actual.getLeft().code();
    }

    private static String escaped(String text) {
        return RandomJsonTexts.escaped(text);
    }
}
