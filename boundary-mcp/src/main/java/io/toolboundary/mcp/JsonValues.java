package io.toolboundary.mcp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP module's two JSON conversions, with jackson-core's streaming API: {@link #readObject} turns the
 * checked arguments into the SDK's map keeping member order and number digits ({@code 1.10} as a
 * {@link BigDecimal}, big integers as {@link BigInteger}); {@link #write} turns a decoded structured result
 * back into JSON, in the SDK's member order.
 */
final class JsonValues {

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private JsonValues() {
    }

    /** Reads one JSON object; {@link IllegalArgumentException} when the text is not exactly one. */
    static Map<String, Object> readObject(String json) {
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("the arguments are not one JSON object");
            }
            Map<String, Object> object = readObjectBody(parser);
            if (parser.nextToken() != null) {
                throw new IllegalArgumentException("the arguments have content after their JSON object");
            }
            return object;
        } catch (IOException e) {
            throw new IllegalArgumentException("the arguments are not valid JSON", e);
        }
    }

    private static Map<String, Object> readObjectBody(JsonParser parser) throws IOException {
        Map<String, Object> object = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            object.put(name, readValue(parser, parser.nextToken()));
        }
        return Collections.unmodifiableMap(object);
    }

    private static Object readValue(JsonParser parser, JsonToken token) throws IOException {
        switch (token) {
            case START_OBJECT:
                return readObjectBody(parser);
            case START_ARRAY: {
                List<Object> array = new ArrayList<>();
                for (JsonToken next = parser.nextToken(); next != JsonToken.END_ARRAY; next = parser.nextToken()) {
                    array.add(readValue(parser, next));
                }
                return Collections.unmodifiableList(array);
            }
            case VALUE_STRING:
                return parser.getText();
            case VALUE_NUMBER_INT:
                return parser.getNumberValue();
            case VALUE_NUMBER_FLOAT:
                return parser.getDecimalValue();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                // A JSON null member is kept as a null value in the map, as the SDK expects.
                return null;
            default:
                throw new IllegalArgumentException("unexpected JSON token " + token);
        }
    }

    /** Writes a decoded JSON value; {@link McpUnsupportedContentException} when it holds something not JSON. */
    static String write(Object value) throws McpUnsupportedContentException {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = JSON.createGenerator(out)) {
            writeValue(generator, value);
        } catch (IOException e) {
            throw new McpUnsupportedContentException("structured");
        }
        return out.toString();
    }

    private static void writeValue(JsonGenerator generator, Object value) throws IOException, McpUnsupportedContentException {
        if (value == null) {
            generator.writeNull();
        } else if (value instanceof String text) {
            generator.writeString(text);
        } else if (value instanceof Boolean bool) {
            generator.writeBoolean(bool);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            generator.writeNumber(((Number) value).longValue());
        } else if (value instanceof BigInteger big) {
            generator.writeNumber(big);
        } else if (value instanceof BigDecimal decimal) {
            generator.writeNumber(decimal);
        } else if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (!Double.isFinite(number)) {
                throw new McpUnsupportedContentException("structured");
            }
            generator.writeNumber(number);
        } else if (value instanceof Map<?, ?> map) {
            generator.writeStartObject();
            for (Map.Entry<?, ?> member : map.entrySet()) {
                if (!(member.getKey() instanceof String name)) {
                    throw new McpUnsupportedContentException("structured");
                }
                generator.writeFieldName(name);
                writeValue(generator, member.getValue());
            }
            generator.writeEndObject();
        } else if (value instanceof List<?> list) {
            generator.writeStartArray();
            for (Object element : list) {
                writeValue(generator, element);
            }
            generator.writeEndArray();
        } else {
            throw new McpUnsupportedContentException("structured");
        }
    }
}
