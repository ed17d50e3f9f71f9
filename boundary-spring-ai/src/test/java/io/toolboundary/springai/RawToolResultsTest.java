package io.toolboundary.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.ToolExecutor;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.function.FunctionToolCallback;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;

/** The raw response of each kind of Spring AI tool callback, as {@link ToolCallbackBindings#executor} runs it. */
class RawToolResultsTest {

    static final String TEXT = "line 1 \"quoted\"\nline 2 \\ größe\n";

    /** Tools of every return shape. */
    public static class Shapes {
        final List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Tool(name = "text", description = "returns text")
        public String text() {
            return TEXT;
        }

        @Tool(name = "nothing", description = "returns nothing")
        public void nothing() {
            ran.add("nothing");
        }

        @Tool(name = "absent", description = "returns null")
        public String absent() {
            return null;
        }

        @Tool(name = "rows", description = "returns rows")
        public List<Row> rows() {
            return List.of(new Row("checkout", 3));
        }

        @Tool(name = "incident", description = "returns an incident")
        public Incident incident() {
            Map<String, Integer> counts = new LinkedHashMap<>();
            counts.put("INFO", 2);
            counts.put("ERROR", 1);
            return new Incident("checkout", Instant.parse("2026-01-01T10:00:02.5Z"), Duration.ofMillis(3000),
                    Optional.of("payments"), Optional.empty(), LocalDate.of(2026, 1, 1), counts, Severity.MAJOR,
                    new BigDecimal("0.10"), 1.5, List.of("timeout"), new Empty());
        }
    }

    /** A result of many kinds of value, among them those a framework's mapper writes in its own way. */
    public record Incident(String service, Instant at, Duration took, Optional<String> owner, Optional<String> ticket,
            LocalDate day, Map<String, Integer> counts, Severity severity, BigDecimal ratio, double load,
            List<String> tags, Empty extra) {
    }

    /** A severity. */
    public enum Severity { MAJOR }

    /** A value without properties. */
    public static final class Empty {
    }

    /** A row. */
    public record Row(String service, int errors) {
    }

    private final Shapes shapes = new Shapes();
    private final ToolCallback[] callbacks = MethodToolCallbackProvider.builder().toolObjects(shapes).build()
            .getToolCallbacks();

    private String raw(ToolCallback callback) throws Exception {
        ToolExecutor executor = ToolCallbackBindings.executor(callback);
        return executor.execute(new ToolRequest(InvocationKey.of(new RunId("run-1"), new ToolCallId("call_1")),
                new ToolName(callback.getToolDefinition().name()), "{}"));
    }

    private ToolCallback named(String name) {
        return List.of(callbacks).stream().filter(c -> c.getToolDefinition().name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aMethodsStringIsTheRawResponseExactly() throws Exception {
        assertThat(named("text").call("{}")).isNotEqualTo(TEXT);   // what Spring AI's own converter makes of it
        assertThat(raw(named("text"))).isEqualTo(TEXT);
    }

    @Test
    void voidAndNullAreTheEmptyText() throws Exception {
        assertThat(raw(named("nothing"))).isEmpty();
        assertThat(shapes.ran).containsExactly("nothing");
        assertThat(raw(named("absent"))).isEmpty();
    }

    @Test
    void anyOtherResultIsJsonOnce() throws Exception {
        assertThat(raw(named("rows"))).isEqualTo("[{\"service\":\"checkout\",\"errors\":3}]");
    }

    /**
     * The boundary's own JSON: the same bytes on Spring AI 1.1 and 2.0 (this test runs on both lines), where
     * Spring AI's mapper wrote an {@code Instant} as a number on 1.1 and as text on 2.0.
     */
    @Test
    void aNonStringResultIsTheSameJsonOnEverySpringLine() throws Exception {
        assertThat(raw(named("incident"))).isEqualTo("{\"service\":\"checkout\",\"at\":\"2026-01-01T10:00:02.500Z\","
                + "\"took\":\"PT3S\",\"owner\":\"payments\",\"ticket\":null,\"day\":\"2026-01-01\","
                + "\"counts\":{\"INFO\":2,\"ERROR\":1},\"severity\":\"MAJOR\",\"ratio\":0.10,\"load\":1.5,"
                + "\"tags\":[\"timeout\"],\"extra\":{}}");
        ToolCallback instant = FunctionToolCallback.builder("at", (Function<Query, Instant>) query -> Instant.EPOCH)
                .description("a function").inputType(Query.class).build();
        assertThat(raw(instant)).isEqualTo("\"1970-01-01T00:00:00Z\"");
    }

    @Test
    void aFunctionsStringIsTheRawResponseExactly() throws Exception {
        ToolCallback function = FunctionToolCallback.builder("fn", (Function<Query, String>) query -> TEXT + query.q())
                .description("a function").inputType(Query.class).build();

        assertThat(raw(function)).isEqualTo(TEXT + "null");
    }

    @Test
    void anyOtherCallbackIsCalledAsItIs() throws Exception {
        LogSearchCallback plain = new LogSearchCallback();

        assertThat(raw(plain)).isEqualTo(plain.call("{}"));
    }

    /** A function's input. */
    public record Query(String q) {
    }
}
