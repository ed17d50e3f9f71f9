package io.toolboundary.adapter.redis;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a record's packed values from outside the store, for tests that look at Redis directly: the
 * reply of {@code HMGET <record> h o} ({@link #HEAD_AND_OUTCOME}), or a whole hash, unpacked into the
 * names of the record table (status, token, createdAt, evidence, errorCode, content).
 */
final class StoredRecord {

    private StoredRecord() {
    }

    /** The status of a record from {@code HMGET key h o}; null when there is no record. */
    static String status(Object headAndOutcome) {
        return unpack(pair(headAndOutcome)).get("status");
    }

    /** The token of a record from {@code HMGET key h o}; null when there is no record. */
    static String token(Object headAndOutcome) {
        return unpack(pair(headAndOutcome)).get("token");
    }

    /** The creation instant of a record from {@code HMGET key h o}; null when there is no record. */
    static String createdAt(Object headAndOutcome) {
        return unpack(pair(headAndOutcome)).get("createdAt");
    }

    /** The record's values by their names in the record table; empty when the hash is empty. */
    static Map<String, String> unpack(Map<String, String> hash) {
        Map<String, String> values = new HashMap<>();
        String head = hash.get(RecordCodec.HEAD);
        if (head != null) {
            String[] parts = head.split("\\|", 6);
            values.put("schema", parts[0]);
            values.put("token", parts.length > 1 ? parts[1] : "");
            values.put("leaseUntil", parts.length > 2 ? parts[2] : "");
            values.put("createdAt", parts.length > 3 ? parts[3] : "");
            values.put("status", "PROJECTING");
        }
        String outcome = hash.get(RecordCodec.OUTCOME);
        if (outcome != null) {
            String[] parts = outcome.split("\\|", 5);
            values.put("status", parts[0]);
            if ("ERROR".equals(parts[0])) {
                values.put("evidence", "ERROR");
                values.put("errorCode", parts[2]);
            } else {
                values.put("evidence", parts[2]);
            }
        }
        if (hash.containsKey(RecordCodec.CONTENT)) {
            values.put("content", hash.get(RecordCodec.CONTENT));
        }
        return values;
    }

    private static Map<String, String> pair(Object headAndOutcome) {
        Map<String, String> hash = new HashMap<>();
        List<?> values = (List<?>) headAndOutcome;
        if (values.get(0) instanceof String head) {
            hash.put(RecordCodec.HEAD, head);
        }
        if (values.get(1) instanceof String outcome) {
            hash.put(RecordCodec.OUTCOME, outcome);
        }
        return hash;
    }
}
