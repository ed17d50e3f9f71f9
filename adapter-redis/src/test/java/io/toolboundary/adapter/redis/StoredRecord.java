package io.toolboundary.adapter.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a record from outside the store, for tests that look at Redis directly: the reply of
 * {@code GET <record>}, unpacked into the names of the record table (schema, status, token, createdAt,
 * evidence, errorCode, content).
 */
final class StoredRecord {

    private StoredRecord() {
    }

    /** The status of a record from {@code GET key}; null when there is no record. */
    static String status(Object value) {
        return unpack(value).get("status");
    }

    /** The token of a record from {@code GET key}; null when there is no record. */
    static String token(Object value) {
        return unpack(value).get("token");
    }

    /** The creation instant of a record from {@code GET key}, as stored; null when there is no record. */
    static String createdAt(Object value) {
        return unpack(value).get("createdAt");
    }

    /** The record's values by their names in the record table; empty when there is no record. */
    static Map<String, String> unpack(Object value) {
        Map<String, String> values = new HashMap<>();
        if (!(value instanceof String text)) {
            return values;
        }
        Map<String, Long> sizes = new HashMap<>();
        RecordCodec.facts(text, text, values, sizes);
        int newline = text.indexOf('\n');
        String[] head = text.substring(0, Math.max(newline, 0)).split("\\|", -1);
        if (head.length < 15) {
            return values;
        }
        values.put("token", head[2]);
        values.put("createdAt", head[4]);
        if (!"-".equals(head[11])) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            int at = text.substring(0, newline + 1).getBytes(StandardCharsets.UTF_8).length;
            for (int i = 8; i < 11; i++) {
                at += "-".equals(head[i]) ? 0 : Integer.parseInt(head[i]);
            }
            values.put("content", new String(Arrays.copyOfRange(bytes, at, at + Integer.parseInt(head[11])),
                    StandardCharsets.UTF_8));
        }
        return values;
    }
}
