package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.domain.internal.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProjectorTextTest {

    /** Seeded property runs: the seed is {@code toolboundary.fuzz.seed} when set, else fresh, and printed on failure. */
    private static final long SEED = Long.getLong("toolboundary.fuzz.seed", new Random().nextLong());
    private static final int TRIES = Integer.getInteger("toolboundary.fuzz.tries", 2_000);

    private static final String TWO = "\u00e9"; // é
    private static final String THREE = "\u20ac"; // €
    private static final String FOUR = "\uD83D\uDE00"; // 😀, a surrogate pair

    private static void property(String name, long seed, java.util.function.Consumer<Random> check) {
        Random random = new Random(seed);
        for (int i = 0; i < TRIES; i++) {
            try {
                check.accept(random);
            } catch (AssertionError | RuntimeException failure) {
                throw new AssertionError(name + " failed at try " + i + " with seed " + seed
                        + " (rerun with -Dtoolboundary.fuzz.seed=" + seed + "): " + failure.getMessage(), failure);
            }
        }
    }

    private static long bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** Random text from ASCII, 2-, 3- and 4-byte characters, line breaks and lone surrogates. */
    private static String randomText(Random random, int maxUnits) {
        String[] pool = {"a", "Z", "7", " ", "=", "\n", "\r\n", TWO, "\u00df", THREE, "\u4e2d", FOUR, "\uD834\uDD1E",
                "\uD800", "\uDC00"};
        StringBuilder text = new StringBuilder();
        int units = random.nextInt(maxUnits + 1);
        while (text.length() < units) {
            text.append(pool[random.nextInt(pool.length)]);
        }
        return text.toString();
    }

    /** The text with every lone surrogate as U+FFFD, computed independently of the class under test. */
    private static String replaceLoneSurrogates(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(cp -> out.appendCodePoint(Character.isSurrogate((char) cp) && cp <= 0xFFFF ? 0xFFFD : cp));
        return out.toString();
    }

    @Nested
    class Cut {

        @ParameterizedTest
        @ValueSource(strings = {"a", TWO, THREE, FOUR})
        void exactlyTheBudgetFitsAndOneByteLessCutsTheLastCharacterWhole(String character) {
            String text = "x".repeat(5) + character;
            long size = 5 + bytes(character);

            assertThat(Projector.cut(text, size)).isEqualTo(text);
            assertThat(Projector.cut(text, size + 1)).isEqualTo(text);
            assertThat(Projector.cut(text, size - 1)).isEqualTo("xxxxx");
        }

        @ParameterizedTest
        @ValueSource(strings = {TWO, THREE, FOUR})
        void cutsAtEveryByteOffsetOfAMultiByteCharacterOnlyBetweenCharacters(String character) {
            String text = "ab" + character + character + "c";
            int width = (int) bytes(character);
            for (int budget = 0; budget <= 2 + 2 * width + 1; budget++) {
                String cut = Projector.cut(text, budget);
                int whole = budget < 2 ? budget : 2 + Math.min(2, (budget - 2) / width) * character.length();
                String expected = budget >= 3 + 2 * width ? text : text.substring(0, whole);
                assertThat(cut).as("budget %d", budget).isEqualTo(expected);
                assertThat(Utf8.isWellFormed(cut)).isTrue();
                assertThat(bytes(cut)).isLessThanOrEqualTo(budget);
            }
        }

        @Test
        void neverSplitsASurrogatePair() {
            String emoji = FOUR.repeat(10);

            assertThat(Projector.cut(emoji, 7)).isEqualTo(FOUR);
            assertThat(Projector.cut(emoji, 8)).isEqualTo(FOUR + FOUR);
            assertThat(Projector.cut("a" + emoji, 4)).isEqualTo("a");
        }

        @Test
        void aLoneSurrogateComesOutAsTheReplacementCharacterCountedThreeBytes() {
            assertThat(Projector.cut("a\uD800b", 5)).isEqualTo("a\uFFFDb");
            assertThat(Projector.cut("a\uD800b", 4)).isEqualTo("a\uFFFD");
            assertThat(Projector.cut("a\uD800b", 3)).isEqualTo("a");
            assertThat(Projector.cut("\uDC00\uD800", 6)).isEqualTo("\uFFFD\uFFFD");
            assertThat(Projector.cut("x\uD83D", 10)).isEqualTo("x\uFFFD");
        }

        @Test
        void emptyTextAndZeroBudget() {
            assertThat(Projector.cut("", 0)).isEmpty();
            assertThat(Projector.cut("", 10)).isEmpty();
            assertThat(Projector.cut("abc", 0)).isEmpty();
        }

        @Test
        void refusesANegativeBudgetAndNullText() {
            assertThatThrownBy(() -> Projector.cut("abc", -1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-1");
            assertThatThrownBy(() -> Projector.cut(null, 1)).isInstanceOf(NullPointerException.class);
        }

        @Test
        void isTheLongestWellFormedStartWithinTheBudget() {
            property("cut", SEED, random -> {
                String text = randomText(random, 40);
                long budget = random.nextInt(130);
                String cut = Projector.cut(text, budget);
                String reference = replaceLoneSurrogates(text);

                assertThat(Utf8.isWellFormed(cut)).as("well-formed").isTrue();
                assertThat(bytes(cut)).as("within the budget").isLessThanOrEqualTo(budget);
                assertThat(Projector.utf8Length(cut)).isEqualTo(bytes(cut));
                assertThat(reference).as("a start of the text").startsWith(cut);
                if (cut.length() < reference.length()) {
                    int next = reference.codePointAt(cut.length());
                    assertThat(bytes(cut) + bytes(Character.toString(next))).as("the next character does not fit")
                            .isGreaterThan(budget);
                }
            });
        }
    }

    @Nested
    class FirstLines {

        @Test
        void takesTheFirstWholeLinesThatFitCountingEachSeparatorOneByte() {
            String text = "aaaa\nbbbb\ncccc\n";

            assertThat(Projector.firstLines(text, 14)).isEqualTo("aaaa\nbbbb\ncccc");
            assertThat(Projector.firstLines(text, 13)).isEqualTo("aaaa\nbbbb");
            assertThat(Projector.firstLines(text, 9)).isEqualTo("aaaa\nbbbb");
            assertThat(Projector.firstLines(text, 8)).isEqualTo("aaaa");
            assertThat(Projector.firstLines(text, 4)).isEqualTo("aaaa");
            assertThat(Projector.firstLines(text, 3)).isEmpty();
        }

        @ParameterizedTest
        @ValueSource(strings = {"a", TWO, THREE, FOUR})
        void aLineOfExactlyTheBudgetFitsAndOneByteMoreDoesNot(String character) {
            String line = character.repeat(3);
            long size = 3 * bytes(character);

            assertThat(Projector.firstLines(line + "\nnext", size)).isEqualTo(line);
            assertThat(Projector.firstLines("x" + line + "\nnext", size)).isEmpty();
            assertThat(Projector.firstLines(line + "\n" + line, 2 * size + 1)).isEqualTo(line + "\n" + line);
            assertThat(Projector.firstLines(line + "\n" + line, 2 * size)).isEqualTo(line);
        }

        @Test
        void stopsAtTheFirstLineThatDoesNotFitSoThatNoLineIsSkipped() {
            assertThat(Projector.firstLines("short\n" + "long".repeat(100) + "\nshort again", 50)).isEqualTo("short");
        }

        @Test
        void acceptsEveryLineEnding() {
            assertThat(Projector.firstLines("a\r\nb\rc\nd", 100)).isEqualTo("a\nb\nc\nd");
        }

        @Test
        void emptyTextEmptyLinesAndLoneSurrogates() {
            assertThat(Projector.firstLines("", 10)).isEmpty();
            assertThat(Projector.firstLines("\n\nx", 10)).isEqualTo("\n\nx");
            assertThat(Projector.firstLines("a\uD800\nb", 10)).isEqualTo("a\uFFFD\nb");
            assertThat(Projector.firstLines("a\uD800\nb", 4)).isEqualTo("a\uFFFD");
            assertThat(Projector.firstLines("a\uD800\nb", 3)).isEmpty();
        }

        @Test
        void readsAStreamOnlyAsFarAsTheLinesFit() {
            List<String> read = new ArrayList<>();
            Stream<String> lines = Stream.iterate(0, i -> i + 1).map(i -> "line " + i).peek(read::add);

            assertThat(Projector.firstLines(lines, 13)).isEqualTo("line 0\nline 1");
            assertThat(read).hasSize(3);
        }

        @Test
        void refusesANegativeBudget() {
            assertThatThrownBy(() -> Projector.firstLines("a", -1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Projector.firstLines(Stream.of("a"), -1))
                    .isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void isTheLongestRunOfWholeLinesWithinTheBudget() {
            property("firstLines", SEED + 1, random -> {
                String text = randomText(random, 60);
                long budget = random.nextInt(150);
                String taken = Projector.firstLines(text, budget);
                List<String> lines = replaceLoneSurrogates(text).lines().toList();

                assertThat(Utf8.isWellFormed(taken)).as("well-formed").isTrue();
                assertThat(bytes(taken)).as("within the budget").isLessThanOrEqualTo(budget);
                String expected = "";
                for (int i = 0; i < lines.size(); i++) {
                    String longer = i == 0 ? lines.get(0) : expected + "\n" + lines.get(i);
                    if (bytes(longer) > budget) {
                        break;
                    }
                    expected = longer;
                }
                assertThat(taken).isEqualTo(expected);
            });
        }
    }

    @Nested
    class Mask {

        private static final String M = Projector.MASK;

        @Test
        void masksPasswordsInKeyValueShapes() {
            assertThat(Projector.mask("user=bob password=hunter2 host=db")).isEqualTo("user=bob password=" + M + " host=db");
            assertThat(Projector.mask("passwd: hunter2")).isEqualTo("passwd: " + M);
            assertThat(Projector.mask("pwd=hunter2&x=1")).isEqualTo("pwd=" + M + "&x=1");
            assertThat(Projector.mask("DB_PASSWORD=hunter2")).isEqualTo("DB_PASSWORD=" + M);
            assertThat(Projector.mask("Password = 'correct horse'")).isEqualTo("Password = '" + M + "'");
            assertThat(Projector.mask("{\"password\":\"hu\\\"nter2\",\"user\":\"bob\"}"))
                    .isEqualTo("{\"password\":\"" + M + "\",\"user\":\"bob\"}");
            assertThat(Projector.mask("passphrase => s3cret")).isEqualTo("passphrase => " + M);
        }

        @Test
        void masksApiKeysTokensAndSecrets() {
            assertThat(Projector.mask("api_key=abc123")).isEqualTo("api_key=" + M);
            assertThat(Projector.mask("X-Api-Key: abc123")).isEqualTo("X-Api-Key: " + M);
            assertThat(Projector.mask("token=abc123; path=/")).isEqualTo("token=" + M + "; path=/");
            assertThat(Projector.mask("secret=abc123")).isEqualTo("secret=" + M);
            assertThat(Projector.mask("\"clientSecret\": \"abc123\"")).isEqualTo("\"clientSecret\": \"" + M + "\"");
            assertThat(Projector.mask("GET /x?access_token=abc123&page=2")).isEqualTo("GET /x?access_token=" + M + "&page=2");
        }

        @Test
        void masksAuthorizationHeadersAndBearerTokens() {
            assertThat(Projector.mask("Authorization: Bearer eyJhbGciOi.abc.def"))
                    .isEqualTo("Authorization: Bearer " + M);
            assertThat(Projector.mask("authorization: Basic dXNlcjpwYXNz")).isEqualTo("authorization: Basic " + M);
            assertThat(Projector.mask("Authorization: abcdef123")).isEqualTo("Authorization: " + M);
            assertThat(Projector.mask("curl -H 'Authorization: Bearer abcdefgh12345' https://x"))
                    .isEqualTo("curl -H 'Authorization: Bearer " + M + "' https://x");
            assertThat(Projector.mask("sent bearer abcdefgh12345 to upstream")).isEqualTo("sent bearer " + M + " to upstream");
        }

        @Test
        void masksAwsKeys() {
            assertThat(Projector.mask("key AKIAIOSFODNN7EXAMPLE used")).isEqualTo("key " + M + " used");
            assertThat(Projector.mask("ASIAY34FZKBOKMUTVV7A")).isEqualTo(M);
            assertThat(Projector.mask("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
                    .isEqualTo("aws_secret_access_key = " + M);
            assertThat(Projector.mask("\"SecretAccessKey\": \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\""))
                    .isEqualTo("\"SecretAccessKey\": \"" + M + "\"");
        }

        @Test
        void masksPasswordsInConnectionStrings() {
            assertThat(Projector.mask("redis://default:hunter2@cache:6379/0")).isEqualTo("redis://default:" + M + "@cache:6379/0");
            assertThat(Projector.mask("rediss://:hunter2@cache:6380")).isEqualTo("rediss://:" + M + "@cache:6380");
            assertThat(Projector.mask("postgres://app:hu@nter2@db:5432/orders")).isEqualTo("postgres://app:" + M + "@db:5432/orders");
            assertThat(Projector.mask("url mysql://root:hunter2@db/shop ok")).isEqualTo("url mysql://root:" + M + "@db/shop ok");
            assertThat(Projector.mask("jdbc:mysql://app:hunter2@db:3306/shop")).isEqualTo("jdbc:mysql://app:" + M + "@db:3306/shop");
            assertThat(Projector.mask("jdbc:postgresql://db/orders?user=app&password=hunter2"))
                    .isEqualTo("jdbc:postgresql://db/orders?user=app&password=" + M);
            assertThat(Projector.mask("jdbc:oracle:thin:scott/tiger@db:1521:orcl")).isEqualTo("jdbc:oracle:thin:scott/" + M + "@db:1521:orcl");
            assertThat(Projector.mask("mongodb+srv://app:hunter2@cluster0.example.net"))
                    .isEqualTo("mongodb+srv://app:" + M + "@cluster0.example.net");
        }

        @Test
        void masksPrivateKeysAndWellKnownTokenShapes() {
            assertThat(Projector.mask("a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----\nb"))
                    .isEqualTo("a\n" + M + "\nb");
            assertThat(Projector.mask("-----BEGIN PRIVATE KEY-----\nMIIEow")).isEqualTo(M);
            assertThat(Projector.mask("ghp_" + "a".repeat(36))).isEqualTo(M);
            assertThat(Projector.mask("xoxb-1234567890-abcdef")).isEqualTo(M);
            assertThat(Projector.mask("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig")).isEqualTo("jwt " + M);
        }

        @Test
        void leavesOrdinaryTextAlone() {
            String text = "10:00:02 ERROR timeout calling payments after 30000 ms; user=bob host=db.example.net:5432\n"
                    + "https://example.net:8443/path?q=1 and git@github.com:org/repo.git, passwordless login ok, "
                    + "sha 3f786850e387550fdab836ed7e6dc881de23001b, caf\u00e9 \u20ac " + FOUR;

            assertThat(Projector.mask(text)).isEqualTo(text);
            assertThat(Projector.mask("")).isEmpty();
        }

        @Test
        void isIdempotent() {
            String once = Projector.mask("password=x pwd='y' Authorization: Bearer abcdefgh1234 redis://u:p@h AKIAIOSFODNN7EXAMPLE");

            assertThat(Projector.mask(once)).isEqualTo(once);
        }

        /**
         * A text built to make a backtracking pattern explode finishes at all: the guard only catches a
         * runaway (minutes or hours), never a slow machine; speed is measured with the benchmarks.
         */
        @Test
        void finishesOnALargeAdversarialText() {
            String text = ("a".repeat(40) + "password" + "-".repeat(30) + " redis://" + "x".repeat(50) + ":"
                    + "Bearer: ").repeat(8_000) + "a".repeat(200_000);

            String masked = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    java.time.Duration.ofMinutes(2), () -> Projector.mask(text));

            assertThat(Projector.utf8Length(text)).isGreaterThan(1_000_000);
            assertThat(masked).hasSameSizeAs(text);
        }

        @Test
        void noGeneratedSecretSurvivesAndTheRestIsKept() {
            String[] shapes = {"password=%s", "passwd: %s", "pwd=%s", "Authorization: Bearer %s", "bearer %s",
                    "api_key=%s", "token=%s", "secret=%s", "\"password\": \"%s\"", "redis://default:%s@cache:6379",
                    "postgres://app:%s@db/orders", "mysql://root:%s@db", "jdbc:mysql://app:%s@db:3306/shop",
                    "aws_secret_access_key=%s", "X-API-KEY: %s"};
            property("mask", SEED + 2, random -> {
                StringBuilder text = new StringBuilder();
                List<String> secrets = new ArrayList<>();
                int parts = 1 + random.nextInt(6);
                for (int i = 0; i < parts; i++) {
                    String secret = "S" + randomUpper(random, 12).toLowerCase() + "q9";
                    secrets.add(secret);
                    text.append(randomFiller(random)).append(' ').append(String.format(shapes[random.nextInt(shapes.length)], secret))
                            .append(random.nextBoolean() ? " " : "\n");
                }
                String key = "AKIA" + randomUpper(random, 16);
                secrets.add(key);
                text.append(key).append(' ').append(randomFiller(random));

                String masked = Projector.mask(text);
                for (String secret : secrets) {
                    assertThat(masked).as("masked text of %s", escaped(text.toString())).doesNotContain(secret);
                }
                assertThat(Projector.mask(masked)).as("idempotent").isEqualTo(masked);
                assertThat(Utf8.isWellFormed(masked)).isEqualTo(Utf8.isWellFormed(text));
            });
        }

        @Test
        void textWithoutCredentialWordsComesBackUnchanged() {
            property("mask-unchanged", SEED + 3, random -> {
                // no '@' either: "a://x:b@" is a URL with a password, and is masked
                String text = (randomFiller(random) + randomText(random, 30).replace("Z", "") + randomFiller(random))
                        .replace("@", "");
                assertThat(Projector.mask(text)).as("mask of %s", escaped(text)).isEqualTo(text);
            });
        }

        private static String escaped(String text) {
            StringBuilder out = new StringBuilder();
            text.chars().forEach(c -> out.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", c) : String.valueOf((char) c)));
            return out.toString();
        }

        @Test
        void masksAUrlPasswordEvenInAShortRandomLookingText() {
            assertThat(Projector.mask("a://x:b@")).isEqualTo("a://x:" + M + "@");
        }

        private static String randomFiller(Random random) {
            String[] pool = {"a", "b", "x", "7", " ", "\t", "=", ":", "/", "@", "-", TWO, THREE, FOUR, "\n"};
            StringBuilder filler = new StringBuilder();
            int length = random.nextInt(20);
            for (int i = 0; i < length; i++) {
                filler.append(pool[random.nextInt(pool.length)]);
            }
            return filler.toString();
        }

        private static String randomUpper(Random random, int length) {
            String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < length; i++) {
                out.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            return out.toString();
        }
    }
}
