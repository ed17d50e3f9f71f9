package io.toolboundary.adapter.redis;

import java.util.List;

/**
 * The keys and arguments of one script call, by name: one record per script of {@link LuaScripts}, each
 * building the script's {@code KEYS} and {@code ARGV} in the order its header documents. The first key
 * routes the call (on Redis Cluster, its slot's master runs the script).
 */
sealed interface ScriptArgs {

    /** {@code KEYS}, in order. */
    List<Object> keys();

    /** {@code ARGV}, in order. */
    List<Object> argv();

    /** The key that routes the call: the first of {@link #keys()}. */
    default String routingKey() {
        return (String) keys().get(0);
    }

    /**
     * {@code open.lua}.
     *
     * @param runState the run's state
     * @param token the token to open the run with
     * @param ttlMillis the state's TTL
     */
    record Open(String runState, String token, long ttlMillis) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(runState);
        }

        @Override
        public List<Object> argv() {
            return List.of(token, Long.toString(ttlMillis));
        }
    }

    /**
     * {@code begin.lua}.
     *
     * @param record the record's key
     * @param runState the run's state
     * @param pending the attempt's pending key
     * @param token the attempt token
     * @param fingerprint the packed request fingerprint ({@link RecordCodec#packedFingerprint})
     * @param ttlMillis the record's TTL
     * @param runBudget the run's call budget
     * @param toolBudget the tool's call budget
     * @param runToken the token the run was opened with, as the caller knows it
     * @param toolCounter the tool's counter field in the run's state
     * @param ledgerField the call's field in the run's ledger
     * @param endMarkField the call's end mark field in the run's state
     * @param callsSeen the most calls the caller has seen the run begin
     * @param value the PROJECTING record ({@link RecordCodec#projecting})
     */
    record Begin(String record, String runState, String pending, String token, String fingerprint, long ttlMillis,
            int runBudget, int toolBudget, String runToken, String toolCounter, String ledgerField,
            String endMarkField, long callsSeen, byte[] value) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record, runState, pending);
        }

        @Override
        public List<Object> argv() {
            return List.of(token, fingerprint, Long.toString(ttlMillis), Integer.toString(runBudget),
                    Integer.toString(toolBudget), runToken, toolCounter, ledgerField, endMarkField,
                    Long.toString(callsSeen), value);
        }
    }

    /**
     * {@code complete.lua}.
     *
     * @param record the record's key
     * @param pending the attempt's pending key
     * @param token the attempt token
     * @param length the final record's length in bytes, which the {@code SET} before the script wrote into
     *     {@code pending}
     */
    record Complete(String record, String pending, String token, int length) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record, pending);
        }

        @Override
        public List<Object> argv() {
            return List.of(token, Integer.toString(length));
        }
    }

    /**
     * {@code end.lua}.
     *
     * @param record the record's key
     * @param runState the run's state
     * @param pending the attempt's pending key
     * @param token the attempt token
     * @param endMarkField the call's end mark field in the run's state
     * @param outcome what the ERROR record holds where a PROJECTING one holds {@code |||}
     *     ({@link RecordCodec#endedOutcome})
     */
    record End(String record, String runState, String pending, String token, String endMarkField, String outcome)
            implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record, runState, pending);
        }

        @Override
        public List<Object> argv() {
            return List.of(token, endMarkField, outcome);
        }
    }

    /**
     * {@code abandon.lua}.
     *
     * @param record the record's key
     * @param pending the pending key of the attempt whose record was read
     * @param token that attempt's token
     * @param outcome what the ERROR record holds where a PROJECTING one holds {@code |||}
     */
    record Abandon(String record, String pending, String token, String outcome) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record, pending);
        }

        @Override
        public List<Object> argv() {
            return List.of(token, outcome);
        }
    }

    /**
     * {@code find.lua}.
     *
     * @param record the record's key
     */
    record Find(String record) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record);
        }

        @Override
        public List<Object> argv() {
            return List.of();
        }
    }

    /**
     * {@code scan.lua}.
     *
     * @param routing a key of the slot whose master is walked (not read)
     * @param cursor the SCAN cursor, {@code 0} to start
     * @param pattern the MATCH pattern
     * @param count the COUNT hint
     */
    record Scan(String routing, String cursor, String pattern, int count) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(routing);
        }

        @Override
        public List<Object> argv() {
            return List.of(cursor, pattern, Integer.toString(count));
        }
    }

    /**
     * {@code inspect.lua}.
     *
     * @param key the key
     */
    record Inspect(String key) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(key);
        }

        @Override
        public List<Object> argv() {
            return List.of();
        }
    }

    /**
     * {@code touch.lua}.
     *
     * @param key a record or a run's state
     */
    record Touch(String key) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(key);
        }

        @Override
        public List<Object> argv() {
            return List.of();
        }
    }
}
