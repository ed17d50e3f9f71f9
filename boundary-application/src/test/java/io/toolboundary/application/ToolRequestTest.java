package io.toolboundary.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ToolRequestTest {

    private static final InvocationKey KEY = InvocationKey.of(new RunId("run-1"), new ToolCallId("call-1"));
    private static final ToolName TOOL = new ToolName("search");

    private static ToolRequest request(String arguments) {
        return new ToolRequest(KEY, TOOL, arguments);
    }

    @Test
    void keepsKeyToolAndArgumentsAsGiven() {
        String arguments = "{\"q\": \"checkout\" }";

        ToolRequest request = request(arguments);

        assertThat(request.key()).isEqualTo(KEY);
        assertThat(request.tool()).isEqualTo(TOOL);
        assertThat(request.arguments()).isSameAs(arguments);
    }

    @Test
    void parsesNestedObjectsAndArrays() {
        ObjectNode json = request("{\"filter\":{\"service\":\"checkout\",\"levels\":[\"warn\",\"error\"]},"
                + "\"windows\":[[1,2],{\"from\":\"10:00\"}],\"empty\":{},\"none\":null,\"on\":true}").json();

        assertThat(json.get("filter").get("service").asText()).isEqualTo("checkout");
        assertThat(json.get("filter").get("levels").isArray()).isTrue();
        assertThat(json.get("filter").get("levels").get(1).asText()).isEqualTo("error");
        assertThat(json.get("windows").get(0).get(1).asInt()).isEqualTo(2);
        assertThat(json.get("windows").get(1).get("from").asText()).isEqualTo("10:00");
        assertThat(json.get("empty").isObject()).isTrue();
        assertThat(json.get("empty").size()).isZero();
        assertThat(json.get("none").isNull()).isTrue();
        assertThat(json.get("on").booleanValue()).isTrue();
        assertThat(json.size()).isEqualTo(5);
    }

    @Test
    void parsesUnicodeIncludingFourByteCharactersAndEscapes() {
        ObjectNode json = request("{\"q\":\"caf\u00e9 \u20ac \ud83d\ude00\",\"escaped\":\"\\u00e9\\ud83d\\ude00\","
                + "\"\ud83d\udd0d\":\"key\"}").json();

        assertThat(json.get("q").asText()).isEqualTo("caf\u00e9 \u20ac \ud83d\ude00");
        assertThat(json.get("q").asText().codePointCount(0, json.get("q").asText().length())).isEqualTo(8);
        assertThat(json.get("escaped").asText()).isEqualTo("\u00e9\ud83d\ude00");
        assertThat(json.get("\ud83d\udd0d").asText()).isEqualTo("key");
    }

    @Test
    void keepsNumbersWithAFractionOrExponentExactAsBigDecimal() {
        ObjectNode json = request("{\"price\":0.1,\"long\":3.141592653589793238462643383279502884197,"
                + "\"exp\":1.5e-400,\"negative\":-0.000000000000000000017}").json();

        assertThat(json.get("price").isBigDecimal()).isTrue();
        assertThat(json.get("price").decimalValue()).isEqualTo(new BigDecimal("0.1"));
        assertThat(json.get("long").decimalValue())
                .isEqualTo(new BigDecimal("3.141592653589793238462643383279502884197"));
        assertThat(json.get("exp").decimalValue()).isEqualTo(new BigDecimal("1.5e-400"));
        assertThat(json.get("negative").decimalValue()).isEqualTo(new BigDecimal("-0.000000000000000000017"));
    }

    @Test
    void keepsBigIntegersExact() {
        ObjectNode json = request("{\"big\":123456789012345678901234567890,\"small\":7,"
                + "\"long\":9223372036854775807,\"beyond\":-9223372036854775809}").json();

        assertThat(json.get("big").bigIntegerValue()).isEqualTo(new BigInteger("123456789012345678901234567890"));
        assertThat(json.get("small").intValue()).isEqualTo(7);
        assertThat(json.get("long").longValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(json.get("beyond").bigIntegerValue()).isEqualTo(new BigInteger("-9223372036854775809"));
    }

    @Test
    void parsesOnceAndAnswersTheSameTree() {
        ToolRequest request = request("{\"q\":\"checkout\"}");

        ObjectNode first = request.json();

        assertThat(request.json()).isSameAs(first);
    }

    @Test
    void twoThreadsAskingAtOnceSeeTheSameTree() throws Exception {
        for (int round = 0; round < 50; round++) {
            ToolRequest request = request("{\"q\":\"checkout\",\"n\":[1,2,3],\"deep\":{\"a\":{\"b\":0.5}}}");
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                Future<ObjectNode> one = threads.submit(() -> {
                    start.await();
                    return request.json();
                });
                Future<ObjectNode> two = threads.submit(() -> {
                    start.await();
                    return request.json();
                });
                start.countDown();

                ObjectNode first = one.get(10, TimeUnit.SECONDS);
                ObjectNode second = two.get(10, TimeUnit.SECONDS);
                assertThat(second).as("round %d", round).isSameAs(first);
                assertThat(request.json()).isSameAs(first);
            } finally {
                threads.shutdownNow();
            }
        }
    }

    @Test
    void isEqualOverKeyToolAndArguments() {
        ToolRequest request = request("{\"q\":1}");

        assertThat(request).isEqualTo(request("{\"q\":1}")).hasSameHashCodeAs(request("{\"q\":1}"));
        assertThat(request).isNotEqualTo(request("{\"q\": 1}"));
        assertThat(request).isNotEqualTo(new ToolRequest(KEY, new ToolName("other"), "{\"q\":1}"));
        assertThat(request).isNotEqualTo(new ToolRequest(
                InvocationKey.of(new RunId("run-1"), new ToolCallId("call-2")), TOOL, "{\"q\":1}"));
        assertThat(request).isNotEqualTo(new ToolRequest(
                InvocationKey.of(new RunId("run-2"), new ToolCallId("call-1")), TOOL, "{\"q\":1}"));
        assertThat(request).isNotEqualTo(null).isNotEqualTo("{\"q\":1}");
    }

    @Test
    void equalityIgnoresWhetherTheTreeWasParsed() {
        ToolRequest parsed = request("{\"q\":1}");
        parsed.json();

        assertThat(parsed).isEqualTo(request("{\"q\":1}")).hasSameHashCodeAs(request("{\"q\":1}"));
    }

    @Test
    void toStringShowsNoArguments() {
        ToolRequest request = request("{\"secret\":\"hunter2\"}");

        assertThat(request.toString()).doesNotContain("hunter2").doesNotContain("secret")
                .contains("call-1").contains("search");
        request.json();
        assertThat(request.toString()).doesNotContain("hunter2").doesNotContain("secret");
    }

    @ParameterizedTest
    @ValueSource(strings = {"[\"hunter2\"]", "\"hunter2\"", "42", "null", "", "{\"hunter2\":", "{\"a\":\"hunter2\"}{}",
        "{\"a\":\"hunter2\"} trailing", "hunter2"})
    void refusesTextThatIsNotOneJsonObjectWithoutEchoingIt(String arguments) {
        ToolRequest request = request(arguments);

        assertThatIllegalArgumentException().isThrownBy(request::json)
                .withMessage("the arguments are not one JSON object")
                .withMessageNotContaining("hunter2")
                .withNoCause();
    }

    @Test
    void refusesNullParts() {
        assertThatNullPointerException().isThrownBy(() -> new ToolRequest(null, TOOL, "{}")).withMessage("key is null");
        assertThatNullPointerException().isThrownBy(() -> new ToolRequest(KEY, null, "{}")).withMessage("tool is null");
        assertThatNullPointerException().isThrownBy(() -> new ToolRequest(KEY, TOOL, null))
                .withMessage("arguments is null");
    }

    @Test
    void anEmptyObjectIsAnEmptyTree() {
        JsonNode json = request("{}").json();

        assertThat(json.isObject()).isTrue();
        assertThat(json.size()).isZero();
    }
}
