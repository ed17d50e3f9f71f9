package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.redisson.api.RedissonClient;

/**
 * The production store: each canonical record is one small Redis hash and, once it has one, its raw
 * response in a string beside it; each run is one hash beside its records. Every key gets its TTL once,
 * when it is created, and none is refreshed or removed later. Works on a standalone server, behind
 * Sentinel and on Redis Cluster (all keys of a run share the run id as hash tag).
 *
 * <p>Beyond {@link CanonicalInvocationStore}'s promises: opening a run, {@code begin}, {@code complete},
 * {@code end} and {@code abandon} are each one atomic script, one round trip, safe to repeat; reads go to the master; every value round-trips byte for byte in
 * UTF-8. No method throws for a Redis failure: each answers {@code STORE_UNAVAILABLE},
 * {@code STORE_OUTCOME_UNKNOWN}, {@code STORE_FULL} or {@code STORE_DATA_INVALID}, never with an
 * exception's text.
 *
 * <p>Created by {@link RedisCanonicalInvocationStoreFactory}. Thread-safe.
 */
public final class RedisCanonicalInvocationStore implements CanonicalInvocationStore, AutoCloseable {

    /**
     * How long the mark of an attempt ended before its record existed is kept: one hour, far longer than
     * a begin can stay on its way to the server.
     */
    static final Duration ENDED_ATTEMPT_MARK_TTL = Duration.ofHours(1);
    /** The longest TTL sent to Redis: 100 years, far inside what {@code PEXPIRE} accepts. */
    private static final long MAX_TTL_MILLIS = Duration.ofDays(36_500).toMillis();
    /** The {@code COUNT} hint of each SCAN step of {@link #toolCallIds}. */
    private static final int SCAN_COUNT = 1000;

    private final RedissonClient client;
    private final boolean ownsClient;
    private final RedisStoreOptions options;
    private final RedisKeys keys;
    private final ScriptRunner scripts;
    private final RunMarks marks = new RunMarks();

    RedisCanonicalInvocationStore(RedissonClient client, boolean ownsClient, RedisStoreOptions options) {
        this(client, ownsClient, options, System::nanoTime);
    }

    /** {@code ticker} times the looks for new masters ({@link MasterPolicyWatch}); tests pass their own. */
    RedisCanonicalInvocationStore(RedissonClient client, boolean ownsClient, RedisStoreOptions options,
            LongSupplier ticker) {
        this.client = requireNonNull(client, "client is null");
        this.ownsClient = ownsClient;
        this.options = requireNonNull(options, "options is null");
        this.keys = new RedisKeys(options.keyPrefix());
        this.scripts = new ScriptRunner(client, options, MasterPolicyWatch.over(client, options, ticker));
        scripts.preload(options.responseTimeout());
    }

    /** How many calls were answered {@code STORE_UNAVAILABLE} unsent while Redis could not be reached. */
    long turnedAwayWhileDown() {
        return scripts.turnedAway();
    }

    /**
     * The options this store was created with.
     *
     * @return the options passed to the factory method that made this store
     */
    public RedisStoreOptions options() {
        return options;
    }

    @Override
    public OptionalLong recordCapBytes() {
        return options.recordCapBytes();
    }

