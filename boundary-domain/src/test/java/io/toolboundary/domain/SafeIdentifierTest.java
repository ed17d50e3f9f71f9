package io.toolboundary.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.vavr.control.Either;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The safe-identifier rule as seen through RunId, ToolCallId and ToolName. */
class SafeIdentifierTest {

    /** The three identifier types, each with its checking factory, its constructor and its codes. */
    enum Kind {
        RUN_ID(s -> RunId.of(s).map(RunId::value), s -> new RunId(s).value(), s -> new RunId(s).toString(),
                ErrorCode.RUN_ID_INVALID, ErrorCode.RUN_ID_INVALID, "run id"),
        TOOL_CALL_ID(s -> ToolCallId.of(s).map(ToolCallId::value), s -> new ToolCallId(s).value(),
                s -> new ToolCallId(s).toString(), ErrorCode.TOOL_CALL_ID_MISSING, ErrorCode.TOOL_CALL_ID_UNSAFE,
                "tool_call_id"),
        TOOL_NAME(s -> ToolName.of(s).map(ToolName::value), s -> new ToolName(s).value(),
                s -> new ToolName(s).toString(), ErrorCode.TOOL_NAME_INVALID, ErrorCode.TOOL_NAME_INVALID, "tool name");

        final Function<String, Either<BoundaryError, String>> of;
        final Function<String, String> construct;
        final Function<String, String> constructAndPrint;
        final ErrorCode missing;
        final ErrorCode unsafe;
        final String what;

        Kind(Function<String, Either<BoundaryError, String>> of, Function<String, String> construct,
                Function<String, String> constructAndPrint, ErrorCode missing, ErrorCode unsafe, String what) {
            this.what = what;
            this.of = of;
            this.construct = construct;
            this.constructAndPrint = constructAndPrint;
            this.missing = missing;
            this.unsafe = unsafe;
        }
    }

    static final String SAFE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-";

    static List<String> safeValues() {
        return List.of("a", "Z", "7", "_", ".", ":", "-", "call_01HZX.abc:def-9", "a".repeat(128), cycle(128),
                SAFE_ALPHABET);
    }

    static List<String> missingValues() {
        return Arrays.asList(null, "", " ", "   ", "\t", "\n", "\r\n", " \t \n ");
    }

    static List<String> unsafeValues() {
        return List.of(
                "a".repeat(129), cycle(129), "a".repeat(128) + " ",
                "a\u0000b", "a\u0001", "\u0007a", "a\u007Fb", "a\u0085b", "a\u009Fb",
                "a\rb", "a\nb", "abc\r\n", "\r\nabc", "a\tb",
                "a{b", "a}b", "{a}", "a*", "a?b", "a[b", "a]b",
                "a b", " a", "a ", "a\u00A0b", "a\u3000b",
                "a\u202Eb", "a\u202Ab", "a\u2066b", "a\u200Fb", "a\u061Cb",
                "\u200Bab", "a\u200Cb", "a\u200Db", "\uFEFFab", "a\u2060b",
                "é", "café", "Ωmega", "ид", "名前", "ａ", "a😀",
                "a\uD83D", "\uD83Da", "a\uDE00b", "\uDE00\uD83D",
                "a/b", "a\\b", "a@b", "a%b", "a#b", "a\"b", "a'b", "a,b", "a;b", "a=b", "a+b", "a|b", "a$b");
    }

    static Stream<Arguments> eachKindWith(List<String> values) {
        return Arrays.stream(Kind.values()).flatMap(kind -> values.stream().map(v -> Arguments.of(kind, v)));
    }

    static Stream<Arguments> safe() {
        return eachKindWith(safeValues());
    }

    static Stream<Arguments> missing() {
        return eachKindWith(missingValues());
    }

    static Stream<Arguments> unsafe() {
        return eachKindWith(unsafeValues());
    }

    static Stream<Arguments> unsafeButPresent() {
        return Stream.concat(eachKindWith(unsafeValues()),
                eachKindWith(missingValues().stream().filter(v -> v != null).toList()));
    }

    @ParameterizedTest(name = "{0} accepts \"{1}\"")
    @MethodSource("safe")
    void acceptsSafeValueAndKeepsItExactly(Kind kind, String value) {
        Either<BoundaryError, String> checked = kind.of.apply(value);

        assertThat(checked.isRight()).isTrue();
        assertThat(checked.get()).isSameAs(value);
        assertThat(kind.construct.apply(value)).isSameAs(value);
        assertThat(kind.constructAndPrint.apply(value)).isEqualTo(value);
    }

    @ParameterizedTest(name = "{0} reads {1} as missing")
    @MethodSource("missing")
    void rejectsMissingOrBlankValueWithTheMissingCode(Kind kind, String value) {
        Either<BoundaryError, String> checked = kind.of.apply(value);

        assertThat(checked.isLeft()).isTrue();
        assertThat(checked.getLeft()).isEqualTo(BoundaryError.of(kind.missing));
    }

    @ParameterizedTest(name = "{0} rejects {1}")
    @MethodSource("unsafe")
    void rejectsUnsafeValueWithTheUnsafeCode(Kind kind, String value) {
        Either<BoundaryError, String> checked = kind.of.apply(value);

        assertThat(checked.isLeft()).isTrue();
        assertThat(checked.getLeft()).isEqualTo(BoundaryError.of(kind.unsafe));
    }

    @ParameterizedTest(name = "{0} constructor refuses {1}")
    @MethodSource("unsafeButPresent")
    void constructorThrowsForUnsafeValue(Kind kind, String value) {
        String shown = value.length() > 64 ? value.substring(0, 64) + "... (" + value.length() + " characters)" : value;
        assertThatIllegalArgumentException().isThrownBy(() -> kind.construct.apply(value))
                .withMessage(kind.what + " \"" + shown + "\" is not a safe identifier: use 1 to 128 characters of"
                        + " [A-Za-z0-9_.:-], for example \"log-search\"");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void constructorThrowsNullPointerExceptionForNull(Kind kind) {
        assertThatNullPointerException().isThrownBy(() -> kind.construct.apply(null))
                .withMessage(kind.what + " is null");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void acceptsExactly128CharactersAndRejects129(Kind kind) {
        String limit = cycle(128);

        assertThat(kind.of.apply(limit).get()).isEqualTo(limit);
        assertThat(kind.of.apply(limit + "a").getLeft().code()).isEqualTo(kind.unsafe);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void acceptsExactlyTheSafeAlphabetAmongEveryCharacter(Kind kind) {
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String value = "a" + (char) c + "9";
            Either<BoundaryError, String> checked = kind.of.apply(value);
            if (SAFE_ALPHABET.indexOf(c) >= 0) {
                assertThat(checked.get()).as("U+%04X", c).isEqualTo(value);
            } else {
                assertThat(checked.getLeft().code()).as("U+%04X", c).isEqualTo(kind.unsafe);
            }
        }
    }

    @org.junit.jupiter.api.Test
    void maxLengthIs128ForEveryIdentifier() {
        assertThat(RunId.MAX_LENGTH).isEqualTo(128);
        assertThat(ToolCallId.MAX_LENGTH).isEqualTo(128);
        assertThat(ToolName.MAX_LENGTH).isEqualTo(128);
    }

    /** The safe alphabet repeated up to {@code length} characters. */
    static String cycle(int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(SAFE_ALPHABET.charAt(i % SAFE_ALPHABET.length()));
        }
        return text.toString();
    }
}
