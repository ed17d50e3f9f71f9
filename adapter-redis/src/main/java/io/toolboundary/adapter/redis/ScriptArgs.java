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
     * @param endedMark the attempt's end mark
     * @param pendingRaw the attempt's pending raw key
     * @param token the attempt token
     * @param fingerprint the request fingerprint
     * @param ttlMillis the record's TTL
     * @param runBudget the run's call budget
     * @param toolBudget the tool's call budget
     * @param leaseMillis the execution lease, from now by the server's clock
     * @param runToken the token the run was opened with, as the caller knows it
     * @param toolCounter the tool's counter field in the run's state
     * @param ledgerField the call's field in the run's ledger
     * @param callsSeen the most calls the caller has seen the run begin
     * @param headStart the record's head up to its lease ({@link RecordCodec#headStart})
     * @param headEnd the record's head after its lease ({@link RecordCodec#headEnd})
     * @param arguments the arguments
     */
    record Begin(String record, String runState, String endedMark, String pendingRaw, String token,
            String fingerprint, long ttlMillis, int runBudget, int toolBudget, long leaseMillis, String runToken,
            String toolCounter, String ledgerField, long callsSeen, String headStart, String headEnd,
            String arguments)
            implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record, runState, endedMark, pendingRaw);
        }

        @Override
        public List<Object> argv() {
            return List.of(token, fingerprint, Long.toString(ttlMillis), Integer.toString(runBudget),
                    Integer.toString(toolBudget), Long.toString(leaseMillis), runToken, toolCounter, ledgerField,
                    Long.toString(callsSeen), headStart, headEnd, arguments);
        }
    }

    /**
     * {@code complete.lua}.
     *
     * @param record the record's key
     * @param pendingRaw the attempt's pending raw key
     * @param raw the record's raw response key
     * @param token the attempt token
     * @param status the final status, {@code READY} or {@code ERROR}
     * @param room the bytes the record cap leaves for what begin wrote; none without a cap
     * @param rawBytes the raw response's length in UTF-8 bytes, which the {@code SET} before the script
     *     wrote into {@code pendingRaw}; none when the outcome has no raw response
     * @param outcome the value of the record's outcome field
     * @param detail the field written beside it ({@link RecordCodec#detail}): READY, the agent's content;
     *     ERROR, why it failed, when the record says
     */
    record Complete(String record, String pendingRaw, String raw, String token, String status, Option<Long> room,
            Option<Long> rawBytes, String outcome, Option<String> detail) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record, pendingRaw, raw);
        }

        @Override
        public List<Object> argv() {
            List<Object> argv = new ArrayList<>(6);
            argv.add(token);
            argv.add(status);
            argv.add(room.map(String::valueOf).getOrElse(""));
            argv.add(rawBytes.map(String::valueOf).getOrElse(""));
            argv.add(outcome);
            detail.forEach(argv::add);
            return argv;
        }
    }

    /**
     * {@code end.lua}.
     *
     * @param record the record's key
     * @param endedMark the attempt's end mark
     * @param pendingRaw the attempt's pending raw key
     * @param raw the record's raw response key
     * @param token the attempt token
     * @param markTtlMillis the end mark's TTL
     * @param outcome the value of the record's outcome field when it is ended
     */
    record End(String record, String endedMark, String pendingRaw, String raw, String token, long markTtlMillis,
            String outcome) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record, endedMark, pendingRaw, raw);
        }

        @Override
        public List<Object> argv() {
            return List.of(token, Long.toString(markTtlMillis), outcome);
        }
    }

    /**
     * {@code abandon.lua}.
     *
     * @param record the record's key
     * @param outcome the value of the record's outcome field when it is abandoned
     */
    record Abandon(String record, String outcome) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record);
        }

        @Override
        public List<Object> argv() {
            return List.of(outcome);
        }
    }

    /**
     * {@code find.lua}.
     *
     * @param record the record's key
     * @param raw the record's raw response key
     */
    record Find(String record, String raw) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(record, raw);
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
     * @param raw for a record's key, its raw response key
     */
    record Inspect(String key, Option<String> raw) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return raw.<List<Object>>map(rawKey -> List.of(key, rawKey)).getOrElse(List.of(key));
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
     * @param field the field rewritten with its own value
     */
    record Touch(String key, String field) implements ScriptArgs {
        @Override
        public List<Object> keys() {
            return List.of(key);
        }

        @Override
        public List<Object> argv() {
            return List.of(field);
        }
    }
}
