package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;

/**
 * The key layout. Every key of a run carries the run id as its hash tag, so that a script touching a
 * record and its run's state stays in one cluster slot. The outbox's two keys, written only when export is
 * on, belong to no run and have no TTL.
 */
final class RedisKeys {

    /** The consumer group of the outbox's exporters, created by the first poll. */
    static final String OUTBOX_GROUP = "exporters";

    private final String prefix;

    RedisKeys(String prefix) {
        this.prefix = requireNonNull(prefix, "prefix is null");
    }

    /** {@code <prefix>:{<runId>}:call:<toolCallId>}, the record: one string ({@link RecordCodec}). */
    String record(InvocationKey key) {
        return prefix + ":{" + key.runId().value() + "}:call:" + key.toolCallId().value();
    }

    /**
     * {@code <prefix>:{<runId>}:pending:<token>:<toolCallId>}, the attempt's pending key: an empty string
     * {@code begin.lua} creates just before the record, with the same TTL, into which the completion's
     * {@code SET ... XX KEEPTTL} writes the final record and which {@code complete.lua} renames over the
     * record. It exists only while the attempt's record is PROJECTING. Tokens hold no {@code :}, so no two
     * attempts share it.
     */
    String pending(InvocationKey key, AttemptToken token) {
        return prefix + ":{" + key.runId().value() + "}:pending:" + token.value() + ":" + key.toolCallId().value();
    }

    /** {@code <prefix>:{<runId>}:run}, the run's state: its opening's token, its budget counters, its ledger. */
    String runState(RunId runId) {
        return prefix + ":{" + runId.value() + "}:run";
    }

    /**
     * {@code <prefix>:outbox}, the outbox: a stream with one entry per record made final while export is
     * on, {@code r <runId> c <toolCallId>} (and {@code v <final record>} when it carries records), appended
     * by the script that made the record final and deleted when an exporter acknowledges it. No TTL, by
     * design: an entry must outlive its record's TTL until it is exported or counted as lost. Outside every
     * run's slot, which is why export is refused on Redis Cluster.
     */
    String outbox() {
        return prefix + ":outbox";
    }

    /**
     * {@code <prefix>:outbox:lost}, the outbox's lasting tally: a string counter of the entries acknowledged
     * as lost (their records were gone before export). No TTL, by design; created by the first such
     * acknowledgement.
     */
    String outboxLost() {
        return prefix + ":outbox:lost";
    }

    /** {@code t:<toolName>}, the field of the tool's budget counter in the run's state. */
    static String toolCounterField(ToolName tool) {
        return "t:" + tool.value();
    }

    /** {@code c:<toolCallId>}, the call's entry in the run's ledger: its packed request fingerprint. */
    static String ledgerField(ToolCallId toolCallId) {
        return "c:" + toolCallId.value();
    }

    /**
     * {@code e:<toolCallId>}, the call's end mark in the run's state: the token of an attempt
     * {@code end.lua} ended before its record existed, so that a late copy of its begin creates nothing.
     */
    static String endMarkField(ToolCallId toolCallId) {
        return "e:" + toolCallId.value();
    }

    /** {@code <prefix>:{<runId>}:call:}, the start of every record key of the run. */
    String recordsOf(RunId runId) {
        return run(runId) + ":call:";
    }

    /**
     * The SCAN {@code MATCH} pattern of every record key of the run: {@link #recordsOf} with the glob
     * characters {@code * ? [ ] \} escaped, then {@code *}. Prefixes and run ids hold none of them today
     * ({@code [A-Za-z0-9_.:-]}, and the braces, which glob does not treat specially), so this guards
     * against a later widening of either.
     */
    String recordPattern(RunId runId) {
        return globEscaped(recordsOf(runId)) + "*";
    }

    /** {@code literal} with each of {@code * ? [ ] \} preceded by a backslash, as Redis's glob reads it. */
    static String globEscaped(String literal) {
        StringBuilder escaped = new StringBuilder(literal.length() + 8);
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    /** {@code <prefix>:{<runId>}}, the start of every key of the run. */
    String run(RunId runId) {
        return prefix + ":{" + runId.value() + "}";
    }
}
