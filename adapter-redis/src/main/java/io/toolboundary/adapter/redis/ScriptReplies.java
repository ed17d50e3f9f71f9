package io.toolboundary.adapter.redis;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.RunToken;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Outcome;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The one place where the scripts' replies become results. Each reply is a list of strings: a
 * {@link ScriptReply} by its name, then (for some replies) the record's fields and values in pairs.
 * Each script's reader names every {@link ScriptReply}: its own, each with its meaning, and the other
 * scripts', which are not answers to it. An unknown reply, a reply of another script, fields where none
 * belong, or a record that does not decode is {@link ErrorCode#STORE_DATA_INVALID}.
 */
final class ScriptReplies {

    private ScriptReplies() {
    }

    /** Reads the reply of {@code open.lua}. */
    static Either<BoundaryError, RunToken> openRun(Object reply, RunToken offered) {
        return parse(reply).flatMap(parsed -> switch (parsed.reply()) {
            case OPENED -> parsed.noFields() ? Either.right(offered) : invalid();
            case RUN_OPEN -> parsed.fields().size() == 1 && parsed.fields().containsKey("token")
                    ? runToken(parsed.fields().get("token"))
                    : invalid();
            case RUN_INVALID -> refused(parsed, ErrorCode.STORE_DATA_INVALID);
            // Replies of the other scripts.
            case RUN_LOST, CREATED, ALREADY_CREATED, DUPLICATE, REUSED, RUN_BUDGET, TOOL_BUDGET, COUNTER_INVALID,
                    ATTEMPT_ENDED, RECORD_INVALID, APPLIED, ALREADY_APPLIED, CONFLICT, TOO_LARGE, RAW_LOST, NOT_FOUND, TOKEN_MISMATCH, ENDED, FINAL,
                    ABANDONED, ALREADY_ABANDONED, LEASE_ACTIVE, LEASE_INVALID -> invalid();
        });
    }

    private static Either<BoundaryError, Long> count(String value) {
        try {
            long count = Long.parseLong(value);
            return count > 0 ? Either.right(count) : invalid();
        } catch (NumberFormatException notANumber) {
            return invalid();
        }
    }

    private static Either<BoundaryError, RunToken> runToken(String value) {
        try {
            return Either.right(new RunToken(value));
        } catch (IllegalArgumentException notAToken) {
            return invalid();
        }
    }

    /** Reads the reply of {@code begin.lua}; tells {@code created} the run's calls when it created the record. */
    static Either<BoundaryError, CanonicalRecord.Projecting> begin(Object reply, CanonicalRecord.Projecting wanted,
            AttemptToken token, LongConsumer created) {
        return parse(reply).flatMap(parsed -> switch (parsed.reply()) {
            case CREATED -> parsed.fields().size() == 1 && parsed.fields().containsKey("calls")
                    ? count(parsed.fields().get("calls")).map(calls -> {
                        created.accept(calls);
                        return wanted;
                    })
                    : invalid();
            case ALREADY_CREATED -> RecordCodec.decode(wanted.key(), parsed.fields()).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Projecting projecting && stored.token().equals(token)
                            ? Either.right(projecting)
                            : invalid());
            case RUN_LOST -> refused(parsed, ErrorCode.RUN_STATE_LOST);
            case DUPLICATE -> refused(parsed, ErrorCode.DUPLICATE_TOOL_CALL);
            case REUSED -> refused(parsed, ErrorCode.TOOL_CALL_ID_REUSED);
            case RUN_BUDGET -> refused(parsed, ErrorCode.RUN_BUDGET_EXHAUSTED);
            case TOOL_BUDGET -> refused(parsed, ErrorCode.TOOL_BUDGET_EXHAUSTED);
            case COUNTER_INVALID -> refused(parsed, ErrorCode.STORE_DATA_INVALID);
            case ATTEMPT_ENDED -> refused(parsed, ErrorCode.RECORD_CONFLICT);
            case RECORD_INVALID -> refused(parsed, ErrorCode.STORE_DATA_INVALID);
            // Replies of the other scripts.
            case OPENED, RUN_OPEN, RUN_INVALID, APPLIED, ALREADY_APPLIED, CONFLICT, TOO_LARGE, RAW_LOST, NOT_FOUND, TOKEN_MISMATCH, ENDED, FINAL, ABANDONED,
                    ALREADY_ABANDONED, LEASE_ACTIVE, LEASE_INVALID -> invalid();
        });
    }

    /** Reads the reply of {@code complete.lua}: the stored outcome of the record under {@code key}. */
    static Either<BoundaryError, Outcome> complete(Object reply, InvocationKey key, Outcome wanted, AttemptToken token) {
        return parse(reply).flatMap(parsed -> switch (parsed.reply()) {
            case APPLIED -> parsed.noFields() ? Either.right(wanted) : invalid();
            case ALREADY_APPLIED -> RecordCodec.decode(key, parsed.fields()).flatMap(stored -> {
                if (!(stored.record() instanceof CanonicalRecord.Final done) || !stored.token().equals(token)) {
                    return invalid();
                }
                Outcome held = done.outcome();
                return held.equals(wanted) ? Either.right(held) : refused(ErrorCode.RECORD_CONFLICT);
            });
            case NOT_FOUND -> refused(parsed, ErrorCode.RECORD_EXPIRED);
            case TOKEN_MISMATCH, CONFLICT -> refused(parsed, ErrorCode.RECORD_CONFLICT);
            case TOO_LARGE -> refused(parsed, ErrorCode.RESULT_TOO_LARGE);
            // The raw response the tool returned was not kept: data lost, never a record without it.
            case RAW_LOST -> refused(parsed, ErrorCode.STORE_DATA_INVALID);
            // Replies of the other scripts.
            case OPENED, RUN_OPEN, RUN_INVALID, RUN_LOST, CREATED, ALREADY_CREATED, DUPLICATE, REUSED, RUN_BUDGET,
                    TOOL_BUDGET, COUNTER_INVALID, ATTEMPT_ENDED, RECORD_INVALID,
                    ENDED, FINAL, ABANDONED, ALREADY_ABANDONED, LEASE_ACTIVE, LEASE_INVALID -> invalid();
        });
    }

    /** Reads the reply of {@code abandon.lua}. */
    static Either<BoundaryError, CanonicalRecord.Failed> abandon(Object reply, InvocationKey key) {
        return parse(reply).flatMap(parsed -> switch (parsed.reply()) {
            case ABANDONED, ALREADY_ABANDONED -> RecordCodec.decode(key, parsed.fields()).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Failed failed
                            && failed.code() == ErrorCode.EXECUTION_ABANDONED
                            ? Either.right(failed)
                            : invalid());
            case NOT_FOUND -> refused(parsed, ErrorCode.RECORD_EXPIRED);
            case FINAL -> refused(parsed, ErrorCode.RECORD_CONFLICT);
            case LEASE_ACTIVE -> refused(parsed, ErrorCode.LEASE_NOT_EXPIRED);
            case LEASE_INVALID -> refused(parsed, ErrorCode.STORE_DATA_INVALID);
            // Replies of the other scripts.
            case OPENED, RUN_OPEN, RUN_INVALID, RUN_LOST, CREATED, ALREADY_CREATED, DUPLICATE, REUSED, RUN_BUDGET,
                    TOOL_BUDGET, COUNTER_INVALID, ATTEMPT_ENDED, RECORD_INVALID,
                    APPLIED, ALREADY_APPLIED, CONFLICT, TOO_LARGE, RAW_LOST, TOKEN_MISMATCH, ENDED -> invalid();
        });
    }

    /** Reads the reply of {@code end.lua}. */
    static Either<BoundaryError, CanonicalRecord.Final> end(Object reply, InvocationKey key, AttemptToken token) {
        return parse(reply).flatMap(parsed -> switch (parsed.reply()) {
            case ENDED, FINAL -> RecordCodec.decode(key, parsed.fields()).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Final done && stored.token().equals(token)
                            ? Either.right(done)
                            : invalid());
            case NOT_FOUND -> refused(parsed, ErrorCode.RECORD_EXPIRED);
            case TOKEN_MISMATCH -> refused(parsed, ErrorCode.RECORD_CONFLICT);
            // Replies of the other scripts.
            case OPENED, RUN_OPEN, RUN_INVALID, RUN_LOST, CREATED, ALREADY_CREATED, DUPLICATE, REUSED, RUN_BUDGET,
                    TOOL_BUDGET, COUNTER_INVALID, ATTEMPT_ENDED, RECORD_INVALID,
                    APPLIED, ALREADY_APPLIED, CONFLICT, TOO_LARGE, RAW_LOST, ABANDONED, ALREADY_ABANDONED, LEASE_ACTIVE, LEASE_INVALID
                    -> invalid();
        });
    }

    /** Reads the reply of {@code find.lua}: a hash, empty when there is no record. */
    static Either<BoundaryError, Option<CanonicalRecord>> find(Object reply, InvocationKey key) {
        if (!(reply instanceof List<?> items) || items.size() % 2 != 0) {
            return invalid();
        }
        if (items.isEmpty()) {
            return Either.right(Option.none());
        }
        return pairs(items, 0).flatMap(hash -> RecordCodec.decode(key, hash))
                .map(stored -> Option.of(stored.record()));
    }

    private static Either<BoundaryError, Parsed> parse(Object reply) {
        if (!(reply instanceof List<?> items) || items.isEmpty() || items.size() % 2 != 1
                || !(items.get(0) instanceof String outcome)) {
            return invalid();
        }
        Option<ScriptReply> known = ScriptReply.named(outcome);
        if (known.isEmpty()) {
            return invalid();
        }
        return pairs(items, 1).map(fields -> new Parsed(known.get(), fields));
    }

    private static Either<BoundaryError, Map<String, String>> pairs(List<?> items, int from) {
        Map<String, String> fields = new HashMap<>();
        for (int i = from; i < items.size(); i += 2) {
            if (!(items.get(i) instanceof String field) || !(items.get(i + 1) instanceof String value)
                    || fields.put(field, value) != null) {
                return invalid();
            }
        }
        return Either.right(fields);
    }

    private static <T> Either<BoundaryError, T> refused(ErrorCode code) {
        return Either.left(BoundaryError.of(code));
    }

    /** A reply that carries no fields refuses with {@code code}; with fields it is not a reply of the scripts. */
    private static <T> Either<BoundaryError, T> refused(Parsed parsed, ErrorCode code) {
        return parsed.noFields() ? refused(code) : invalid();
    }

    private static <T> Either<BoundaryError, T> invalid() {
        return refused(ErrorCode.STORE_DATA_INVALID);
    }

    private record Parsed(ScriptReply reply, Map<String, String> fields) {
        boolean noFields() {
            return fields.isEmpty();
        }
    }
}
