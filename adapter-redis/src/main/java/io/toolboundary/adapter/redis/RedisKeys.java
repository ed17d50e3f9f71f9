package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;

/**
 * The key layout. Every key of a run carries the run id as its hash tag, so that a script touching a
 * record and its run's state stays in one cluster slot.
 */
final class RedisKeys {

    private final String prefix;

    RedisKeys(String prefix) {
        this.prefix = requireNonNull(prefix, "prefix is null");
    }

    /** {@code <prefix>:{<runId>}:call:<toolCallId>}, the record hash. */
    String record(InvocationKey key) {
        return prefix + ":{" + key.runId().value() + "}:call:" + key.toolCallId().value();
    }

    /**
     * {@code <prefix>:{<runId>}:raw:<toolCallId>}, the record's raw response: a string that only
     * {@code complete.lua} creates, by renaming the attempt's {@link #pendingRaw} key, when it makes the
     * record final with a raw response. Read only when the record's outcome says it has one.
     */
    String raw(InvocationKey key) {
        return prefix + ":{" + key.runId().value() + "}:raw:" + key.toolCallId().value();
    }

    /** The {@link #raw} key of the record whose key is {@code recordKey}; none when it is not a record's key. */
    io.vavr.control.Option<String> rawOfRecordKey(String recordKey) {
        String start = prefix + ":{";
        int close = recordKey.indexOf("}:call:", start.length());
        return recordKey.startsWith(start) && close > start.length()
                ? io.vavr.control.Option.some(recordKey.substring(0, close) + "}:raw:"
                        + recordKey.substring(close + "}:call:".length()))
                : io.vavr.control.Option.none();
    }

    /**
     * {@code <prefix>:{<runId>}:pending:<token>:<toolCallId>}, the attempt's pending raw response: an empty
     * string {@code begin.lua} creates with the record and its TTL, into which the completion's
     * {@code SET ... XX KEEPTTL} writes. Never read as a record's raw response. Tokens hold no {@code :}, so
     * no two attempts share it, and {@code pending:} keeps it apart from every {@link #raw} key.
     */
    String pendingRaw(InvocationKey key, AttemptToken token) {
        return prefix + ":{" + key.runId().value() + "}:pending:" + token.value() + ":" + key.toolCallId().value();
    }

    /** {@code <prefix>:{<runId>}:run}, the run's state: its opening's token and its budget counters. */
    String runState(RunId runId) {
        return prefix + ":{" + runId.value() + "}:run";
    }

    /** {@code tool:<toolName>}, the field of the tool's budget counter in the run's state. */
    static String toolCounterField(ToolName tool) {
        return "tool:" + tool.value();
    }

    /** {@code call:<toolCallId>}, the call's field in the run's ledger, in the run's state. */
    static String ledgerField(ToolCallId toolCallId) {
        return "call:" + toolCallId.value();
    }

    /**
     * {@code <prefix>:{<runId>}:ended:<token>}: the mark {@code end.lua} leaves when it ends an attempt
     * whose record does not exist, so that a late copy of that attempt's begin creates nothing.
     */
    String endedAttempt(RunId runId, AttemptToken token) {
        return prefix + ":{" + runId.value() + "}:ended:" + token.value();
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
