package io.toolboundary.tck.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.domain.ErrorCode;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The generators make what they promise: exact sizes and widths, every family, safe ids told apart. */
class HostileInputsTest {

    @Test
    void textsHaveExactlyTheAskedBytesAndLastCharacterWidth() {
        Random random = new Random(1L);
        for (int i = 0; i < 2000; i++) {
            int width = 1 + random.nextInt(4);
            int bytes = width + random.nextInt(2048);
            String text = HostileInputs.textOfUtf8Bytes(random, bytes, width);
            assertThat(text.getBytes(UTF_8)).hasSize(bytes);
            assertThat(UTF_8.newEncoder().canEncode(text)).as("well-formed").isTrue();
            int last = text.codePointBefore(text.length());
            assertThat(new String(Character.toChars(last)).getBytes(UTF_8)).hasSize(width);
            assertThat(text).doesNotContain("\"", "\\");
        }
    }

    @Test
    void refusesAWidthThatCannotBeMade() {
        assertThatThrownBy(() -> HostileInputs.textOfUtf8Bytes(new Random(1L), 3, 4))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HostileInputs.textOfUtf8Bytes(new Random(1L), 10, 5))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void idsCoverEveryFamilyAndTellSafeFromUnsafe() {
        Random random = new Random(2L);
        Set<String> categories = new HashSet<>();
        boolean saw128 = false;
        boolean saw129 = false;
        for (int i = 0; i < 3000; i++) {
            HostileInputs.IdSample sample = HostileInputs.id(random, List.of("seed-0"));
            categories.add(sample.category());
            saw128 |= sample.value().length() == 128 && sample.safe();
            saw129 |= sample.value().length() == 129 && !sample.safe();
            if (sample.category().startsWith("safe") && !sample.category().equals("safe-129")) {
                assertThat(sample.safe()).as(sample.value()).isTrue();
            }
            if (List.of("control", "crlf", "glob-or-hash-tag", "bidi", "zero-width", "lone-surrogate", "look-alike",
                    "empty", "blank").contains(sample.category())) {
                assertThat(sample.safe()).as(sample.category()).isFalse();
            }
        }
        assertThat(categories).contains("empty", "blank", "safe-128", "safe-129", "control", "crlf",
                "glob-or-hash-tag", "bidi", "zero-width", "lone-surrogate", "look-alike", "safe", "safe-reused",
                "mixed", "safe-edge");
        assertThat(saw128).isTrue();
        assertThat(saw129).isTrue();
    }

    @Test
    void jsonSamplesCoverEveryFamilyAndNeverAllowAnInternalError() {
        Random random = new Random(3L);
        Set<String> categories = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            JsonInputs.JsonSample sample = JsonInputs.json(random, "MARK");
            categories.add(sample.category().replaceAll("-\\d+(-chars)?$", ""));
            assertThat(sample.allowed().codes()).doesNotContain(ErrorCode.INTERNAL_ERROR);
            assertThat(sample.allowed().accepted() || !sample.allowed().codes().isEmpty()).isTrue();
            if (sample.category().equals("nesting-10000")) {
                assertThat(sample.json().length()).isGreaterThan(10_000);
            }
        }
        assertThat(categories).contains("valid", "not-an-object", "trailing-content", "trailing-whitespace",
                "duplicate-keys", "nesting", "number-1001-digits", "number", "number-overflow", "number-underflow",
                "not-a-number", "escaped-lone-surrogate", "escaped-surrogate-pair", "raw-lone-surrogate", "bom",
                "raw-control-character", "mutation");
    }

    @Test
    void validObjectsCarryTheMarker() {
        Random random = new Random(4L);
        for (int i = 0; i < 100; i++) {
            assertThat(JsonInputs.validObject(random, "MARK")).startsWith("{\"q\":\"MARK\"").endsWith("}");
        }
    }

    @Test
    void safeIdRuleMatchesTheDomain() {
        assertThat(HostileInputs.isSafeId("a")).isTrue();
        assertThat(HostileInputs.isSafeId("a".repeat(128))).isTrue();
        assertThat(HostileInputs.isSafeId("a".repeat(129))).isFalse();
        assertThat(HostileInputs.isSafeId("")).isFalse();
        assertThat(HostileInputs.isSafeId("a{b}")).isFalse();
        assertThat(HostileInputs.isSafeId("call:1.2_3-4")).isTrue();
    }
}
