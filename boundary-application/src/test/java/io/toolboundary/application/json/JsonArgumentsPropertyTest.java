package io.toolboundary.application.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link JsonArguments} on 3,000 seeded random texts: it never throws and always answers. */
class JsonArgumentsPropertyTest {

    private static final int TRIES = 3000;
    private static final String JSONISH = "{}[]\":,-+.eE0123456789 \t\n\\/ubfnrtalseNI'#*\uD800\uDC00\uFEFF\u00e9";
    private static final String[] TOKENS = {"{", "}", "[", "]", ":", ",", "\"a\"", "\"\\ud800\"", "\"\\u0061\"",
        "1", "-0", "1e999", "1.5", "true", "null", " ", "\"x\""};

    private final JsonArguments json = new JsonArguments(8, 20, 65_536);

    @Test
    void neverThrowsAndAnswersAFingerprintOrAnArgumentsCode() {
        Random random = new Random(7L);
        int accepted = 0;
        for (int i = 0; i < TRIES; i++) {
            String text = candidate(random);
            Either<BoundaryError, String> checked = json.fingerprint(new ToolName("t"), text);
            if (checked.isRight()) {
                accepted++;
                assertThat(checked.get()).matches("[0-9a-f]{64}");
            } else {
                assertThat(checked.getLeft().code()).isIn(ErrorCode.ARGUMENTS_INVALID, ErrorCode.TEXT_NOT_UNICODE);
            }
        }
        assertThat(accepted).as("some candidates are valid objects").isPositive();
    }

    /** Any chars, text built mostly from JSON's own characters, or a sequence of JSON tokens. */
    private static String candidate(Random random) {
        StringBuilder text = new StringBuilder();
        switch (random.nextInt(3)) {
            case 0 -> {
                int length = random.nextInt(201);
                for (int i = 0; i < length; i++) {
                    text.append((char) random.nextInt(Character.MAX_VALUE + 1));
                }
            }
            case 1 -> {
                text.append('{');
                int length = random.nextInt(81);
                for (int i = 0; i < length; i++) {
                    text.append(JSONISH.charAt(random.nextInt(JSONISH.length())));
                }
            }
            default -> {
                if (random.nextBoolean()) {
                    text.append("{\"k\":");
                }
                int count = random.nextInt(41);
                for (int i = 0; i < count; i++) {
                    text.append(TOKENS[random.nextInt(TOKENS.length)]);
                }
                if (text.length() > 0 && text.charAt(0) == '{') {
                    text.append('}');
                }
            }
        }
        return text.toString();
    }
}