    /**
     * {@inheritDoc}
     *
     * <p>One script ({@code open.lua}), one round trip: the run's state is one hash,
     * {@code <prefix>:{<runId>}:run}, in the run's slot, with its TTL set here, once.
     */
    @Override
    public Either<StoreFailure, RunToken> openRun(RunOpening opening, Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        RunToken offered = opening.offered();
        String runKey = keys.runState(opening.runId());
        return scripts.run(LuaScripts.OPEN, new ScriptArgs.Open(runKey, offered.value(), ttlMillis(opening.ttl())),
                        timeout)
                .flatMap(reply -> ScriptReplies.openRun(reply, offered));
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Projecting> begin(InvocationStart start, Duration timeout) {
        requireNonNull(start, "start is null");
        requireNonNull(timeout, "timeout is null");
        CanonicalRecord.Projecting record = start.record();
        if (record.byteSize() > Math.min(start.recordLimitBytes(), options.recordCapBytes().orElse(Long.MAX_VALUE))) {
            return Either.left(StoreFailure.refused(Refusal.TOO_LARGE));
        }
        InvocationKey key = record.key();
        String recordKey = keys.record(key);
        ScriptArgs.Begin args = new ScriptArgs.Begin(recordKey, keys.runState(key.runId()),
                keys.endedAttempt(key.runId(), start.token()), keys.pendingRaw(key, start.token()),
                start.token().value(), record.requestFingerprint(), ttlMillis(start.ttl()), start.runCallBudget(),
                start.toolCallBudget(), leaseMillis(start.lease()), start.runToken().value(),
                RedisKeys.toolCounterField(record.tool()), RedisKeys.ledgerField(key.toolCallId()),
                marks.seen(key.runId(), start.runToken()), RecordCodec.headStart(start.token()),
                RecordCodec.headEnd(record), record.arguments());
        return scripts.run(LuaScripts.BEGIN, args, timeout)
                .flatMap(reply -> ScriptReplies.begin(reply, record, start.token(),
                        calls -> marks.saw(key.runId(), start.runToken(), calls)));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One script ({@code complete.lua}), one round trip. The script receives the token, the final
     * status and the fields the outcome adds, never the request; with a {@link #recordCapBytes() record
     * cap}, also the room the cap leaves for the fields begin wrote, which it measures with
     * {@code HSTRLEN} before writing.
     */
    @Override
    public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
            Duration timeout) {
        requireNonNull(token, "token is null");
        requireNonNull(record, "record is null");
        requireNonNull(timeout, "timeout is null");
        InvocationKey key = record.key();
        // Ids are ASCII; what the completion adds was counted in UTF-8 bytes when the record was made.
        long added = record.byteSize() - record.begun().byteSize();
        long known = key.runId().value().length() + key.toolCallId().value().length() + added;
        OptionalLong cap = options.recordCapBytes();
        if (cap.isPresent() && known > cap.getAsLong()) {
            return Either.left(StoreFailure.refused(Refusal.TOO_LARGE));
        }
        return sendCompletion(token, record,
                cap.isPresent() ? Option.some(cap.getAsLong() - known) : Option.none(), timeout);
    }

    /**
     * The completion's one round trip: the script receives the token and what the completion adds; a raw
     * response goes just before it in the same pipeline ({@link RawResponseWrite}).
     */
    private Either<StoreFailure, CanonicalRecord.Final> sendCompletion(AttemptToken token,
            CanonicalRecord.Final record, Option<Long> room, Duration timeout) {
        InvocationKey key = record.key();
        String recordKey = keys.record(key);
        String pending = keys.pendingRaw(key, token);
        Option<RawResponseWrite> raw = record.rawResponse()
                .map(text -> RawResponseWrite.of(pending, text));
        ScriptArgs.Complete args = new ScriptArgs.Complete(recordKey, pending, keys.raw(key), token.value(),
                record.status().name(), room, raw.map(write -> (long) write.utf8().length),
                RecordCodec.outcome(record), RecordCodec.detail(record));
        return scripts.run(LuaScripts.COMPLETE, args, timeout, raw)
                .flatMap(reply -> ScriptReplies.complete(reply, record, token));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One script, one round trip; the lease is compared with the server's {@code TIME}, the clock
     * {@code begin} set it by, to the microsecond; {@code now} only becomes {@code updatedAt}.
     */
    @Override
    public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout) {
        requireNonNull(key, "key is null");
        requireNonNull(token, "token is null");
        requireNonNull(code, "code is null");
        requireNonNull(now, "now is null");
        requireNonNull(timeout, "timeout is null");
        String recordKey = keys.record(key);
        ScriptArgs.End args = new ScriptArgs.End(recordKey, keys.endedAttempt(key.runId(), token),
                keys.pendingRaw(key, token), keys.raw(key), token.value(), ENDED_ATTEMPT_MARK_TTL.toMillis(),
                RecordCodec.failed(code, now));
        return scripts.run(LuaScripts.END, args, timeout)
                .flatMap(reply -> ScriptReplies.end(reply, key, token));
    }

    @Override
    public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
        requireNonNull(key, "key is null");
        requireNonNull(now, "now is null");
        requireNonNull(timeout, "timeout is null");
        String recordKey = keys.record(key);
        return scripts.run(LuaScripts.ABANDON, new ScriptArgs.Abandon(recordKey, RecordCodec.abandoned(now)), timeout)
                .flatMap(reply -> ScriptReplies.abandon(reply, key));
    }

