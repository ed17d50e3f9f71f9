package io.toolboundary.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.toolboundary.domain.CanonicalRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A whole record as {@code show} prints it, field by field, raw response included, and as one JSON object
 * for machines ({@code show --json}, {@code audit --json}).
 */
final class RecordFields {

    private RecordFields() {
    }

    /**
     * {@return the record's fields in print order, with {@code facts} (where the record rests: TTL, memory,
     * raw response policy) after its instants}
     */
    static Map<String, Object> of(CanonicalRecord record, Map<String, Object> facts) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("runId", record.key().runId().value());
        fields.put("toolCallId", record.key().toolCallId().value());
        fields.put("tool", record.tool().value());
        fields.put("status", record.status().name());
        record.evidence().forEach(evidence -> fields.put("evidence", evidence.name()));
        record.errorCode().forEach(code -> fields.put("errorCode", code.name()));
        record.failureType().forEach(type -> fields.put("failureType", type));
        record.failureMessage().forEach(message -> fields.put("failureMessage", message));
        fields.put("createdAt", record.createdAt().toString());
        if (record instanceof CanonicalRecord.Final done) {
            fields.put("updatedAt", done.updatedAt().toString());
        }
        fields.putAll(facts);
        fields.put("requestFingerprint", record.requestFingerprint());
        fields.put("arguments", record.arguments());
        record.rawResponse().forEach(raw -> fields.put("rawResponse", raw));
        record.agentResult().forEach(result -> {
            fields.put("content", result.content());
            result.scope().forEach(scope -> fields.put("scope", scope));
        });
        return fields;
    }

    /** Prints {@code fields} one a line, {@code name: value}. */
    static void print(PrintWriter out, Map<String, Object> fields) {
        fields.forEach((name, value) -> out.printf("%-16s %s%n", name + ":", value));
    }

    /** {@return {@code fields} as one JSON object on one line; numbers stay numbers} */
    static String json(Map<String, Object> fields) {
        StringWriter text = new StringWriter();
        try (JsonGenerator generator = new JsonFactory().createGenerator(text)) {
            generator.writeStartObject();
            for (Map.Entry<String, Object> field : fields.entrySet()) {
                if (field.getValue() instanceof Long number) {
                    generator.writeNumberField(field.getKey(), number);
                } else {
                    generator.writeStringField(field.getKey(), String.valueOf(field.getValue()));
                }
            }
            generator.writeEndObject();
        } catch (IOException cannot) {
            throw new UncheckedIOException(cannot);
        }
        return text.toString();
    }
}
