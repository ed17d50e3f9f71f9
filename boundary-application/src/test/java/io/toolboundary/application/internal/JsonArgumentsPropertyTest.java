package io.toolboundary.application.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.vavr.control.Either;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class JsonArgumentsPropertyTest {

    private final JsonArguments json = new JsonArguments(8, 20, 65_536);

    @Property(tries = 1000)
    void neverThrowsAndAnswersAFingerprintOrAnArgumentsCode(@ForAll("candidates") String text) {
        Either<BoundaryError, String> checked = json.fingerprint(text);

        if (checked.isRight()) {
            assertThat(checked.get()).matches("[0-9a-f]{64}");
        } else {
            assertThat(checked.getLeft().code()).isIn(ErrorCode.ARGUMENTS_INVALID, ErrorCode.TEXT_NOT_UNICODE);
        }
    }

    /** Arbitrary text of any char, and text built mostly from JSON's own characters. */
    @Provide
    Arbitrary<String> candidates() {
        Arbitrary<String> anything = Arbitraries.strings().all().ofMaxLength(200);
        Arbitrary<String> jsonish = Arbitraries.strings()
                .withChars("{}[]\":,-+.eE0123456789 \t\n\\/ubfnrtalseNI'#*\uD800\uDC00\uFEFF\u00e9")
                .ofMaxLength(80)
                .map(tail -> "{" + tail);
        Arbitrary<String> tokens = Arbitraries.of("{", "}", "[", "]", ":", ",", "\"a\"", "\"\\ud800\"", "\"\\u0061\"",
                        "1", "-0", "1e999", "1.5", "true", "null", " ", "\"x\"")
                .list().ofMaxSize(40)
                .map(parts -> String.join("", parts));
        return Arbitraries.oneOf(anything, jsonish, tokens);
    }
}
