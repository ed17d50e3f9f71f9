package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.application.spi.InvocationStart;
import io.toolboundary.application.spi.RecordOutbox;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.application.spi.ToolCallIdPage;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.LongSupplier;
import org.redisson.api.RedissonClient;

/**
 * The production store: each canonical record is one Redis string, request, raw response and agent result
 * together; each run is one hash beside its records. Every key gets its TTL once,
 * when it is created, and none is refreshed or removed later. Works on a standalone server, behind
 * Sentinel and on Redis Cluster (all keys of a run share the run id as hash tag).
 *
 * <p>Beyond {@link CanonicalInvocationStore}'s promises: opening a run, {@code begin}, {@code complete},
 * {@code end} and {@code abandon} are each one atomic script, one round trip, safe to repeat; reads go to the master; every value round-trips byte for byte in
 * UTF-8. No method throws for a Redis failure: each answers {@code STORE_UNAVAILABLE},
 * {@code STORE_OUTCOME_UNKNOWN}, {@code STORE_FULL} or {@code STORE_DATA_INVALID}, never with an
 * exception's text.
 *
 * <p>With {@link RedisStoreOptions.Builder#outbox(RedisStoreOptions.Outbox) export on}, the scripts that make
 * a record final append it to the stream {@code <prefix>:outbox} in the same atomic step, and
 * {@link #outbox()} reads that stream for exporters; refused on Redis Cluster.
 *
 * <p>Created by {@link RedisCanonicalInvocationStoreFactory}. Thread-safe.
 */
public final class RedisCanonicalInvocationStore implements CanonicalInvocationStore, AutoCloseable {

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
    private final Option<RedisRecordOutbox> outbox;

    RedisCanonicalInvocationStore(RedissonClient client, boolean ownsClient, RedisStoreOptions options) {
        this(client, ownsClient, options, System::nanoTime);
    }

