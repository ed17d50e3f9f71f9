package io.toolboundary.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.vavr.control.Either;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class SafeIdentifierPropertyTest {

    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");

    @Property(tries = 1000)
    void runIdIsRightExactlyForSafeText(@ForAll("candidates") String text) {
        assertMatchesRule(RunId.of(text).map(RunId::value), text);
    }

    @Property(tries = 1000)
    void toolCallIdIsRightExactlyForSafeText(@ForAll("candidates") String text) {
        assertMatchesRule(ToolCallId.of(text).map(ToolCallId::value), text);
    }

    @Property(tries = 1000)
    void toolNameIsRightExactlyForSafeText(@ForAll("candidates") String text) {
        assertMatchesRule(ToolName.of(text).map(ToolName::value), text);
    }

    private static void assertMatchesRule(Either<BoundaryError, String> checked, String text) {
        boolean safe = SAFE.matcher(text).matches();
        assertThat(checked.isRight()).as("Right for %s", escaped(text)).isEqualTo(safe);
        if (safe) {
            assertThat(checked.get()).isEqualTo(text);
        }
    }

    /**
     * Arbitrary strings of any char (lone surrogates included), plus strings drawn mostly from the
     * safe alphabet around the 128-character limit so that both outcomes are well covered.
     */
    @Provide
    Arbitrary<String> candidates() {
        Arbitrary<String> anything = Arbitraries.strings().all().ofMaxLength(200);
        Arbitrary<String> nearlySafe = Arbitraries.strings()
                .withCharRange('a', 'z').withCharRange('A', 'Z').withCharRange('0', '9').withChars("_.:-")
                .withChars(" \t\r\n{}*?[\u200B\u202E\u00E9\uD800\uDC00\u0000")
                .ofMinLength(0).ofMaxLength(140);
        Arbitrary<String> safe = Arbitraries.strings()
                .withCharRange('a', 'z').withCharRange('A', 'Z').withCharRange('0', '9').withChars("_.:-")
                .ofMinLength(0).ofMaxLength(130);
        return Arbitraries.oneOf(anything, nearlySafe, safe);
    }

    private static String escaped(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c < 0x20 || c > 0x7E ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return out.toString();
    }
}
