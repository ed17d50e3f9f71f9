package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.spi.OutboxBacklog;
import io.toolboundary.application.spi.OutboxEntry;
import io.toolboundary.application.spi.RecordOutbox;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Redis store's outbox: the stream {@code <prefix>:outbox}, to which {@code complete.lua}, {@code end.lua}
 * and {@code abandon.lua} append each record they make final, read by exporters through the consumer group
 * {@value RedisKeys#OUTBOX_GROUP}; an acknowledged entry is deleted from the stream, and the records lost
 * before export are counted in {@code <prefix>:outbox:lost}. Neither key has a TTL.
 *
 * <p>Each method is one script ({@code poll.lua}, {@code acknowledge.lua}, {@code backlog.lua}), one round
 * trip, with the store's retries, timeouts and failure mapping: none throws for a Redis failure, and no
 * answer carries a key or a payload. A {@code poll} that may have reached Redis without an answer is
 * {@code STORE_OUTCOME_UNKNOWN}: what it took stays pending and is delivered again after {@code claimIdle}.
 * An entry this store did not write (a field missing or unknown, an id or a carried record that does not
 * parse) makes {@code poll} answer {@code STORE_DATA_INVALID}, every time it is due, until an operator
 * removes it ({@code XACK} and {@code XDEL}). Refuses Redis Cluster (see {@link #refuseOnCluster}).
 */
final class RedisRecordOutbox implements RecordOutbox {

    private static final Pattern CONSUMER = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");
    /** A stream id as Redis writes it: two decimal numbers below 2^64, here at most 19 digits each. */
    private static final Pattern STREAM_ID = Pattern.compile("(0|[1-9][0-9]{0,18})-(0|[1-9][0-9]{0,18})");
    private static final Pattern COUNT = Pattern.compile("0|[1-9][0-9]{0,17}");
    /** The longest {@code claimIdle} sent: 100 years, which no entry is idle for. */
    private static final Duration LONGEST_CLAIM_IDLE = Duration.ofDays(36_500);

    private final String stream;
    private final String lostTally;
    private final ScriptRunner scripts;

    RedisRecordOutbox(RedisKeys keys, ScriptRunner scripts) {
        this.stream = keys.outbox();
        this.lostTally = keys.outboxLost();
        this.scripts = requireNonNull(scripts, "scripts is null");
    }

    /**
     * Refuses an outbox on Redis Cluster: each record's script runs on the master of its run's slot and
     * cannot append to one stream that lives in another slot.
     *
     * @throws IllegalArgumentException when {@code cluster} and the options turn export on
     */
    static void refuseOnCluster(boolean cluster, RedisStoreOptions options) {
        if (cluster && options.outbox() != RedisStoreOptions.Outbox.NONE) {
            throw new IllegalArgumentException("RedisStoreOptions.outbox(" + options.outbox() + ") is refused on a"
                    + " Redis Cluster: each record's script runs in its run's slot and cannot append to one outbox"
                    + " stream in another; use a standalone server or Sentinel, or Outbox.NONE");
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code poll.lua}: {@code XAUTOCLAIM} (entries idle at least {@code claimIdle}, rounded up to whole
     * milliseconds), then {@code XREADGROUP ... >} for the rest; creates the consumer group when it is missing
     * (the first poll, or a restart without persistence), so that entries appended before are delivered.
     * Answers {@code STORE_DATA_INVALID} when an entry due does not parse.
     *
     * @throws IllegalArgumentException when {@code consumer} is not 1 to 64 of {@code [A-Za-z0-9_.:-]},
     *     {@code max} is below 1 or {@code claimIdle} is negative
     */
    @Override
    public Either<StoreFailure, List<OutboxEntry>> poll(String consumer, int max, Duration claimIdle,
            Duration timeout) {
        requireNonNull(consumer, "consumer is null");
        requireNonNull(claimIdle, "claimIdle is null");
        requireNonNull(timeout, "timeout is null");
        if (!CONSUMER.matcher(consumer).matches()) {
            throw new IllegalArgumentException("consumer must be 1 to 64 of [A-Za-z0-9_.:-]");
        }
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive, was " + max);
        }
        if (claimIdle.isNegative()) {
            throw new IllegalArgumentException("claimIdle must not be negative, was " + claimIdle);
        }
        return scripts.run(LuaScripts.POLL, new ScriptArgs.Poll(stream, RedisKeys.OUTBOX_GROUP, consumer,
                        ceilMillis(claimIdle), max), timeout)
                .flatMap(RedisRecordOutbox::entries);
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code acknowledge.lua}: per entry {@code XACK}, and {@code XDEL} when that acknowledged it; then
     * {@code INCRBY} of the lost tally. An id that is not a stream id is of no entry of this outbox: it is
     * neither sent nor counted. No round trip when no entry is left.
     */
    @Override
    public Either<StoreFailure, Integer> acknowledge(List<OutboxEntry> entries, List<OutboxEntry> lost,
            Duration timeout) {
        requireNonNull(entries, "entries is null");
        requireNonNull(lost, "lost is null");
        requireNonNull(timeout, "timeout is null");
        Set<String> lostIds = new HashSet<>();
        lost.forEach(entry -> lostIds.add(entry.id()));
        Set<String> lostAcknowledged = new LinkedHashSet<>();
        Set<String> exported = new LinkedHashSet<>();
        for (OutboxEntry entry : entries) {
            String id = entry.id();
            if (STREAM_ID.matcher(id).matches()) {
                (lostIds.contains(id) ? lostAcknowledged : exported).add(id);
            }
        }
        if (lostAcknowledged.isEmpty() && exported.isEmpty()) {
            return Either.right(0);
        }
        ScriptArgs.Acknowledge args = new ScriptArgs.Acknowledge(stream, lostTally, RedisKeys.OUTBOX_GROUP,
                List.copyOf(lostAcknowledged), List.copyOf(exported));
        return scripts.run(LuaScripts.ACKNOWLEDGE, args, timeout).flatMap(reply -> {
            List<String> values = strings(reply);
            if (values == null || values.size() != 1 || !COUNT.matcher(values.get(0)).matches()) {
                return invalid();
            }
            long removed = Long.parseLong(values.get(0));
            return removed <= entries.size() ? Either.right((int) removed) : invalid();
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code backlog.lua}: {@code XLEN}, the first entry ({@code XRANGE - + COUNT 1}), whose id's
     * milliseconds are {@code oldest}, and the lost tally ({@code GET}). A read: a failure is
     * {@code STORE_UNAVAILABLE} or {@code STORE_DATA_INVALID}, never an unknown outcome.
     */
    @Override
    public Either<StoreFailure, OutboxBacklog> backlog(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        return scripts.run(LuaScripts.BACKLOG, new ScriptArgs.Backlog(stream, lostTally), timeout)
                .mapLeft(failure -> failure.kind() == StoreFailure.Kind.OUTCOME_UNKNOWN
                        ? StoreFailure.unavailable() : failure)
                .flatMap(reply -> {
                    List<String> values = strings(reply);
                    if (values == null || values.size() != 3 || !COUNT.matcher(values.get(0)).matches()
                            || !COUNT.matcher(values.get(2)).matches()) {
                        return invalid();
                    }
                    long length = Long.parseLong(values.get(0));
                    Option<Instant> oldest = Option.none();
                    if (!values.get(1).isEmpty()) {
                        Option<Instant> appended = appendedAt(values.get(1));
                        if (appended.isEmpty()) {
                            return invalid();
                        }
                        oldest = appended;
                    }
                    if ((length == 0) != oldest.isEmpty()) {
                        return invalid();
                    }
                    return Either.right(new OutboxBacklog(length, oldest, Long.parseLong(values.get(2))));
                });
    }

    /** The entries of {@code poll.lua}'s flat reply: per entry its id, its field count, its fields. */
    private static Either<StoreFailure, List<OutboxEntry>> entries(Object reply) {
        List<String> values = strings(reply);
        if (values == null) {
            return invalid();
        }
        List<OutboxEntry> entries = new ArrayList<>();
        int at = 0;
        while (at < values.size()) {
            if (at + 2 > values.size() || !COUNT.matcher(values.get(at + 1)).matches()) {
                return invalid();
            }
            long fields = Long.parseLong(values.get(at + 1));
            if (fields > values.size() - at - 2) {
                return invalid();
            }
            Option<OutboxEntry> entry = entry(values.get(at), values.subList(at + 2, at + 2 + (int) fields));
            if (entry.isEmpty()) {
                return invalid();
            }
            entries.add(entry.get());
            at += 2 + (int) fields;
        }
        return Either.right(List.copyOf(entries));
    }

    /**
     * One entry: {@code r <runId> c <toolCallId>}, and {@code v <record>} when it carries the final record,
     * in any order, each once; none when anything is missing, unknown, repeated or does not parse.
     */
    private static Option<OutboxEntry> entry(String id, List<String> fields) {
        Option<Instant> appendedAt = appendedAt(id);
        if (appendedAt.isEmpty() || fields.size() % 2 != 0) {
            return Option.none();
        }
        String runId = null;
        String toolCallId = null;
        String value = null;
        for (int i = 0; i < fields.size(); i += 2) {
            String field = fields.get(i);
            String text = fields.get(i + 1);
            switch (field) {
                case "r" -> {
                    if (runId != null) {
                        return Option.none();
                    }
                    runId = text;
                }
                case "c" -> {
                    if (toolCallId != null) {
                        return Option.none();
                    }
                    toolCallId = text;
                }
                case "v" -> {
                    if (value != null) {
                        return Option.none();
                    }
                    value = text;
                }
                default -> {
                    return Option.none();
                }
            }
        }
        if (runId == null || toolCallId == null) {
            return Option.none();
        }
        Either<?, RunId> run = RunId.of(runId);
        Either<?, ToolCallId> call = ToolCallId.of(toolCallId);
        if (run.isLeft() || call.isLeft()) {
            return Option.none();
        }
        InvocationKey key = InvocationKey.of(run.get(), call.get());
        Option<CanonicalRecord.Final> record = Option.none();
        if (value != null) {
            Either<StoreFailure, RecordCodec.Stored> decoded = RecordCodec.decode(key, value);
            if (decoded.isLeft() || !(decoded.get().record() instanceof CanonicalRecord.Final done)) {
                return Option.none();
            }
            record = Option.some(done);
        }
        return Option.some(new OutboxEntry(id, key, appendedAt.get(), record));
    }

    /** When the entry {@code id} was appended: its milliseconds part; none when it is not a stream id. */
    private static Option<Instant> appendedAt(String id) {
        if (!STREAM_ID.matcher(id).matches()) {
            return Option.none();
        }
        try {
            return Option.some(Instant.ofEpochMilli(Long.parseLong(id.substring(0, id.indexOf('-')))));
        } catch (NumberFormatException | java.time.DateTimeException outOfRange) {
            return Option.none();
        }
    }

    /** The reply as a list of strings; null when it is anything else. */
    private static List<String> strings(Object reply) {
        if (!(reply instanceof List<?> items)) {
            return null;
        }
        List<String> values = new ArrayList<>(items.size());
        for (Object item : items) {
            if (!(item instanceof String text)) {
                return null;
            }
            values.add(text);
        }
        return values;
    }

    /** {@code duration} in whole milliseconds, rounded up, at most {@link #LONGEST_CLAIM_IDLE}'s. */
    private static long ceilMillis(Duration duration) {
        if (duration.compareTo(LONGEST_CLAIM_IDLE) >= 0) {
            return LONGEST_CLAIM_IDLE.toMillis();
        }
        long millis = duration.toMillis();
        return duration.equals(Duration.ofMillis(millis)) ? millis : millis + 1;
    }

    private static <T> Either<StoreFailure, T> invalid() {
        return Either.left(StoreFailure.dataInvalid());
    }
}
