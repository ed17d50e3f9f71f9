package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.application.InvocationStart;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Utf8;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisNoScriptException;
import org.redisson.client.codec.StringCodec;

/**
 * The production store: each canonical record is one Redis hash with a TTL set once, when the record
 * is created; budgets are counters beside it. Works unchanged on a standalone server and on Redis
 * Cluster (all keys of a run share the run id as hash tag).
 *
 * <p>Promises, beyond {@link CanonicalInvocationStore}'s: {@code begin}, {@code complete} and
 * {@code abandon} are each one atomic script, one round trip, safe to repeat; a successful begin and
 * complete send exactly two script calls and nothing else; no command that sets, refreshes or removes a TTL is sent after
 * creation; reads go to the master; every value round-trips exactly, byte for byte in UTF-8. No method
 * throws for a Redis failure: each maps it to {@code STORE_UNAVAILABLE}, {@code STORE_OUTCOME_UNKNOWN},
 * {@code STORE_FULL} or {@code STORE_DATA_INVALID}, never passing on an exception's text.
 *
 * <p>Created by {@link RedisCanonicalInvocationStoreFactory}. Thread-safe.
 */
public final class RedisCanonicalInvocationStore implements CanonicalInvocationStore, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RedisCanonicalInvocationStore.class.getName());
    /** The longest TTL sent to Redis: 100 years, far inside what {@code PEXPIRE} accepts. */
    private static final long MAX_TTL_MILLIS = Duration.ofDays(36_500).toMillis();

    private final RedissonClient client;
    private final boolean ownsClient;
    private final RedisStoreOptions options;
    private final RedisKeys keys;
    private final RScript scripts;

    RedisCanonicalInvocationStore(RedissonClient client, boolean ownsClient, RedisStoreOptions options) {
        this.client = requireNonNull(client, "client is null");
        this.ownsClient = ownsClient;
        this.options = requireNonNull(options, "options is null");
        this.keys = new RedisKeys(options.keyPrefix());
        this.scripts = client.getScript(StringCodec.INSTANCE);
    }

    /** The options this store was created with. */
    public RedisStoreOptions options() {
        return options;
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Projecting> begin(InvocationStart start) {
        requireNonNull(start, "start is null");
        CanonicalRecord.Projecting record = start.record();
        if (record.byteSize() > options.recordLimitBytes()) {
            return Either.left(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE));
        }
        if (!Utf8.isWellFormed(record.request()) || !Utf8.isWellFormed(record.requestFingerprint())) {
            return Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
        }
        InvocationKey key = record.key();
        String recordKey = keys.record(key);
        List<Object> scriptKeys = List.of(recordKey, keys.runBudget(key.runId()),
                keys.toolBudget(key.runId(), record.tool()));
        List<Object> args = new ArrayList<>(24);
        args.add(start.token().value());
        args.add(record.requestFingerprint());
        args.add(Long.toString(ttlMillis(start.ttl())));
        args.add(Integer.toString(start.runCallBudget()));
        args.add(Integer.toString(start.toolCallBudget()));
        args.addAll(RecordCodec.projectingFields(record, start.token(), start.leaseUntil()));
        return run(LuaScripts.BEGIN, recordKey, scriptKeys, args)
                .flatMap(reply -> ScriptReplies.begin(reply, record, start.token()));
    }

    @Override
    public Either<BoundaryError, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final outcome) {
        requireNonNull(token, "token is null");
        requireNonNull(outcome, "outcome is null");
        if (outcome.byteSize() > options.recordLimitBytes()) {
            return Either.left(BoundaryError.of(ErrorCode.RESULT_TOO_LARGE));
        }
        if (!isUnicode(outcome)) {
            return Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE));
        }
        String recordKey = keys.record(outcome.key());
        List<Object> args = new ArrayList<>(20);
        args.add(token.value());
        args.add(outcome.status().name());
        args.add(outcome.tool().value());
        args.add(outcome.requestFingerprint());
        args.add(outcome.createdAt().toString());
        args.add(RecordCodec.requestSha1(outcome.request()));
        args.addAll(RecordCodec.finalFields(outcome));
        return run(LuaScripts.COMPLETE, recordKey, List.of(recordKey), args)
                .flatMap(reply -> ScriptReplies.complete(reply, outcome, token));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One script, one round trip; the lease is compared exactly, to the nanosecond, with
     * {@code now}, never with Redis's clock.
     */
    @Override
    public Either<BoundaryError, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now) {
        requireNonNull(key, "key is null");
        requireNonNull(now, "now is null");
        String recordKey = keys.record(key);
        List<Object> args = new ArrayList<>(10);
        args.add(RecordCodec.seconds(now));
        args.add(RecordCodec.nanos(now));
        args.addAll(RecordCodec.abandonedFields(now));
        return run(LuaScripts.ABANDON, recordKey, List.of(recordKey), args)
                .flatMap(reply -> ScriptReplies.abandon(reply, key));
    }

    @Override
    public Either<BoundaryError, Option<CanonicalRecord>> find(InvocationKey key) {
        requireNonNull(key, "key is null");
        String recordKey = keys.record(key);
        return run(LuaScripts.FIND, recordKey, List.of(recordKey), List.of())
                .flatMap(reply -> ScriptReplies.find(reply, key));
    }

    /** Shuts down the Redis client when the factory created it from a {@code Config}; else does nothing. */
    @Override
    public void close() {
        if (ownsClient) {
            client.shutdown();
        }
    }

    /** The Redis key of a record. */
    String recordKey(InvocationKey key) {
        return keys.record(requireNonNull(key, "key is null"));
    }

    /** The layout of every key this store writes. */
    RedisKeys keys() {
        return keys;
    }

    private Either<BoundaryError, Object> run(LuaScripts.Script script, String routingKey,
            List<Object> scriptKeys, List<Object> args) {
        Object[] values = args.toArray();
        try {
            return Either.right(evalSha(script, routingKey, scriptKeys, values));
        } catch (RedisNoScriptException notLoaded) {
            // A restarted or failed-over server has lost its script cache: load the script and run it once more.
            try {
                scripts.scriptLoad(script.source());
                return Either.right(evalSha(script, routingKey, scriptKeys, values));
            } catch (RuntimeException failure) {
                return failed(script, failure);
            }
        } catch (RuntimeException failure) {
            return failed(script, failure);
        }
    }

    /** One EVALSHA: the script travels by its digest only, never its text. */
    private Object evalSha(LuaScripts.Script script, String routingKey, List<Object> scriptKeys, Object[] values) {
        return scripts.evalSha(routingKey, RScript.Mode.READ_WRITE, script.sha1(), RScript.ReturnType.LIST,
                scriptKeys, values);
    }

    private static Either<BoundaryError, Object> failed(LuaScripts.Script script, RuntimeException failure) {
        ErrorCode code = RedisFailures.classify(failure);
        LOG.log(System.Logger.Level.WARNING, "Redis store script {0} failed with {1}, reported as {2}",
                script.name(), failure.getClass().getSimpleName(), code);
        return Either.left(BoundaryError.of(code));
    }

    /** UTF-8 keeps text exactly only when it has no lone surrogate; such text is refused, never altered. */
    private static boolean isUnicode(CanonicalRecord.Final outcome) {
        return outcome.rawResponse().forAll(Utf8::isWellFormed)
                && outcome.agentResult().forAll(result -> Utf8.isWellFormed(result.content())
                        && result.scope().forAll(Utf8::isWellFormed));
    }

    private static long ttlMillis(Duration ttl) {
        if (ttl.compareTo(Duration.ofMillis(MAX_TTL_MILLIS)) >= 0) {
            return MAX_TTL_MILLIS;
        }
        long millis = ttl.toMillis();
        return ttl.equals(Duration.ofMillis(millis)) ? Math.max(1, millis) : millis + 1;
    }
}
