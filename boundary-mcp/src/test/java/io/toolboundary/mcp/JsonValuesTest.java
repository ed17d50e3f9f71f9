package io.toolboundary.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The arguments map the SDK is given, and the JSON written for structured content. */
class JsonValuesTest {

    @Test
    void keepsMemberOrderAndEveryNumbersDigits() {
        Map<String, Object> arguments = JsonValues.readObject(
                "{\"z\":1,\"a\":1.10,\"m\":12345678901,\"big\":123456789012345678901234567890,\"e\":2.50e3,\"x\":[true,null,\"s\"]}");

        assertThat(arguments.keySet()).containsExactly("z", "a", "m", "big", "e", "x");
        assertThat(arguments.get("z")).isEqualTo(1);
        assertThat(arguments.get("a")).isEqualTo(new BigDecimal("1.10"));
        assertThat(arguments.get("m")).isEqualTo(12345678901L);
        assertThat(arguments.get("big")).isEqualTo(new BigInteger("123456789012345678901234567890"));
        assertThat(arguments.get("e")).isEqualTo(new BigDecimal("2.50e3"));
        assertThat(arguments.get("x")).isEqualTo(Arrays.asList(true, null, "s"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"query\":\"timeout\",\"limit\":20}",
        "{\"ratio\":1.10,\"nested\":{\"a\":[1,2.0,-0.5],\"b\":null},\"ünï\":\"𝄞 \\\"q\\\"\"}",
        "{}"
    })
    void writesBackWhatItReadWhenTheTextHasNoExponentNorExtraWhitespace(String json) throws Exception {
        assertThat(JsonValues.write(JsonValues.readObject(json))).isEqualTo(json);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1]", "\"text\"", "{} {}", "{\"a\":1", "{\"a\":1,\"a\":2}", ""})
    void refusesAnythingButOneJsonObject(String json) {
        assertThatIllegalArgumentException().isThrownBy(() -> JsonValues.readObject(json));
    }

    @Test
    void refusesStructuredContentThatIsNotJson() {
        Map<Object, Object> numberKey = new LinkedHashMap<>();
        numberKey.put(1, "one");

        assertThatThrownBy(() -> JsonValues.write(numberKey)).isInstanceOf(McpUnsupportedContentException.class);
        assertThatThrownBy(() -> JsonValues.write(Map.of("nan", Double.NaN))).isInstanceOf(McpUnsupportedContentException.class);
        assertThatThrownBy(() -> JsonValues.write(Arrays.asList(new Object())))
                .isInstanceOf(McpUnsupportedContentException.class)
                .hasMessageNotContaining("java.lang.Object");
    }
}
