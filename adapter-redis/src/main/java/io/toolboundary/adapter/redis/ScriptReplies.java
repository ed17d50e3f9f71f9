package io.toolboundary.adapter.redis;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place where the scripts' replies become results. Each reply is a list of strings: the
 * outcome, then (for some outcomes) the record's fields and values in pairs. Anything else is
 * {@link ErrorCode#STORE_DATA_INVALID}.
 */
final class ScriptReplies {

    private ScriptReplies() {
    }

    /** Reads the reply of {@code begin.lua}. */
    static Either<BoundaryError, CanonicalRecord.Projecting> begin(Object reply, CanonicalRecord.Projecting wanted,
            AttemptToken token) {
        return parse(reply).flatMap(parsed -> switch (parsed.outcome()) {
            case "CREATED" -> parsed.noFields() ? Either.right(wanted) : invalid();
            case "ALREADY_CREATED" -> RecordCodec.decode(wanted.key(), parsed.fields()).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Projecting projecting && stored.token().equals(token)
                            ? Either.right(projecting)
                            : invalid());
            case "DUPLICATE" -> refused(ErrorCode.DUPLICATE_TOOL_CALL);
            case "REUSED" -> refused(ErrorCode.TOOL_CALL_ID_REUSED);
            case "RUN_BUDGET" -> refused(ErrorCode.RUN_BUDGET_EXHAUSTED);
            case "TOOL_BUDGET" -> refused(ErrorCode.TOOL_BUDGET_EXHAUSTED);
            default -> invalid();
        });
    }

    /** Reads the reply of {@code complete.lua}. */
    static Either<BoundaryError, CanonicalRecord.Final> complete(Object reply, CanonicalRecord.Final wanted,
            AttemptToken token) {
        return parse(reply).flatMap(parsed -> switch (parsed.outcome()) {
            case "APPLIED" -> parsed.noFields() ? Either.right(wanted) : invalid();
            case "ALREADY_APPLIED" -> RecordCodec.decode(wanted.key(), parsed.fields()).flatMap(stored -> {
                if (!(stored.record() instanceof CanonicalRecord.Final done) || !stored.token().equals(token)) {
                    return invalid();
                }
                return done.equals(wanted) ? Either.right(done) : refused(ErrorCode.RECORD_CONFLICT);
            });
            case "NOT_FOUND" -> refused(ErrorCode.RECORD_EXPIRED);
            case "TOKEN_MISMATCH", "CONFLICT" -> refused(ErrorCode.RECORD_CONFLICT);
            default -> invalid();
        });
    }

    /** Reads the reply of {@code abandon.lua}. */
    static Either<BoundaryError, CanonicalRecord.Failed> abandon(Object reply, InvocationKey key) {
        return parse(reply).flatMap(parsed -> switch (parsed.outcome()) {
            case "ABANDONED", "ALREADY_ABANDONED" -> RecordCodec.decode(key, parsed.fields()).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Failed failed
                            && failed.code() == ErrorCode.EXECUTION_ABANDONED
                            ? Either.right(failed)
                            : invalid());
            case "NOT_FOUND" -> refused(ErrorCode.RECORD_EXPIRED);
            case "FINAL" -> refused(ErrorCode.RECORD_CONFLICT);
            case "LEASE_ACTIVE" -> refused(ErrorCode.LEASE_NOT_EXPIRED);
            default -> invalid();
        });
    }

    /** Reads the reply of {@code end.lua}. */
    static Either<BoundaryError, CanonicalRecord.Final> end(Object reply, InvocationKey key, AttemptToken token) {
        return parse(reply).flatMap(parsed -> switch (parsed.outcome()) {
            case "ENDED", "FINAL" -> RecordCodec.decode(key, parsed.fields()).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Final done && stored.token().equals(token)
                            ? Either.right(done)
                            : invalid());
            case "NOT_FOUND" -> refused(ErrorCode.RECORD_EXPIRED);
            case "TOKEN_MISMATCH" -> refused(ErrorCode.RECORD_CONFLICT);
            default -> invalid();
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
        return pairs(items, 1).map(fields -> new Parsed(outcome, fields));
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

    private static <T> Either<BoundaryError, T> invalid() {
        return refused(ErrorCode.STORE_DATA_INVALID);
    }

    private record Parsed(String outcome, Map<String, String> fields) {
        boolean noFields() {
            return fields.isEmpty();
        }
    }
}
