package io.toolboundary.application.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
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
    private static final int WIDE_TEXTS = 1_000;
    private static final String[] NAME_UNITS = {"a", "b", "A", "\\u00e9", "\\uFB33", "\\ud83d\\ude00", "\\u0000",
        "\u00e9", "\ufb33", "\ud83d\ude00"};
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

    /** Objects of up to 300 members, so that members are sorted by merging as well as by insertion. */
    @Test
    void givesTheReferencesFingerprintsForWideObjects() {
        JsonArguments checked = new JsonArguments(64, 100, 1 << 20);
        JacksonReferenceArguments reference = new JacksonReferenceArguments(64, 100, 1 << 20);
        long firstSeed = Long.getLong("json.differential.seed", 8785L);
        int accepted = 0;
        for (int i = 0; i < WIDE_TEXTS; i++) {
            long seed = firstSeed + i;
            String text = wideObject(new Random(seed));
            Either<BoundaryError, String> expected = reference.fingerprint(TOOL, text);
            Either<BoundaryError, String> actual = checked.fingerprint(TOOL, text);
            if (!sameAnswer(expected, actual)) {
                fail("seed %d: for %s the reference answers %s, JsonArguments %s (canonical %s)", seed, escaped(text),
                        expected, actual, checked.canonical(text));
            }
            accepted += expected.isRight() ? 1 : 0;
        }
        assertThat(accepted).as("accepted wide objects").isBetween(WIDE_TEXTS / 10, WIDE_TEXTS - WIDE_TEXTS / 10);
    }

    /** The same answers from several threads at once as from one. */
    @Test
    void givesTheSameAnswersOnManyThreads() throws Exception {
        JsonArguments checked = new JsonArguments(8, 20, 65_536);
        List<String> texts = new ArrayList<>();
        for (long seed = 0; seed < 2_000; seed++) {
            texts.add(seed % 7 == 0 ? wideObject(new Random(seed)) : new RandomJsonTexts(seed, 8, 20).next());
        }
        List<Either<BoundaryError, String>> alone = texts.stream().map(text -> checked.fingerprint(TOOL, text)).toList();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Either<BoundaryError, String>>>> together = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                together.add(threads.submit(() -> texts.stream().map(text -> checked.fingerprint(TOOL, text)).toList()));
            }
            for (Future<List<Either<BoundaryError, String>>> answers : together) {
                assertThat(answers.get(1, TimeUnit.MINUTES)).isEqualTo(alone);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * Up to 300 members, a few of them small objects to sort too, named by random runs of units that
     * are written raw or escaped, so that some names repeat only once unescaped.
     */
    private static String wideObject(Random random) {
        StringBuilder text = new StringBuilder("{");
        int members = random.nextInt(301);
        for (int m = 0; m < members; m++) {
            text.append(m == 0 ? "\"" : ",\"");
            int length = 2 + random.nextInt(6);
            for (int c = 0; c < length; c++) {
                text.append(NAME_UNITS[random.nextInt(NAME_UNITS.length)]);
            }
            text.append("\":").append(random.nextInt(20) == 0 ? "{\"b\":1,\"a\":[" + m + "]}" : String.valueOf(m));
        }
        return text.append('}').toString();
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