    /** {@code ticker} times the looks for new masters ({@link MasterPolicyWatch}); tests pass their own. */
    RedisCanonicalInvocationStore(RedissonClient client, boolean ownsClient, RedisStoreOptions options,
            LongSupplier ticker) {
        this.client = requireNonNull(client, "client is null");
        this.ownsClient = ownsClient;
        this.options = requireNonNull(options, "options is null");
        RedisRecordOutbox.refuseOnCluster(client.getConfig().isClusterConfig(), options);
        this.keys = new RedisKeys(options.keyPrefix());
        this.scripts = new ScriptRunner(client, options, MasterPolicyWatch.over(client, options, ticker));
        this.outbox = options.outbox() == RedisStoreOptions.Outbox.NONE ? Option.none()
                : Option.some(new RedisRecordOutbox(keys, scripts));
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
     * <p>The stream {@code <prefix>:outbox}, read through the consumer group {@code exporters}, when the
     * options turned export on ({@link RedisStoreOptions.Outbox#KEYS} or {@link RedisStoreOptions.Outbox#RECORDS});
     * else none.
     */
    @Override
    public Option<RecordOutbox> outbox() {
        return outbox.map(RecordOutbox.class::cast);
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
        long ttl = ttlMillis(start.ttl());
        ScriptArgs.Begin args = new ScriptArgs.Begin(keys.record(key), keys.runState(key.runId()),
                keys.pending(key, start.token()), start.token().value(),
                RecordCodec.packedFingerprint(record.requestFingerprint()), ttl, start.runCallBudget(),
                start.toolCallBudget(), start.runToken().value(), RedisKeys.toolCounterField(record.tool()),
                RedisKeys.ledgerField(key.toolCallId()), RedisKeys.endMarkField(key.toolCallId()),
                marks.seen(key.runId(), start.runToken()),
                RecordCodec.projecting(record, start.token(), ttl - ttlMillis(start.lease())));
        return scripts.run(LuaScripts.BEGIN, args, timeout)
                .flatMap(reply -> ScriptReplies.begin(reply, record, start.token(),
                        calls -> marks.saw(key.runId(), start.runToken(), calls)));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One round trip of two commands in one pipeline: the whole final record, encoded once, into the
     * attempt's pending key ({@code SET ... XX KEEPTTL}), then {@code complete.lua}, which renames it over the
     * record when it holds exactly that record ({@link FinalRecordWrite}). The record's size, with a
     * {@link #recordCapBytes() record cap}, is checked here, before anything is sent.
     */
    @Override
    public Either<StoreFailure, CanonicalRecord.Final> complete(AttemptToken token, CanonicalRecord.Final record,
            Duration timeout) {
        requireNonNull(token, "token is null");
        requireNonNull(record, "record is null");
        requireNonNull(timeout, "timeout is null");
        if (record.byteSize() > options.recordCapBytes().orElse(Long.MAX_VALUE)) {
            return Either.left(StoreFailure.refused(Refusal.TOO_LARGE));
        }
        InvocationKey key = record.key();
        String pending = keys.pending(key, token);
        FinalRecordWrite write = new FinalRecordWrite(pending, RecordCodec.completed(record, token));
        ScriptArgs.Complete args = new ScriptArgs.Complete(keys.record(key), pending, token.value(),
                write.utf8().length, export(key));
        return scripts.run(LuaScripts.COMPLETE, args, timeout, Option.some(write))
                .flatMap(reply -> ScriptReplies.complete(reply, record, token));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One script, one round trip: when the record is PROJECTING with this token, it is rewritten in
     * ERROR, keeping its TTL; when there is none, the attempt is marked as ended in its run's state.
     */
    @Override
    public Either<StoreFailure, CanonicalRecord.Final> end(InvocationKey key, AttemptToken token, ErrorCode code,
            Instant now, Duration timeout) {
        requireNonNull(key, "key is null");
        requireNonNull(token, "token is null");
        requireNonNull(code, "code is null");
        requireNonNull(now, "now is null");
        requireNonNull(timeout, "timeout is null");
        ScriptArgs.End args = new ScriptArgs.End(keys.record(key), keys.runState(key.runId()),
                keys.pending(key, token), token.value(), RedisKeys.endMarkField(key.toolCallId()),
                RecordCodec.endedOutcome(code, now), export(key));
        return scripts.run(LuaScripts.END, args, timeout)
                .flatMap(reply -> ScriptReplies.end(reply, key, token));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the record, then runs {@code abandon.lua} on the token it read, which compares the lease with
     * the server's own clock (the record's remaining TTL, to the millisecond); {@code now} only becomes
     * {@code updatedAt}. A record that changed hands in between is read again.
     */
    @Override
    public Either<StoreFailure, CanonicalRecord.Failed> abandon(InvocationKey key, Instant now, Duration timeout) {
        requireNonNull(key, "key is null");
        requireNonNull(now, "now is null");
        requireNonNull(timeout, "timeout is null");
        long deadline = System.nanoTime() + Math.max(timeout.toNanos(), 0L);
        while (true) {
            Either<StoreFailure, Option<RecordCodec.Stored>> read = findStored(key, left(deadline));
            if (read.isLeft()) {
                return Either.left(read.getLeft());
            }
            if (read.get().isEmpty()) {
                return Either.left(StoreFailure.refused(Refusal.EXPIRED));
            }
            RecordCodec.Stored stored = read.get().get();
            if (!(stored.record() instanceof CanonicalRecord.Projecting)) {
                return ScriptReplies.abandoned(stored.record());
            }
            ScriptArgs.Abandon args = new ScriptArgs.Abandon(keys.record(key), keys.pending(key, stored.token()),
                    stored.token().value(), RecordCodec.endedOutcome(ErrorCode.EXECUTION_ABANDONED, now),
                    export(key));
            Either<StoreFailure, Option<CanonicalRecord.Failed>> done = scripts.run(LuaScripts.ABANDON, args,
                    left(deadline)).flatMap(reply -> ScriptReplies.abandon(reply, key));
            if (done.isLeft() || done.get().isDefined()) {
                return done.map(Option::get);
            }
        }
    }

    @Override
    public Either<StoreFailure, Option<CanonicalRecord>> find(InvocationKey key, Duration timeout) {
        requireNonNull(key, "key is null");
        requireNonNull(timeout, "timeout is null");
        return findStored(key, timeout).map(found -> found.map(RecordCodec.Stored::record));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One round trip: {@code findall.lua} ({@code MGET}) over the records' keys, all under the run's hash
     * tag; none when no call is named.
     */
    @Override
    public Either<StoreFailure, Map<ToolCallId, CanonicalRecord>> findAll(RunId runId, Set<ToolCallId> toolCallIds,
            Duration timeout) {
        CanonicalInvocationStore.requireFindAll(runId, toolCallIds, timeout);
        if (toolCallIds.isEmpty()) {
            return Either.right(Map.of());
        }
        List<InvocationKey> named = toolCallIds.stream().map(id -> InvocationKey.of(runId, id)).toList();
        return scripts.run(LuaScripts.FIND_ALL, new ScriptArgs.FindAll(named.stream().map(keys::record).toList()),
                        timeout)
                .flatMap(reply -> ScriptReplies.findAll(reply, named));
    }

    /**
     * {@inheritDoc}
     *
     * <p>One round trip: {@code referencability.lua} reads the first bytes of each record ({@code GETRANGE}), cut
     * after its status and outcome, under the run's hash tag; none when no call is named.
     */
    @Override
    public Either<StoreFailure, Map<ToolCallId, Referencability>> referencabilities(RunId runId,
            Set<ToolCallId> toolCallIds, Duration timeout) {
        CanonicalInvocationStore.requireFindAll(runId, toolCallIds, timeout);
        if (toolCallIds.isEmpty()) {
            return Either.right(Map.of());
        }
        List<InvocationKey> named = toolCallIds.stream().map(id -> InvocationKey.of(runId, id)).toList();
        return scripts.run(LuaScripts.REFERENCABILITY,
                        new ScriptArgs.FindAll(named.stream().map(keys::record).toList()), timeout)
                .flatMap(reply -> ScriptReplies.referencabilities(reply, named));
    }

    private Either<StoreFailure, Option<RecordCodec.Stored>> findStored(InvocationKey key, Duration timeout) {
        return scripts.run(LuaScripts.FIND, new ScriptArgs.Find(keys.record(key)), timeout)
                .flatMap(reply -> ScriptReplies.find(reply, key));
    }

    /** The outbox entry a script that makes {@code key}'s record final appends, when export is on. */
    private Option<ScriptArgs.Export> export(InvocationKey key) {
        return outbox.isEmpty() ? Option.none() : Option.some(new ScriptArgs.Export(keys.outbox(), key.runId().value(),
                key.toolCallId().value(), options.outbox() == RedisStoreOptions.Outbox.RECORDS));
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0L, deadline - System.nanoTime()));
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

    private static long ttlMillis(Duration ttl) {
        if (ttl.compareTo(Duration.ofMillis(MAX_TTL_MILLIS)) >= 0) {
            return MAX_TTL_MILLIS;
        }
        long millis = ttl.toMillis();
        return ttl.equals(Duration.ofMillis(millis)) ? Math.max(1, millis) : millis + 1;
    }
}
