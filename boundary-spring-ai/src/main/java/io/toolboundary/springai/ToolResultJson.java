package io.toolboundary.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The boundary's own JSON of a tool result that is not a {@code String}: the same bytes whatever Spring AI
 * or Spring Boot line the application runs, because neither framework's mapper is used.
 *
 * <p>Jackson 2 ({@code com.fasterxml.jackson}), set up here once and never taken from the application:
 * properties in declaration order (a record's in component order), maps in their own iteration order,
 * {@code java.time} values as ISO-8601 strings ({@code Instant} {@code "2026-01-01T10:00:00Z"}, {@code Duration}
 * {@code "PT3S"}), {@code Optional} as its value or {@code null}, an object without properties as {@code {}}.
 * Jackson annotations of {@code com.fasterxml.jackson.annotation} (which Jackson 3 shares) are honoured;
 * Jackson 3's own databind annotations ({@code tools.jackson}) are not.
 */
final class ToolResultJson {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .build();

    private ToolResultJson() {
    }

    /** {@code value} as JSON text. */
    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException unwritable) {
            throw new IllegalStateException("the tool result of type " + value.getClass().getName()
                    + " cannot be written as JSON", unwritable);
        }
    }
}
