package io.toolboundary.application.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonArgumentsTest {

    private static final int DEPTH = 64;
    private static final int NUMBER_LENGTH = 100;

    private static final ToolName TOOL = new ToolName("log-search");

    private final JsonArguments json = new JsonArguments(DEPTH, NUMBER_LENGTH, 65_536);

    private Either<BoundaryError, String> check(String text) {
        return json.fingerprint(TOOL, text);
    }

    private String canonical(String text) {
        Either<BoundaryError, String> canonical = json.canonical(text);
        assertThat(canonical.isRight()).as("accepts %s, got %s", abbreviate(text), canonical).isTrue();
        return canonical.get();
    }

    private void assertAccepted(String text) {
        Either<BoundaryError, String> checked = check(text);
        assertThat(checked.isRight()).as("accepts %s, got %s", abbreviate(text), checked).isTrue();
        assertThat(checked.get()).matches("[0-9a-f]{64}");
    }

    private void assertRejected(String text, ErrorCode code) {
        Either<BoundaryError, String> checked = check(text);
        assertThat(checked.isLeft()).as("rejects %s", abbreviate(text)).isTrue();
        assertThat(checked.getLeft().code()).isEqualTo(code);
    }

    /** An object holding objects, {@code depth} levels in all. */
    static String nestedObjects(int depth) {
        return "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
    }

    /** An object holding arrays, {@code depth} levels in all. */
    static String nestedArrays(int depth) {
        return "{\"a\":" + "[".repeat(depth - 1) + "]".repeat(depth - 1) + "}";
    }

    /** Objects and arrays alternating, {@code depth} levels in all, with a value at the bottom. */
    static String nestedMixed(int depth) {
        StringBuilder open = new StringBuilder();
        StringBuilder close = new StringBuilder();
        for (int level = 1; level <= depth; level++) {
            boolean object = level % 2 == 1;
            open.append(object ? "{\"k\":" : "[");
            close.insert(0, object ? "}" : "]");
        }
        return open + "1" + close;
    }

    @Nested
    class Accepts {

        @ParameterizedTest
        @ValueSource(strings = {
            "{}", " {} ", "\n\t{ }\r\n", "{\"a\":1}", "{\"a\":-0.5e-3,\"b\":\"x\",\"c\":true,\"d\":false,\"e\":null}",
            "{\"a\":[],\"b\":{},\"c\":[1,\"2\",[3],{\"d\":4}]}", "{\"\":\"\"}", "{\"a\":\"\\ud83d\\ude00\"}",
            "{\"caf\u00e9\":\"\u20ac\ud83d\ude00\"}", "{\"a\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0000\"}",
            "{\"a\":1,\"A\":2}", "{\"o\":{\"a\":1},\"p\":{\"a\":1}}"
        })
        void oneWellFormedObject(String text) {
            assertAccepted(text);
        }

        @Test
        void nestingOfExactlyTheDepthLimit() {
            assertAccepted(nestedObjects(DEPTH));
            assertAccepted(nestedArrays(DEPTH));
            assertAccepted(nestedMixed(DEPTH));
        }

        @Test
        void numbersOfExactlyTheLengthLimit() {
            assertAccepted("{\"n\":" + "9".repeat(NUMBER_LENGTH) + "}");
            assertAccepted("{\"n\":1." + "5".repeat(NUMBER_LENGTH - 2) + "}");
            assertAccepted("{\"n\":[" + "1".repeat(NUMBER_LENGTH) + "]}");
            assertAccepted("{\"n\":-" + "9".repeat(NUMBER_LENGTH - 1) + "}");
            assertAccepted("{\"n\":-1." + "5".repeat(NUMBER_LENGTH - 7) + "e-12}");
        }

        @Test
        void theLargestFiniteDoubles() {
            assertAccepted("{\"n\":1e308}");
            assertAccepted("{\"n\":-1.7976931348623157e308}");
            assertAccepted("{\"n\":1e-999999}");
        }
    }

    @Nested
    class Rejects {

        @Test
        void nestingOneLevelDeeperThanTheLimit() {
            assertRejected(nestedObjects(DEPTH + 1), ErrorCode.ARGUMENTS_INVALID);
            assertRejected(nestedArrays(DEPTH + 1), ErrorCode.ARGUMENTS_INVALID);
            assertRejected(nestedMixed(DEPTH + 1), ErrorCode.ARGUMENTS_INVALID);
        }

        @Test
        void nestingAtTheLimitOfASmallerConfiguredDepth() {
            JsonArguments shallow = new JsonArguments(2, NUMBER_LENGTH, 65_536);

            assertThat(shallow.fingerprint(TOOL, "{\"a\":[]}").isRight()).isTrue();
            assertThat(shallow.fingerprint(TOOL, "{\"a\":{}}").isRight()).isTrue();
            assertThat(shallow.fingerprint(TOOL, "{\"a\":[[]]}").getLeft().code()).isEqualTo(ErrorCode.ARGUMENTS_INVALID);
            assertThat(shallow.fingerprint(TOOL, "{\"a\":{\"b\":{}}}").getLeft().code()).isEqualTo(ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"[]", "[{}]", "\"x\"", "\"{}\"", "1", "-1", "1.5", "null", "true", "false", "", " ", "\n\t\r "})
        void anythingButAnObjectAtTheTop(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{} {}", "{}{}", "{}x", "{}]", "{}}", "{},", "{} 1", "{} null", "{}\"", "{} /", "{}\u0000"})
        void trailingContent(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\":1,", "{\"a\":[1", "{\"a\":\"x", "{\"a\":1,}",
            "{\"a\":[1,]}", "{,}", "{\"a\" 1}", "{\"a\":1 \"b\":2}"})
        void truncatedOrMalformedObjects(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{\"a\":1,\"a\":2}", "{\"a\":1,\"a\":1}", "{\"o\":{\"b\":1,\"b\":1}}",
            "{\"l\":[{\"k\":1},{\"k\":2,\"k\":3}]}", "{\"a\":1,\"\\u0061\":2}", "{\"\":1,\"\":2}"})
        void duplicateKeysAtAnyLevel(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{/* c */}", "{\"a\":1 // c\n}", "# c\n{}", "{}// c", "{} /* c */"})
        void comments(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{'a':1}", "{\"a\":'x'}", "{a:1}", "{\"a\":x}"})
        void singleQuotesAndUnquotedText(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{\"n\":NaN}", "{\"n\":Infinity}", "{\"n\":-Infinity}", "{\"n\":+Infinity}",
            "{\"n\":+1}", "{\"n\":01}", "{\"n\":.5}", "{\"n\":1.}", "{\"n\":0x10}"})
        void nonStandardNumbers(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @Test
        void numbersLongerThanTheLimit() {
            assertRejected("{\"n\":" + "9".repeat(NUMBER_LENGTH + 1) + "}", ErrorCode.ARGUMENTS_INVALID);
            assertRejected("{\"n\":1." + "5".repeat(NUMBER_LENGTH - 1) + "}", ErrorCode.ARGUMENTS_INVALID);
            assertRejected("{\"n\":[" + "1".repeat(NUMBER_LENGTH + 1) + "]}", ErrorCode.ARGUMENTS_INVALID);
        }

        @Test
        void numbersLongerThanTheLimitCountingSignPointAndExponent() {
            assertRejected("{\"n\":-" + "9".repeat(NUMBER_LENGTH) + "}", ErrorCode.ARGUMENTS_INVALID);
            assertRejected("{\"n\":-1." + "5".repeat(NUMBER_LENGTH - 6) + "e-12}", ErrorCode.ARGUMENTS_INVALID);
            assertRejected("{\"n\":1e-" + "1".repeat(NUMBER_LENGTH - 2) + "}", ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{\"n\":1e999999}", "{\"n\":-1e999999}", "{\"n\":1e309}", "{\"n\":[1E400]}",
            "{\"n\":1.8e308}"})
        void numbersThatOverflowADouble(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"x\\ud83dy\"}",
            "{\"a\":\"\\ude00\\ud83d\"}", "{\"a\":\"\\ud83d\\u0041\"}", "{\"a\":\"\\ud83d\\ud83d\\ude00\"}",
            "{\"a\":[\"\\ud800\"]}", "{\"o\":{\"a\":\"\\udfff\"}}"})
        void unpairedSurrogateEscapesInValues(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{\"\\ud800\":1}", "{\"\\udc00\":1}", "{\"a\\ud83d\":1}", "{\"o\":{\"\\ud800x\":1}}"})
        void unpairedSurrogateEscapesInNames(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"\uFEFF{}", "\uFEFF {\"a\":1}"})
        void aLeadingByteOrderMark(String text) {
            assertRejected(text, ErrorCode.ARGUMENTS_INVALID);
        }

        @ParameterizedTest
        @ValueSource(strings = {"{\"a\":\"\uD800\"}", "{\"\uDC00\":1}", "{\"a\":\"x\uD83D\"}", "{}\uD800",
            "\uDE00{}", "{\"a\":\"\uDE00\uD83D\"}"})
        void loneSurrogateCharactersInTheText(String text) {
            assertRejected(text, ErrorCode.TEXT_NOT_UNICODE);
        }

        /** The text is not Unicode, whatever else is wrong with it. */
        @ParameterizedTest
        @ValueSource(strings = {"{\"a\":1,,\uD800}", "[\uDC00", "\uD800", "{}x\uD800", "{\"a\":\"\\ud83d\uDE00\"}",
            "{\"a\":1,\"a\":2,\"b\":\"\uDC00\"}", "{\"n\":1e999,\"s\":\"\uD800\"}", "{\"a\":\uDE00\uD83D}", "{\"a\":\"\u0001\uD800\"}"})
        void aLoneSurrogateCharacterBeforeAnyOtherRefusal(String text) {
            assertRejected(text, ErrorCode.TEXT_NOT_UNICODE);
        }

        @Test
        void textsLongerThanTheLengthLimit() {
            JsonArguments short16 = new JsonArguments(DEPTH, NUMBER_LENGTH, 16);

            assertThat(short16.fingerprint(TOOL, "{\"a\":\"12345678\"}").isRight()).isTrue();
            assertThat(short16.fingerprint(TOOL, "{\"a\":\"123456789\"}").getLeft().code()).isEqualTo(ErrorCode.ARGUMENTS_INVALID);
        }

        @Test
        void tenThousandOpeningBracketsWithoutOverflowingTheStack() {
            AtomicReference<Either<BoundaryError, String>> checked = new AtomicReference<>();
            String brackets = "[".repeat(10_000);

            assertThatCode(() -> checked.set(check(brackets))).doesNotThrowAnyException();
            assertThat(checked.get().getLeft().code()).isEqualTo(ErrorCode.ARGUMENTS_INVALID);

            for (String text : new String[] {
                "{\"a\":" + brackets, "{\"a\":" + brackets + "]".repeat(10_000) + "}", "{\"a\":".repeat(10_000)}) {
                assertThatCode(() -> checked.set(check(text))).doesNotThrowAnyException();
                assertThat(checked.get().getLeft().code()).isEqualTo(ErrorCode.ARGUMENTS_INVALID);
            }
        }

        @Test
        void tenThousandOpeningBracketsEvenWithoutADepthLimit() {
            JsonArguments unlimited = new JsonArguments(Integer.MAX_VALUE, NUMBER_LENGTH, 65_536);
            String deep = "{\"a\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}";

            assertThatCode(() -> unlimited.fingerprint(TOOL, deep)).doesNotThrowAnyException();
            assertThat(unlimited.fingerprint(TOOL, "{\"a\":" + "[".repeat(10_000)).getLeft().code())
                    .isEqualTo(ErrorCode.ARGUMENTS_INVALID);
        }
    }

    @Nested
    class Fingerprint {

        @Test
        void isSixtyFourLowercaseHexCharacters() {
            assertThat(check("{}").get()).hasSize(64).matches("[0-9a-f]{64}");
        }

        @Test
        void isStableForTheSameText() {
            assertThat(check("{\"a\":1}").get()).isEqualTo(check("{\"a\":1}").get());
        }

        @Test
        void ignoresInsignificantWhitespaceAndEscaping() {
            assertThat(check("{ \"a\" : 1 , \"b\" : \"\\u0078\" }").get()).isEqualTo(check("{\"a\":1,\"b\":\"x\"}").get());
            assertThat(check("{\"a\":\"\\u00e9\\/\"}").get()).isEqualTo(check("{\"a\":\"\u00e9/\"}").get());
            assertThat(check("{\"\\u0061\":[ 1 ,\t2 ]}").get()).isEqualTo(check("{\"a\":[1,2]}").get());
        }

        @Test
        void differsWhenAValueDiffers() {
            String base = check("{\"a\":1,\"b\":\"x\"}").get();

            assertThat(check("{\"a\":2,\"b\":\"x\"}").get()).isNotEqualTo(base);
            assertThat(check("{\"a\":1,\"b\":\"y\"}").get()).isNotEqualTo(base);
            assertThat(check("{\"a\":\"1\",\"b\":\"x\"}").get()).isNotEqualTo(base);
            assertThat(check("{\"a\":[1],\"b\":\"x\"}").get()).isNotEqualTo(base);
        }

        @Test
        void ignoresMemberOrderAtEveryLevel() {
            assertThat(check("{\"b\":\"x\",\"a\":1}").get()).isEqualTo(check("{\"a\":1,\"b\":\"x\"}").get());
            assertThat(check("{\"o\":{\"z\":[{\"b\":1,\"a\":2}],\"y\":null},\"a\":0}").get())
                    .isEqualTo(check("{\"a\":0,\"o\":{\"y\":null,\"z\":[{\"a\":2,\"b\":1}]}}").get());
        }

        @Test
        void readsNumbersAsTheDoublesTheyName() {
            assertThat(check("{\"n\":1.0}").get()).isEqualTo(check("{\"n\":1}").get());
            assertThat(check("{\"n\":1e2}").get()).isEqualTo(check("{\"n\":100}").get());
            assertThat(check("{\"n\":-0}").get()).isEqualTo(check("{\"n\":0}").get());
            assertThat(check("{\"n\":0.1E1}").get()).isEqualTo(check("{\"n\":1}").get());
            assertThat(check("{\"n\":9007199254740993}").get()).isEqualTo(check("{\"n\":9007199254740992}").get());
        }

        @Test
        void keepsTheOrderOfArrayItems() {
            assertThat(check("{\"a\":[1,2]}").get()).isNotEqualTo(check("{\"a\":[2,1]}").get());
        }

        @Test
        void coversTheToolName() {
            assertThat(json.fingerprint(new ToolName("sql-query"), "{\"a\":1}").get())
                    .isNotEqualTo(json.fingerprint(TOOL, "{\"a\":1}").get());
        }

        @Test
        void isTheSha256OfTheToolNameANulByteAndTheCanonicalForm() throws Exception {
            String text = "{ \"b\" : [1.0, \"\\u00e9\"], \"a\" : true }";
            byte[] expected = MessageDigest.getInstance("SHA-256").digest(
                    "log-search\u0000{\"a\":true,\"b\":[1,\"\u00e9\"]}".getBytes(StandardCharsets.UTF_8));

            assertThat(check(text).get()).isEqualTo(HexFormat.of().formatHex(expected));
        }

        @Test
        void differsWhenAKeyDiffers() {
            assertThat(check("{\"a\":1}").get()).isNotEqualTo(check("{\"A\":1}").get());
        }

        @Test
        void isTheSameAfterALargeDocumentOnTheSameThread() {
            String small = "{\"b\":[1.5,\"\u00e9\"],\"a\":{\"d\":1,\"c\":2}}";
            String before = check(small).get();
            StringBuilder large = new StringBuilder("{");
            for (int i = 0; i < 20_000; i++) {
                large.append(i == 0 ? "\"k" : ",\"k").append(20_000 - i).append("\":[\"").append("x".repeat(10)).append("\"]");
            }

            assertThat(new JsonArguments(DEPTH, NUMBER_LENGTH, 1 << 22).fingerprint(TOOL, large.append('}').toString()).isRight()).isTrue();
            assertThat(check(small).get()).isEqualTo(before);
        }

        @Test
        void tellsStringBoundariesApart() {
            assertThat(check("{\"a\":\"b\",\"c\":\"d\"}").get()).isNotEqualTo(check("{\"a\":\"b\\\",\\\"c\\\":\\\"d\"}").get());
        }
    }

    @Nested
    class CanonicalForm {

        @Test
        void isTheRfc8785ExampleOfSection3_2_2() {
            String input = "{\n  \"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n"
                    + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
                    + "  \"literals\": [null, true, false]\n}";

            assertThat(canonical(input)).isEqualTo("{\"literals\":[null,true,false],"
                    + "\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                    + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
        }

        @Test
        void sortsMembersByUtf16CodeUnitsAsRfc8785Section3_2_3Does() {
            String input = "{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\",\"\\ufb33\":\"Hebrew Letter Dalet With Dagesh\","
                    + "\"1\":\"One\",\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":\"Control\","
                    + "\"\\u00f6\":\"Latin Small Letter O With Diaeresis\"}";

            assertThat(canonical(input)).isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
                    + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
                    + "\"\ud83d\ude00\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
        }

        @Test
        void sortsASupplementaryCharacterBeforeAHighBmpOne() {
            // By code point U+1F600 would follow U+FB33; by UTF-16 code units 0xD83D comes first.
            assertThat(canonical("{\"\ufb33\":1,\"\ud83d\ude00\":2}")).isEqualTo("{\"\ud83d\ude00\":2,\"\ufb33\":1}");
        }

        @Test
        void sortsNestedObjectsAndKeepsArrayOrder() {
            assertThat(canonical("{\"b\":[{\"y\":1,\"x\":[3,1,2]}],\"a\":{\"d\":{},\"c\":[]}}"))
                    .isEqualTo("{\"a\":{\"c\":[],\"d\":{}},\"b\":[{\"x\":[3,1,2],\"y\":1}]}");
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "1.0|1", "1e2|100", "-0|0", "-0.0|0", "0e10|0", "1e21|1e+21", "1e20|100000000000000000000",
            "0.000001|0.000001", "1e-7|1e-7", "1E-7|1e-7", "4.50|4.5", "2e-3|0.002", "1E30|1e+30",
            "0.000000000000000000000000001|1e-27", "333333333.33333329|333333333.3333333", "-1.5|-1.5",
            "123e-20|1.23e-18", "1.5e300|1.5e+300", "5e-324|5e-324", "1e-999999|0",
            "9007199254740993|9007199254740992", "12345678901234567890|12345678901234567000",
            "2.82879384806159E17|282879384806159000", "1.7976931348623157e308|1.7976931348623157e+308",
            "0.1|0.1", "100|100", "-100|-100"})
        void writesNumbersAsEcmaScriptDoes(String literal, String expected) {
            assertThat(canonical("{\"n\":" + literal + "}")).isEqualTo("{\"n\":" + expected + "}");
        }

        @Test
        void escapesOnlyWhatRfc8785Escapes() {
            assertThat(canonical("{\"s\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0000\\u001F\\u007f\\u2028\\u00e9\\u20AC\"}"))
                    .isEqualTo("{\"s\":\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u2028\u00e9\u20ac\"}");
            assertThat(canonical("{\"\\u0001\":\"\ud83d\ude00\"}")).isEqualTo("{\"\\u0001\":\"\ud83d\ude00\"}");
        }

        @Test
        void dropsInsignificantWhitespaceAndKeepsLiterals() {
            assertThat(canonical(" {\t\"a\" :\r\n[ true , false , null ] , \"b\" : { } } "))
                    .isEqualTo("{\"a\":[true,false,null],\"b\":{}}");
        }

        @Test
        void writesTenThousandNestedArraysWithoutRecursion() {
            JsonArguments unlimited = new JsonArguments(Integer.MAX_VALUE, NUMBER_LENGTH, 65_536);
            String deep = "{\"a\":" + "[".repeat(10_000) + "1" + "]".repeat(10_000) + "}";

            assertThat(unlimited.canonical(deep).get()).isEqualTo(deep);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "... (" + text.length() + " chars)";
    }
}
