package io.toolboundary.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The boundary's own JSON of a tool result that is not a {@code String}: the same bytes on every Spring AI and
 * Spring Boot line, from a Jackson 2 mapper set up here (declaration order, {@code java.time} as ISO-8601,
 * {@code Optional} as its value or {@code null}, an empty bean as {@code {}}). Jackson 3's own databind
 * annotations are not honoured.
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
