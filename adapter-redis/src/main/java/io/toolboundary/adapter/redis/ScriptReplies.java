package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.LongConsumer;

/**
 * The replies of the store's scripts, one enum per script, and the one place where they become
 * results. A reply is a list of strings: one of its script's replies by name, then (for some replies)
 * one value, the record as stored or a count. An unknown reply, a reply of another script, a value where
 * none belongs, or a record that does not decode is {@link StoreFailure#dataInvalid() data invalid}.
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
        /** The record exists, PROJECTING, with this token (a retry); with the record. */
        @Did(Effect.CONFIRMATION) ALREADY_CREATED,
        /** The record exists otherwise; with the record, by whose fingerprint the caller tells a duplicate. */
        @Did(Effect.REFUSAL) EXISTS,
        /** The run's ledger has the call, whose record is gone, with the same request fingerprint. */
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
        /** The record key holds another type; nothing written. */
        @Did(Effect.REFUSAL) RECORD_INVALID
    }

    /** The replies of {@code complete.lua}. */
    enum Complete implements Reply {
        /** The record is now final. */
        @Did(Effect.WRITE) APPLIED,
        /** The record is final already; with the record, which the caller compares with its own. */
        @Did(Effect.CONFIRMATION) FINAL,
        /** There is no record (expired, or never created). */
        @Did(Effect.REFUSAL) NOT_FOUND,
        /** The record belongs to another attempt. */
        @Did(Effect.REFUSAL) TOKEN_MISMATCH,
        /** The attempt's pending key is gone (evicted), so the final record was not kept; nothing written. */
        @Did(Effect.REFUSAL) PENDING_LOST,
        /** The pending key does not hold the final record: its {@code SET} was refused; nothing written. */
        @Did(Effect.REFUSAL) NOT_WRITTEN,
        /** The record key holds another type; nothing written. */
        @Did(Effect.REFUSAL) RECORD_INVALID
    }

    /** The replies of {@code end.lua}. */
    enum End implements Reply {
        /** The record was PROJECTING and is now ERROR; with the record. */
        @Did(Effect.WRITE) ENDED,
        /** The record is final already, with this token; with the record. */
        @Did(Effect.CONFIRMATION) FINAL,
        /** There is no record; the attempt's end mark is left. */
        @Did(Effect.WRITE) NOT_FOUND,
        /** The record belongs to another attempt. */
        @Did(Effect.REFUSAL) TOKEN_MISMATCH,
        /** The record key holds another type, or a PROJECTING record this store did not write. */
        @Did(Effect.REFUSAL) RECORD_INVALID
    }

    /** The replies of {@code abandon.lua}. */
    enum Abandon implements Reply {
        /** The record is now ERROR/EXECUTION_ABANDONED; with the record. */
        @Did(Effect.WRITE) ABANDONED,
        /** The record is final already; with the record. */
        @Did(Effect.CONFIRMATION) FINAL,
        /** There is no record. */
        @Did(Effect.REFUSAL) NOT_FOUND,
        /** The record now belongs to another attempt than the one read. */
        @Did(Effect.REFUSAL) TOKEN_MISMATCH,
        /** The record is PROJECTING and its lease has not passed. */
        @Did(Effect.REFUSAL) LEASE_ACTIVE,
        /** The record's lease is not one this store writes. */
        @Did(Effect.REFUSAL) LEASE_INVALID,
        /** The record key holds another type. */
        @Did(Effect.REFUSAL) RECORD_INVALID
    }

    /** The replies of {@code touch.lua}. */
    enum Touch implements Reply {
        /** The field exists and was rewritten with its own value. */
        @Did(Effect.WRITE) TOUCHED,
        /** The field does not exist; nothing written. */
        @Did(Effect.REFUSAL) NOT_FOUND
    }

    /**
     * The replies of a script that answers data ({@code find.lua}, {@code scan.lua}, {@code inspect.lua}, and the
     * outbox's {@code poll.lua}, {@code acknowledge.lua}, {@code backlog.lua}, read by {@link RedisRecordOutbox}):
     * none by name.
     */
    enum Data implements Reply {
    }

    /** Reads the reply of {@code open.lua}. */
    static Either<StoreFailure, RunToken> openRun(Object reply, RunToken offered) {
        return parse(reply, LuaScripts.OPEN).flatMap(parsed -> switch (parsed.reply()) {
            case OPENED -> parsed.rest().isEmpty() ? Either.right(offered) : invalid();
            case RUN_OPEN -> parsed.rest().size() == 2 && parsed.rest().get(0).equals("token")
                    ? runToken(parsed.rest().get(1))
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
            case CREATED -> parsed.value().map(ScriptReplies::count).getOrElse(ScriptReplies::invalid).map(calls -> {
                created.accept(calls);
                return wanted;
            });
            case ALREADY_CREATED -> record(parsed, wanted.key()).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Projecting projecting && stored.token().equals(token)
                            ? Either.right(projecting)
                            : invalid());
            case EXISTS -> record(parsed, wanted.key()).flatMap(stored -> Either.left(StoreFailure.refused(
                    stored.record().requestFingerprint().equals(wanted.requestFingerprint())
                            ? Refusal.DUPLICATE
                            : Refusal.ID_REUSED)));
            case RUN_LOST -> refused(parsed, Refusal.RUN_STATE_LOST);
            case DUPLICATE -> refused(parsed, Refusal.DUPLICATE);
            case REUSED -> refused(parsed, Refusal.ID_REUSED);
            case RUN_BUDGET -> refused(parsed, Refusal.RUN_BUDGET_EXHAUSTED);
            case TOOL_BUDGET -> refused(parsed, Refusal.TOOL_BUDGET_EXHAUSTED);
            case ATTEMPT_ENDED -> refused(parsed, Refusal.CONFLICT);
            case COUNTER_INVALID, RECORD_INVALID -> failed(parsed, StoreFailure.dataInvalid());
        });
    }

    /**
     * Reads the reply of {@code complete.lua}: the stored final record, {@code wanted} when it landed or was
     * stored before; another final record is a conflict.
     */
    static Either<StoreFailure, CanonicalRecord.Final> complete(Object reply, CanonicalRecord.Final wanted,
            AttemptToken token) {
        return parse(reply, LuaScripts.COMPLETE).flatMap(parsed -> switch (parsed.reply()) {
            case APPLIED -> parsed.rest().isEmpty() ? Either.right(wanted) : invalid();
            case FINAL -> record(parsed, wanted.key()).flatMap(stored -> {
                if (!(stored.record() instanceof CanonicalRecord.Final done) || !stored.token().equals(token)) {
                    return invalid();
                }
                return done.equals(wanted) ? Either.right(done) : Either.left(StoreFailure.refused(Refusal.CONFLICT));
            });
            case NOT_FOUND -> refused(parsed, Refusal.EXPIRED);
            case TOKEN_MISMATCH -> refused(parsed, Refusal.CONFLICT);
            // The final record, raw response and all, was not kept: data lost, never a record without it.
            case PENDING_LOST, RECORD_INVALID -> failed(parsed, StoreFailure.dataInvalid());
            // The final record's SET was refused or went elsewhere, and the script wrote nothing.
            case NOT_WRITTEN -> failed(parsed, StoreFailure.unavailable());
        });
    }

    /**
     * Reads the reply of {@code abandon.lua}: the abandoned record, also when it was abandoned before; none when
     * the record changed hands since it was read (the caller reads it again).
     */
    static Either<StoreFailure, Option<CanonicalRecord.Failed>> abandon(Object reply, InvocationKey key) {
        return parse(reply, LuaScripts.ABANDON).flatMap(parsed -> switch (parsed.reply()) {
            case ABANDONED, FINAL -> record(parsed, key).flatMap(stored -> abandoned(stored.record())).map(Option::some);
            case TOKEN_MISMATCH -> parsed.rest().isEmpty() ? Either.right(Option.none()) : invalid();
            case NOT_FOUND -> refused(parsed, Refusal.EXPIRED);
            case LEASE_ACTIVE -> refused(parsed, Refusal.LEASE_NOT_EXPIRED);
            case LEASE_INVALID, RECORD_INVALID -> failed(parsed, StoreFailure.dataInvalid());
        });
    }

    /** A record already final when it was to be abandoned: abandoned before, or a conflict. */
    static Either<StoreFailure, CanonicalRecord.Failed> abandoned(CanonicalRecord record) {
        if (record instanceof CanonicalRecord.Failed failed && failed.code() == ErrorCode.EXECUTION_ABANDONED) {
            return Either.right(failed);
        }
        return record instanceof CanonicalRecord.Final ? Either.left(StoreFailure.refused(Refusal.CONFLICT)) : invalid();
    }

    /** Reads the reply of {@code end.lua}. */
    static Either<StoreFailure, CanonicalRecord.Final> end(Object reply, InvocationKey key, AttemptToken token) {
        return parse(reply, LuaScripts.END).flatMap(parsed -> switch (parsed.reply()) {
            case ENDED, FINAL -> record(parsed, key).flatMap(stored ->
                    stored.record() instanceof CanonicalRecord.Final done && stored.token().equals(token)
                            ? Either.right(done)
                            : invalid());
            case NOT_FOUND -> refused(parsed, Refusal.EXPIRED);
            case TOKEN_MISMATCH -> refused(parsed, Refusal.CONFLICT);
            case RECORD_INVALID -> failed(parsed, StoreFailure.dataInvalid());
        });
    }

    /** Reads the reply of {@code find.lua}: the record as stored, or nil when there is none. */
    static Either<StoreFailure, Option<RecordCodec.Stored>> find(Object reply, InvocationKey key) {
        if (reply == null) {
            return Either.right(Option.none());
        }
        if (!(reply instanceof String value)) {
            return invalid();
        }
        return RecordCodec.decode(key, value).map(Option::some);
    }

    /**
     * Reads the reply of {@code findall.lua}: pairs of a 1-based position in {@code keys} and the record
     * stored there.
     */
    static Either<StoreFailure, Map<ToolCallId, CanonicalRecord>> findAll(Object reply, List<InvocationKey> keys) {
        return byPosition(reply, keys, (key, value) -> RecordCodec.decode(key, value).map(RecordCodec.Stored::record));
    }

    /**
     * Reads the reply of {@code referencability.lua}: pairs of a 1-based position in {@code keys} and the
     * start of that record's head, whose status and outcome say how it may be cited.
     */
    static Either<StoreFailure, Map<ToolCallId, Referencability>> referencabilities(Object reply,
            List<InvocationKey> keys) {
        return byPosition(reply, keys, (key, head) -> RecordCodec.referencability(head));
    }

    /** Reads a reply of pairs (1-based position in {@code keys}, value), each value read by {@code read}. */
    private static <T> Either<StoreFailure, Map<ToolCallId, T>> byPosition(Object reply, List<InvocationKey> keys,
            BiFunction<InvocationKey, String, Either<StoreFailure, T>> read) {
        if (!(reply instanceof List<?> items) || items.size() % 2 != 0) {
            return invalid();
        }
        Map<ToolCallId, T> found = new LinkedHashMap<>();
        for (int i = 0; i < items.size(); i += 2) {
            if (!(items.get(i) instanceof String position) || !(items.get(i + 1) instanceof String value)) {
                return invalid();
            }
            int index;
            try {
                index = Integer.parseInt(position) - 1;
            } catch (NumberFormatException notANumber) {
                return invalid();
            }
            if (index < 0 || index >= keys.size()) {
                return invalid();
            }
            Either<StoreFailure, T> decoded = read.apply(keys.get(index), value);
            if (decoded.isLeft()) {
                return Either.left(decoded.getLeft());
            }
            found.put(keys.get(index).toolCallId(), decoded.get());
        }
        return Either.right(Collections.unmodifiableMap(found));
    }

    private static <R extends Enum<R> & Reply> Either<StoreFailure, Parsed<R>> parse(Object reply,
            LuaScripts.Script<?, R> script) {
        if (!(reply instanceof List<?> items) || items.isEmpty() || items.size() > 3
                || !(items.get(0) instanceof String outcome)) {
            return invalid();
        }
        Option<R> known = script.reply(outcome);
        if (known.isEmpty()) {
            return invalid();
        }
        List<String> rest = new ArrayList<>(2);
        for (Object item : items.subList(1, items.size())) {
            if (!(item instanceof String text)) {
                return invalid();
            }
            rest.add(text);
        }
        return Either.right(new Parsed<>(known.get(), rest));
    }

    /** The record a reply carries as its one value. */
    private static Either<StoreFailure, RecordCodec.Stored> record(Parsed<?> parsed, InvocationKey key) {
        return parsed.value().map(value -> RecordCodec.decode(key, value)).getOrElse(ScriptReplies::invalid);
    }

    /** A reply that carries no value refuses with {@code reason}; with one it is not a reply of the scripts. */
    private static <T> Either<StoreFailure, T> refused(Parsed<?> parsed, Refusal reason) {
        return failed(parsed, StoreFailure.refused(reason));
    }

    /** A reply that carries no value answers {@code failure}; with one it is not a reply of the scripts. */
    private static <T> Either<StoreFailure, T> failed(Parsed<?> parsed, StoreFailure failure) {
        return parsed.rest().isEmpty() ? Either.left(failure) : invalid();
    }

    private static <T> Either<StoreFailure, T> invalid() {
        return Either.left(StoreFailure.dataInvalid());
    }

    /** A reply by name and what follows it: nothing, one value, or (open.lua's RUN_OPEN) a name and a value. */
    private record Parsed<R>(R reply, List<String> rest) {
        Option<String> value() {
            return rest.size() == 1 ? Option.some(rest.get(0)) : Option.none();
        }
    }
}
