package io.toolboundary.adapter.redis;

import io.vavr.control.Option;
import java.util.ArrayList;
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
     * What a script that makes a record final appends to the outbox when export is on: its {@code KEYS}
     * end with the outbox, its {@code ARGV} with the run id, the tool_call_id and {@code 1} when the entry
     * carries the final record ({@code 0} when it does not). Without it, the script sends no more commands
     * than it would without an outbox.
     *
     * @param outbox the outbox stream
     * @param runId the record's run id
     * @param toolCallId the record's tool_call_id
     * @param carry whether the entry carries the final record
     */
    record Export(String outbox, String runId, String toolCallId, boolean carry) {

        /** {@code keys}, with the outbox's key after them when there is one. */
        static List<Object> keys(List<Object> keys, Option<Export> export) {
            return export.isEmpty() ? keys : append(keys, List.of(export.get().outbox()));
        }

        /** {@code argv}, with the outbox's arguments after it when there is one. */
        static List<Object> argv(List<Object> argv, Option<Export> export) {
            return export.isEmpty() ? argv : append(argv, List.of(export.get().runId(), export.get().toolCallId(),
                    export.get().carry() ? "1" : "0"));
        }

        private static List<Object> append(List<Object> first, List<Object> then) {
            List<Object> all = new ArrayList<>(first.size() + then.size());
            all.addAll(first);
            all.addAll(then);
            return List.copyOf(all);
        }
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
     * @param export the outbox entry to append when the record becomes final, when export is on
     */
    record Complete(String record, String pending, String token, int length, Option<Export> export)
            implements ScriptArgs {

        /** Without an outbox. */
        Complete(String record, String pending, String token, int length) {
            this(record, pending, token, length, Option.none());
        }

        @Override
        public List<Object> keys() {
            return Export.keys(List.of(record, pending), export);
        }

        @Override
        public List<Object> argv() {
            return Export.argv(List.of(token, Integer.toString(length)), export);
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
     * @param export the outbox entry to append when the record becomes final, when export is on
     */
    record End(String record, String runState, String pending, String token, String endMarkField, String outcome,
            Option<Export> export) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return Export.keys(List.of(record, runState, pending), export);
        }

        @Override
        public List<Object> argv() {
            return Export.argv(List.of(token, endMarkField, outcome), export);
        }
    }

    /**
     * {@code abandon.lua}.
     *
     * @param record the record's key
     * @param pending the pending key of the attempt whose record was read
     * @param token that attempt's token
     * @param outcome what the ERROR record holds where a PROJECTING one holds {@code |||}
     * @param export the outbox entry to append when the record becomes final, when export is on
     */
    record Abandon(String record, String pending, String token, String outcome, Option<Export> export)
            implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return Export.keys(List.of(record, pending), export);
        }

        @Override
        public List<Object> argv() {
            return Export.argv(List.of(token, outcome), export);
        }
    }

    /**
     * {@code poll.lua}.
     *
     * @param outbox the outbox stream
     * @param group the exporters' consumer group
     * @param consumer the polling exporter's name
     * @param claimIdleMillis how long, in milliseconds, a delivered entry must have stayed unacknowledged to
     *     be delivered again
     * @param max the most entries to take
     */
    record Poll(String outbox, String group, String consumer, long claimIdleMillis, int max) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(outbox);
        }

        @Override
        public List<Object> argv() {
            return List.of(group, consumer, Long.toString(claimIdleMillis), Integer.toString(max));
        }
    }

    /**
     * {@code acknowledge.lua}.
     *
     * @param outbox the outbox stream
     * @param lostTally the outbox's tally of lost records
     * @param group the exporters' consumer group
     * @param lost the ids of the entries whose records were lost, each once
     * @param exported the ids of the other entries, each once and none of {@code lost}
     */
    record Acknowledge(String outbox, String lostTally, String group, List<String> lost, List<String> exported)
            implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(outbox, lostTally);
        }

        @Override
        public List<Object> argv() {
            List<Object> argv = new ArrayList<>(2 + lost.size() + exported.size());
            argv.add(group);
            argv.add(Integer.toString(lost.size()));
            argv.addAll(lost);
            argv.addAll(exported);
            return argv;
        }
    }

    /**
     * {@code backlog.lua}.
     *
     * @param outbox the outbox stream
     * @param lostTally the outbox's tally of lost records
     */
    record Backlog(String outbox, String lostTally) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(outbox, lostTally);
        }

        @Override
        public List<Object> argv() {
            return List.of();
        }
    }

    /**
     * {@code findall.lua} and {@code referencability.lua}.
     *
     * @param records the records' keys, all of one run
     */
    record FindAll(List<String> records) implements ScriptArgs {
        /**
         * @param records the records' keys, all of one run
         */
        public FindAll {
            records = List.copyOf(records);
        }

        @Override
        public List<Object> keys() {
            return List.copyOf(records);
        }

        @Override
        public List<Object> argv() {
            return List.of();
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