    @Override
    public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
        requireNonNull(key, "key is null");
        requireNonNull(timeout, "timeout is null");
        String recordKey = keys.record(key);
        return scripts.run(LuaScripts.FIND, new ScriptArgs.Find(recordKey, keys.raw(key)), timeout)
                .flatMap(reply -> ScriptReplies.find(reply, key));
    }

    /**
     * {@inheritDoc}
     *
     * <p>SCAN ({@code MATCH <prefix>:{<runId>}:call:*}, {@code COUNT} {@value #SCAN_COUNT}, never
     * {@code KEYS}) on the master that owns the run's slot, to the end of the walk: every page costs time in
     * proportion to that master's whole keyspace. A key whose end is not a valid tool_call_id is not listed.
     */
    @Override
    public Either<StoreFailure, ToolCallIdPage> toolCallIds(ToolCallIdPage.Request request, Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        RunId runId = request.runId();
        Option<ToolCallId> after = request.after();
        int limit = request.limit();
        long deadline = System.nanoTime() + Math.max(timeout.toNanos(), 0L);
        String start = keys.recordsOf(runId);
        String pattern = keys.recordPattern(runId);
        java.util.TreeMap<String, ToolCallId> ids = new java.util.TreeMap<>();
        String cursor = "0";
        do {
            Duration left = Duration.ofNanos(Math.max(0L, deadline - System.nanoTime()));
            Either<StoreFailure, Object> step = scripts.run(LuaScripts.SCAN,
                    new ScriptArgs.Scan(start, cursor, pattern, SCAN_COUNT), left);
            if (step.isLeft()) {
                // A read: nothing was written whatever happened, so an unknown outcome is only unavailable.
                return Either.left(StoreFailure.unavailable());
            }
            if (!(step.get() instanceof List<?> reply) || reply.isEmpty()) {
                return Either.left(StoreFailure.dataInvalid());
            }
            cursor = String.valueOf(reply.get(0));
            for (Object key : reply.subList(1, reply.size())) {
                String text = String.valueOf(key);
                if (text.startsWith(start)) {
                    ToolCallId.of(text.substring(start.length())).toOption()
                            .filter(id -> after.forAll(last -> id.value().compareTo(last.value()) > 0))
                            .forEach(id -> ids.put(id.value(), id));
                }
            }
            while (ids.size() > limit + 1) {
                ids.pollLastEntry();
            }
        } while (!"0".equals(cursor));
        boolean more = ids.size() > limit;
        if (more) {
            ids.pollLastEntry();
        }
        return Either.right(new ToolCallIdPage(List.copyOf(ids.values()), more));
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

    /** The Redis key of a run's state. */
    String runKey(RunId runId) {
        return keys.runState(requireNonNull(runId, "runId is null"));
    }

    /** The client, for {@link RedisOperatorView}. */
    RedissonClient client() {
        return client;
    }

    /** Runs one script with this store's retries, for {@link RedisOperatorView}. */
    <A extends ScriptArgs> Either<StoreFailure, Object> runScript(LuaScripts.Script<A, ?> script, A args,
            Duration timeout) {
        return scripts.run(script, args, timeout);
    }

    /** The layout of every key this store writes. */
    RedisKeys keys() {
        return keys;
    }

    /** The lease in whole milliseconds, rounded up, at least 1 and at most {@link #MAX_TTL_MILLIS}. */
    private static long leaseMillis(Duration lease) {
        return ttlMillis(lease);
    }

    private static long ttlMillis(Duration ttl) {
        if (ttl.compareTo(Duration.ofMillis(MAX_TTL_MILLIS)) >= 0) {
            return MAX_TTL_MILLIS;
        }
        long millis = ttl.toMillis();
        return ttl.equals(Duration.ofMillis(millis)) ? Math.max(1, millis) : millis + 1;
    }
}
