package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The replies of the store's scripts, one enum per script, and the one place where they become
 * results. A reply is a list of strings: one of its script's replies by name, then (for some replies)
 * the record's fields and values in pairs. An unknown reply, a reply of another script, fields where
 * none belong, or a record that does not decode is {@link StoreFailure#dataInvalid() data invalid}.
 * Each reply says what its script did when it answers it ({@link Did}).
 */
final class ScriptReplies {

    /** Each reply enum's effects, by constant, read once from their {@link Did} marks. */
    private static final ClassValue<Map<String, Effect>> EFFECTS = new ClassValue<>() {
        @Override
        protected Map<String, Effect> computeValue(Class<?> replies) {
            Map<String, Effect> effects = new HashMap<>();
            for (java.lang.reflect.Field constant : replies.getFields()) {
                if (constant.isEnumConstant()) {
                    Did did = constant.getAnnotation(Did.class);
                    if (did == null) {
                        throw new IllegalStateException(replies.getSimpleName() + "." + constant.getName() + " has no @Did");
                    }
                    effects.put(constant.getName(), did.value());
                }
            }
            return Map.copyOf(effects);
        }
    };

    private ScriptReplies() {
    }

    /** What a reply says the script did, as a replica acknowledgement needs to know. */
    enum Effect {
        /** It wrote. */
        WRITE,
        /** It refused and wrote nothing. */
        REFUSAL,
        /** It wrote nothing, and confirms an earlier write of the same attempt. */
        CONFIRMATION
    }

    /** Marks a reply with what its script did when it answers it; every reply has one. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    @interface Did {
        /** The effect. */
        Effect value();
    }

    /** A reply of one script, by name: a constant of that script's enum, marked with {@link Did}. */
    interface Reply {
        /** The reply's name, as the script answers it. */
        String name();

        /** What the script did when it answered this. */
        default Effect effect() {
            return EFFECTS.get(getClass()).get(name());
        }
    }

    /** The replies of {@code open.lua}. */
    enum Open implements Reply {
        /** The run's state was created with the offered token. */
        @Did(Effect.WRITE) OPENED,
        /** The run was opened before; with the token it was opened with. */
        @Did(Effect.CONFIRMATION) RUN_OPEN,
        /** The run's key holds a hash without a token; nothing written. */
        @Did(Effect.REFUSAL) RUN_INVALID
    }

    /** The replies of {@code begin.lua}. */
    enum Begin implements Reply {
        /** The run's state is missing, holds another opening's token or fewer calls than seen; nothing written. */
        @Did(Effect.REFUSAL) RUN_LOST,
        /** The record was created, both counters incremented; with the run's calls. */
        @Did(Effect.WRITE) CREATED,
        /** The record exists, PROJECTING, with this token (a retry); with all its fields. */
        @Did(Effect.CONFIRMATION) ALREADY_CREATED,
        /** The record, or the run's ledger, has the call with the same request fingerprint. */
        @Did(Effect.REFUSAL) DUPLICATE,
        /** The same, with another request fingerprint. */
        @Did(Effect.REFUSAL) REUSED,
        /** The run's budget is used up. */
        @Did(Effect.REFUSAL) RUN_BUDGET,
        /** The tool's budget is used up. */
        @Did(Effect.REFUSAL) TOOL_BUDGET,
        /** A budget counter holds something that is not a number. */
        @Did(Effect.REFUSAL) COUNTER_INVALID,
        /** This attempt was ended by token before its begin arrived; nothing written. */
        @Did(Effect.REFUSAL) ATTEMPT_ENDED,
        /** The record key holds a hash that is not a record of this store; nothing written. */
        @Did(Effect.REFUSAL) RECORD_INVALID
    }

    /** The replies of {@code complete.lua}. */
    enum Complete implements Reply {
        /** The record is now final. */
        @Did(Effect.WRITE) APPLIED,
        /** The record already has this status and token (a retry); with all its fields. */
        @Did(Effect.CONFIRMATION) ALREADY_APPLIED,
        /** There is no record (expired, or never created). */
        @Did(Effect.REFUSAL) NOT_FOUND,
        /** The record belongs to another attempt. */
        @Did(Effect.REFUSAL) TOKEN_MISMATCH,
        /** The record is final with another status. */
        @Did(Effect.REFUSAL) CONFLICT,
        /** The final record would be over the store's record cap; nothing written. */
        @Did(Effect.REFUSAL) TOO_LARGE,
        /** The attempt's pending raw key is gone (evicted), so the raw response was not kept; nothing written. */
        @Did(Effect.REFUSAL) RAW_LOST,
        /** The pending raw key does not hold the raw response: its {@code SET} was refused; nothing written. */
        @Did(Effect.REFUSAL) RAW_NOT_WRITTEN
    }

    /** The replies of {@code end.lua}. */
    enum End implements Reply {
        /** The record was PROJECTING and is now ERROR; with all its fields. */
        @Did(Effect.WRITE) ENDED,
        /** The record is final already, with this token; with all its fields. */
        @Did(Effect.CONFIRMATION) FINAL,
        /** There is no record; the attempt's end mark is left. */
        @Did(Effect.WRITE) NOT_FOUND,
        /** The record belongs to another attempt. */
        @Did(Effect.REFUSAL) TOKEN_MISMATCH
    }

    /** The replies of {@code abandon.lua}. */
    enum Abandon implements Reply {
        /** The record is now ERROR/EXECUTION_ABANDONED; with all its fields. */
        @Did(Effect.WRITE) ABANDONED,
        /** The record already was ERROR/EXECUTION_ABANDONED; with all its fields. */
        @Did(Effect.CONFIRMATION) ALREADY_ABANDONED,
        /** There is no record. */
        @Did(Effect.REFUSAL) NOT_FOUND,
        /** The record is READY, or ERROR with another code. */
        @Did(Effect.REFUSAL) FINAL,
        /** The record is PROJECTING and its lease has not passed. */
        @Did(Effect.REFUSAL) LEASE_ACTIVE,
        /** The record's lease is missing or not one this store writes. */
        @Did(Effect.REFUSAL) LEASE_INVALID
    }

    /** The replies of {@code touch.lua}. */
    enum Touch implements Reply {
        /** The field exists and was rewritten with its own value. */
        @Did(Effect.WRITE) TOUCHED,
        /** The field does not exist; nothing written. */
        @Did(Effect.REFUSAL) NOT_FOUND
    }

    /** The replies of a script that answers data ({@code find.lua}, {@code scan.lua}, {@code inspect.lua}): none by name. */
    enum Data implements Reply {
    }

    /** Reads the reply of {@code open.lua}. */
    static Either<StoreFailure, RunToken> openRun(Object reply, RunToken offered) {
        return parse(reply, LuaScripts.OPEN).flatMap(parsed -> switch (parsed.reply()) {
            case OPENED -> parsed.noFields() ? Either.right(offered) : invalid();
            case RUN_OPEN -> parsed.fields().size() == 1 && parsed.fields().containsKey("token")
                    ? runToken(parsed.fields().get("token"))
                    : invalid();
            case RUN_INVALID -> failed(parsed, StoreFailure.dataInvalid());
        });
    }

    private static Either<StoreFailure, Long> count(String value) {
        try {
            long count = Long.parseLong(value);
            return count > 0 ? Either.right(count) : invalid();
        } catch (NumberFormatException notANumber) {
            return invalid();
        }
    }

    private static Either<StoreFailure, RunToken> runToken(String value) {
        try {
            return Either.right(new RunToken(value));
        } catch (IllegalArgumentException notAToken) {
            return invalid();
        }
    }

    /** Reads the reply of {@code begin.lua}; tells {@code created} the run's calls when it created the record. */
    static Either<StoreFailure, CanonicalRecord.Projecting> begin(Object reply, CanonicalRecord.Projecting wanted,
            AttemptToken token, LongConsumer created) {
        return parse(reply, LuaScripts.BEGIN).flatMap(parsed -> switch (parsed.reply()) {
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
            case RUN_LOST -> refused(parsed, Refusal.RUN_STATE_LOST);
            case DUPLICATE -> refused(parsed, Refusal.DUPLICATE);
            case REUSED -> refused(parsed, Refusal.ID_REUSED);
            case RUN_BUDGET -> refused(parsed, Refusal.RUN_BUDGET_EXHAUSTED);
            case TOOL_BUDGET -> refused(parsed, Refusal.TOOL_BUDGET_EXHAUSTED);
            case COUNTER_INVALID -> failed(parsed, StoreFailure.dataInvalid());
            case ATTEMPT_ENDED -> refused(parsed, Refusal.CONFLICT);
            case RECORD_INVALID -> failed(parsed, StoreFailure.dataInvalid());
        });
    }

    /** Reads the reply of {@code complete.lua}: the stored final record, {@code wanted} when it landed. */
    static Either<StoreFailure, CanonicalRecord.Final> complete(Object reply, CanonicalRecord.Final wanted,
            AttemptToken token) {
        return parse(reply, LuaScripts.COMPLETE).flatMap(parsed -> switch (parsed.reply()) {
            case APPLIED -> parsed.noFields() ? Either.right(wanted) : invalid();
            case ALREADY_APPLIED -> RecordCodec.decode(wanted.key(), parsed.fields()).flatMap(stored -> {
                if (!(stored.record() instanceof CanonicalRecord.Final done) || !stored.token().equals(token)) {
                    return invalid();
                }
                return done.equals(wanted) ? Either.right(done) : Either.left(StoreFailure.refused(Refusal.CONFLICT));
            });
            case NOT_FOUND -> refused(parsed, Refusal.EXPIRED);
            case TOKEN_MISMATCH, CONFLICT -> refused(parsed, Refusal.CONFLICT);
            case TOO_LARGE -> refused(parsed, Refusal.TOO_LARGE);
            // The raw response the tool returned was not kept: data lost, never a record without it.
            case RAW_LOST -> failed(parsed, StoreFailure.dataInvalid());
            // The raw response's SET was refused or went elsewhere, and the script wrote nothing.
            case RAW_NOT_WRITTEN -> failed(parsed, StoreFailure.unavailable());
        });
    }

    /** Reads the reply of {@code abandon.lua}. */
    static Either<StoreFailure, CanonicalRecord.Failed> abandon(Object reply, InvocationKey key) {
        return parse(reply, LuaScripts.ABANDON).flatMap(parsed -> switch (parsed.reply()) {
            case ABANDONED, ALREADY_ABANDONED -> RecordCodec.decode(key, parsed.fields()).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Failed failed
                            && failed.code() == ErrorCode.EXECUTION_ABANDONED
                            ? Either.right(failed)
                            : invalid());
            case NOT_FOUND -> refused(parsed, Refusal.EXPIRED);
            case FINAL -> refused(parsed, Refusal.CONFLICT);
            case LEASE_ACTIVE -> refused(parsed, Refusal.LEASE_NOT_EXPIRED);
            case LEASE_INVALID -> failed(parsed, StoreFailure.dataInvalid());
        });
    }

    /** Reads the reply of {@code end.lua}. */
    static Either<StoreFailure, CanonicalRecord.Final> end(Object reply, InvocationKey key, AttemptToken token) {
        return parse(reply, LuaScripts.END).flatMap(parsed -> switch (parsed.reply()) {
            case ENDED, FINAL -> RecordCodec.decode(key, parsed.fields()).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Final done && stored.token().equals(token)
                            ? Either.right(done)
                            : invalid());
            case NOT_FOUND -> refused(parsed, Refusal.EXPIRED);
            case TOKEN_MISMATCH -> refused(parsed, Refusal.CONFLICT);
        });
    }

    /** Reads the reply of {@code find.lua}: a hash, empty when there is no record. */
    static Either<StoreFailure, Option<CanonicalRecord>> find(Object reply, InvocationKey key) {
        if (!(reply instanceof List<?> items) || items.size() % 2 != 0) {
            return invalid();
        }
        if (items.isEmpty()) {
            return Either.right(Option.none());
        }
        return pairs(items, 0).flatMap(hash -> RecordCodec.decode(key, hash))
                .map(stored -> Option.of(stored.record()));
    }

    private static <R extends Enum<R> & Reply> Either<StoreFailure, Parsed<R>> parse(Object reply,
            LuaScripts.Script<?, R> script) {
        if (!(reply instanceof List<?> items) || items.isEmpty() || items.size() % 2 != 1
                || !(items.get(0) instanceof String outcome)) {
            return invalid();
        }
        Option<R> known = script.reply(outcome);
        if (known.isEmpty()) {
            return invalid();
        }
        return pairs(items, 1).map(fields -> new Parsed<>(known.get(), fields));
    }

    private static Either<StoreFailure, Map<String, String>> pairs(List<?> items, int from) {
        Map<String, String> fields = new HashMap<>();
        for (int i = from; i < items.size(); i += 2) {
            if (!(items.get(i) instanceof String field) || !(items.get(i + 1) instanceof String value)
                    || fields.put(field, value) != null) {
                return invalid();
            }
        }
        return Either.right(fields);
    }

    /** A reply that carries no fields refuses with {@code reason}; with fields it is not a reply of the scripts. */
    private static <T> Either<StoreFailure, T> refused(Parsed<?> parsed, Refusal reason) {
        return failed(parsed, StoreFailure.refused(reason));
    }

    /** A reply that carries no fields answers {@code failure}; with fields it is not a reply of the scripts. */
    private static <T> Either<StoreFailure, T> failed(Parsed<?> parsed, StoreFailure failure) {
        return parsed.noFields() ? Either.left(failure) : invalid();
    }

    private static <T> Either<StoreFailure, T> invalid() {
        return Either.left(StoreFailure.dataInvalid());
    }

    private record Parsed<R>(R reply, Map<String, String> fields) {
        boolean noFields() {
            return fields.isEmpty();
        }
    }
}
