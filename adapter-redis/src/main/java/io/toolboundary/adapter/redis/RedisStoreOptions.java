package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Option;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * Settings of the Redis store. Immutable; built with {@link #ofDefaults()} or {@link #custom()} and
 * validated when set.
 */
public final class RedisStoreOptions {

    /** The first segment of every key: {@code toolboundary}. */
    public static final String DEFAULT_KEY_PREFIX = "toolboundary";
    /** What to do when the server may evict records: refuse to start. */
    public static final EvictionPolicyCheck DEFAULT_EVICTION_POLICY_CHECK = EvictionPolicyCheck.REFUSE;
    /** The longest key prefix, in characters. */
    public static final int MAX_KEY_PREFIX_LENGTH = 64;
    /** How long the factory's {@code connect…} methods wait for a TCP connection to a server: 5 seconds. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /**
     * How long the store waits for the reply to one script before it tries again: 1 second. The store
     * keeps trying, safely (every script is idempotent by its token), until the timeout of the operation
     * runs out; then the operation ends as {@code STORE_OUTCOME_UNKNOWN}, or {@code STORE_UNAVAILABLE}
     * when no try can have reached the server.
     */
    public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(1);
    /** The longest connect or response timeout, and the longest wait for replicas: one minute. */
    public static final Duration MAX_TIMEOUT = Duration.ofMinutes(1);
    /**
     * How often, at most, the store looks for masters it has not checked yet (after a failover or a
     * cluster topology change): 10 seconds.
     */
    public static final Duration DEFAULT_MASTER_CHECK_INTERVAL = Duration.ofSeconds(10);
    /** The longest {@link #masterCheckInterval()}: one hour. */
    public static final Duration MAX_MASTER_CHECK_INTERVAL = Duration.ofHours(1);

    /**
     * What the factory does when a server's {@code maxmemory-policy} is not {@code noeviction}, and what
     * the store does when a master it meets later (see {@link Builder#masterCheckInterval(Duration)})
     * has another policy: under any other policy Redis may delete live records (every record has a TTL,
     * so even {@code volatile-*} policies apply to them).
     */
    public enum EvictionPolicyCheck {
        /**
         * Refuse to create the store: the factory throws {@link IllegalStateException}; and, for a master
         * met later, log once and answer {@code STORE_UNAVAILABLE} to every write until it is fixed.
         */
        REFUSE,
        /** Create the store and log a warning; for a master met later, log once and write on. */
        WARN
    }

    /**
     * How many replicas must have each write before the store reports it done, and how long Redis waits
     * for them: the arguments of the {@code WAIT} command the store sends right after each writing
     * script, on the same connection. See {@link Builder#replicaAcknowledgement(int, Duration)}.
     *
     * @param replicas how many replicas must acknowledge a write; at least 1
     * @param timeout how long Redis waits for them; 1 ms to 1 minute, in whole milliseconds
     */
    public record ReplicaAcknowledgement(int replicas, Duration timeout) {

        /**
         * Checks the values.
         *
         * @param replicas how many replicas must acknowledge a write; at least 1
         * @param timeout how long Redis waits for them; 1 ms to 1 minute, in whole milliseconds
         * @throws IllegalArgumentException when {@code replicas} is below 1, or {@code timeout} is under
         *     1 ms, over 1 minute or not a whole number of milliseconds ({@code WAIT} counts milliseconds,
         *     and its 0 would mean waiting for ever)
         * @throws NullPointerException when {@code timeout} is null
         */
        public ReplicaAcknowledgement {
            if (replicas < 1) {
                throw new IllegalArgumentException("replicaAcknowledgement replicas must be at least 1, was " + replicas);
            }
            Builder.timeout("replicaAcknowledgement timeout", timeout);
        }
    }

    /**
     * Whether the store appends each record, as it becomes final, to an outbox for export
     * ({@code store.outbox()}, read by an exporter such as {@code RecordExporter}), and what each entry holds.
     * See {@link Builder#outbox(Outbox)}.
     */
    public enum Outbox {
        /** No outbox: the store appends nothing and {@code store.outbox()} is none. The default. */
        NONE,
        /**
         * Each entry names the record by its run id and tool_call_id; the exporter reads the record from
         * the store, so a record whose TTL ended before the exporter reached it is counted as lost. One
         * more command per record made final.
         */
        KEYS,
        /**
         * Each entry holds the whole final record as well, so the exporter reaches it even after its TTL
         * ended, at the cost of a second copy of every record in Redis until it is acknowledged. Two more
         * commands per completion ({@code GET}, {@code XADD}), one per end or abandonment.
         */
        RECORDS
    }

    private static final RedisStoreOptions DEFAULTS = custom().build();

    private final String keyPrefix;
    private final long recordCapBytes;
    private final EvictionPolicyCheck evictionPolicyCheck;
    private final Duration connectTimeout;
    private final Duration responseTimeout;
    private final Option<ReplicaAcknowledgement> replicaAcknowledgement;
    private final Duration masterCheckInterval;
    private final Outbox outbox;

    private RedisStoreOptions(Builder builder) {
        this.keyPrefix = builder.keyPrefix;
        this.recordCapBytes = builder.recordCapBytes;
        this.evictionPolicyCheck = builder.evictionPolicyCheck;
        this.connectTimeout = builder.connectTimeout;
        this.responseTimeout = builder.responseTimeout;
        this.replicaAcknowledgement = builder.replicaAcknowledgement;
        this.masterCheckInterval = builder.masterCheckInterval;
        this.outbox = builder.outbox;
    }

    /**
     * Prefix {@code toolboundary}, no record cap of the store's own, refuse an evicting server, connect
     * timeout 5 s, response timeout 1 s, no replica acknowledgement, new masters looked for every 10 s, no
     * outbox.
     *
     * @return the shared default options
     */
    public static RedisStoreOptions ofDefaults() {
        return DEFAULTS;
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a new builder holding the values of {@link #ofDefaults()}
     */
    public static Builder custom() {
        return new Builder();
    }

    /**
     * The first segment of every key.
     *
     * @return the key prefix, {@value #DEFAULT_KEY_PREFIX} unless set otherwise
     */
    public String keyPrefix() {
        return keyPrefix;
    }

    /**
     * The store's own hard cap on a record, in UTF-8 bytes as {@code CanonicalRecord.byteSize()} counts
     * them, if one was set; none by default, when the boundary's configured record limit alone applies.
     *
     * @return the cap in UTF-8 bytes, or empty when no cap was set
     */
    public OptionalLong recordCapBytes() {
        return recordCapBytes == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(recordCapBytes);
    }

    /**
     * What to do when the server may evict records.
     *
     * @return {@link EvictionPolicyCheck#REFUSE} (the default) or {@link EvictionPolicyCheck#WARN}
     */
    public EvictionPolicyCheck evictionPolicyCheck() {
        return evictionPolicyCheck;
    }

    /**
     * How long the factory's {@code connect…} methods wait for a TCP connection. A store made from a
     * Redisson {@code Config} or client uses that config's own setting instead.
     *
     * @return the connect timeout, 1 ms to 1 minute; 5 seconds by default
     */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /**
     * How long the store waits for one reply before trying again, whichever way it was made (the store's
     * own scripts use this, not the Redisson config's {@code timeout} or {@code retryAttempts}). The
     * whole operation is bounded by the timeout the caller passes.
     *
     * @return the timeout of one reply, 1 ms to 1 minute; 1 second by default
     */
    public Duration responseTimeout() {
        return responseTimeout;
    }

    /**
     * How many replicas must have each write before the store reports it done, when that was asked for;
     * none by default. See {@link Builder#replicaAcknowledgement(int, Duration)}.
     *
     * @return the replicas and the time Redis waits for them, or empty when writes are not waited for
     */
    public Option<ReplicaAcknowledgement> replicaAcknowledgement() {
        return replicaAcknowledgement;
    }

    /**
     * How often, at most, the store looks for masters it has not checked yet; see
     * {@link Builder#masterCheckInterval(Duration)}.
     *
     * @return the interval, 1 ms to 1 hour; 10 seconds by default
     */
    public Duration masterCheckInterval() {
        return masterCheckInterval;
    }

    /**
     * Whether the store keeps an outbox of final records for export, and what its entries hold; see
     * {@link Builder#outbox(Outbox)}.
     *
     * @return {@link Outbox#NONE} (the default), {@link Outbox#KEYS} or {@link Outbox#RECORDS}
     */
    public Outbox outbox() {
        return outbox;
    }

    @Override
    public String toString() {
        return "RedisStoreOptions[keyPrefix=" + keyPrefix + ", recordCapBytes=" + recordCapBytes()
                + ", evictionPolicyCheck=" + evictionPolicyCheck + ", connectTimeout=" + connectTimeout
                + ", responseTimeout=" + responseTimeout + ", replicaAcknowledgement="
                + replicaAcknowledgement.map(ReplicaAcknowledgement::toString).getOrElse("none")
                + ", masterCheckInterval=" + masterCheckInterval + ", outbox=" + outbox + "]";
    }

    /** Builds options; each setter rejects an invalid value at once. */
    public static final class Builder {
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private long recordCapBytes = Long.MAX_VALUE;
        private EvictionPolicyCheck evictionPolicyCheck = DEFAULT_EVICTION_POLICY_CHECK;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration responseTimeout = DEFAULT_RESPONSE_TIMEOUT;
        private Option<ReplicaAcknowledgement> replicaAcknowledgement = Option.none();
        private Duration masterCheckInterval = DEFAULT_MASTER_CHECK_INTERVAL;
        private Outbox outbox = Outbox.NONE;

        private Builder() {
        }

        /**
         * The first segment of every key: 1 to 64 characters of {@code [A-Za-z0-9_.:-]} (no braces, so
         * that the run id stays the only hash tag).
         *
         * @param prefix the key prefix
         * @return this builder
         * @throws IllegalArgumentException when {@code prefix} is empty, longer than
         *     {@value RedisStoreOptions#MAX_KEY_PREFIX_LENGTH} characters, or holds another character
         */
        public Builder keyPrefix(String prefix) {
            requireNonNull(prefix, "keyPrefix is null");
            if (prefix.isEmpty() || prefix.length() > MAX_KEY_PREFIX_LENGTH
                    || !prefix.chars().allMatch(Builder::allowedInPrefix)) {
                throw new IllegalArgumentException(
                        "keyPrefix must be 1 to " + MAX_KEY_PREFIX_LENGTH + " characters of [A-Za-z0-9_.:-]");
            }
            this.keyPrefix = prefix;
            return this;
        }

        /**
         * A hard cap on a record, in UTF-8 bytes; positive. A boundary whose configured record limit is
         * larger refuses this store when it is built.
         *
         * @param bytes the cap, in UTF-8 bytes as {@code CanonicalRecord.byteSize()} counts them
         * @return this builder
         * @throws IllegalArgumentException when {@code bytes} is zero or negative
         */
        public Builder recordCapBytes(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("recordCapBytes must be positive, was " + bytes);
            }
            this.recordCapBytes = bytes;
            return this;
        }

        /**
         * What to do when the server's {@code maxmemory-policy} is not {@code noeviction}.
         *
         * @param check {@link EvictionPolicyCheck#REFUSE} to make the factory throw, or
         *     {@link EvictionPolicyCheck#WARN} to log a warning and create the store anyway
         * @return this builder
         */
        public Builder evictionPolicyCheck(EvictionPolicyCheck check) {
            this.evictionPolicyCheck = requireNonNull(check, "evictionPolicyCheck is null");
            return this;
        }

        /**
         * How long the factory's {@code connect…} methods wait for a TCP connection: 1 ms to 1 minute, whole
         * milliseconds.
         *
         * @param timeout the connect timeout
         * @return this builder
         * @throws IllegalArgumentException when {@code timeout} is under 1 ms, over 1 minute, or not a whole
         *     number of milliseconds
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout("connectTimeout", timeout);
            return this;
        }

        /**
         * How long a store made by a {@code connect…} method waits for one reply: 1 ms to 1 minute, whole
         * milliseconds.
         *
         * @param timeout the timeout of one reply, after which the store tries the script again
         * @return this builder
         * @throws IllegalArgumentException when {@code timeout} is under 1 ms, over 1 minute, or not a whole
         *     number of milliseconds
         */
        public Builder responseTimeout(Duration timeout) {
            this.responseTimeout = timeout("responseTimeout", timeout);
            return this;
        }

        /**
         * Makes every script that writes ({@code begin}, {@code complete}, {@code end}, {@code abandon})
         * wait until at least {@code replicas} replicas have the write: {@code WAIT replicas timeout} goes
         * right behind the script, in the same pipeline. No {@code WAIT} is sent when this is not set.
         *
         * <p>When fewer replicas acknowledge in time, the write is on the master but a failover could still
         * lose it, so the operation answers {@code STORE_OUTCOME_UNKNOWN} at once: at {@code begin} the tool
         * does not run; at {@code complete} the agent gets {@code STORE_OUTCOME_UNKNOWN} instead of the
         * result and the harness is told the call is unfinished; {@code end} and {@code abandon} may be tried
         * again later. A script that refused and wrote nothing keeps its answer whatever the replicas say; one
         * that only confirms an earlier write of the same attempt is followed by a rewrite of the record's
         * status with its own value and another {@code WAIT}, so that the acknowledgement covers that write.
         * Choose {@code timeout} well below half of {@code ToolBoundaryConfig.storeTimeout}, for example 100
         * to 500 ms. Asking for more replicas than the master has makes every write answer
         * {@code STORE_OUTCOME_UNKNOWN}.
         *
         * @param replicas how many replicas must acknowledge each write; at least 1
         * @param timeout how long Redis waits for them: 1 ms to 1 minute, whole milliseconds
         * @return this builder
         * @throws IllegalArgumentException when {@code replicas} is below 1, or {@code timeout} is under
         *     1 ms, over 1 minute or not a whole number of milliseconds
         */
        public Builder replicaAcknowledgement(int replicas, Duration timeout) {
            this.replicaAcknowledgement = Option.some(new ReplicaAcknowledgement(replicas, timeout));
            return this;
        }

        /**
         * How often, at most, the store looks for masters it has not checked yet (a master a failover
         * promoted, a new cluster master) and checks their {@code maxmemory-policy}, once each. A master
         * that may evict records is logged once; under {@link EvictionPolicyCheck#REFUSE} every write then
         * answers {@code STORE_UNAVAILABLE}, writing nothing, until a later look finds it fixed or gone. A
         * policy changed later on a master already checked is not seen.
         *
         * @param interval the interval: 1 ms to 1 hour, whole milliseconds
         * @return this builder
         * @throws IllegalArgumentException when {@code interval} is under 1 ms, over 1 hour or not a whole
         *     number of milliseconds
         */
        public Builder masterCheckInterval(Duration interval) {
            requireNonNull(interval, "masterCheckInterval is null");
            if (interval.compareTo(Duration.ofMillis(1)) < 0 || interval.compareTo(MAX_MASTER_CHECK_INTERVAL) > 0
                    || !interval.equals(Duration.ofMillis(interval.toMillis()))) {
                throw new IllegalArgumentException(
                        "masterCheckInterval must be 1 ms to 1 hour in whole milliseconds, was " + interval);
            }
            this.masterCheckInterval = interval;
            return this;
        }

        /**
         * Turns export on ({@link Outbox#KEYS} or {@link Outbox#RECORDS}) or off ({@link Outbox#NONE}, the
         * default). With export on, the scripts that make a record final ({@code complete.lua},
         * {@code end.lua}, {@code abandon.lua}) append one entry to the stream {@code <prefix>:outbox} in
         * the same atomic step, and {@code store.outbox()} reads it for exporters (consumer group
         * {@code exporters}). The stream and its tally of lost records, {@code <prefix>:outbox:lost}, have
         * no TTL: an entry stays until an exporter acknowledges it, so an outbox nobody reads grows without
         * bound (watch {@code outbox().backlog()}). Needs Redis 6.2 or later ({@code XAUTOCLAIM}).
         *
         * <p>Refused on Redis Cluster: a record's script runs in its run's slot and cannot append to one
         * stream that lives in another, so the factory throws {@link IllegalArgumentException} for a
         * cluster client, config or seed list with export on. Use a standalone server or Sentinel.
         *
         * @param outbox what each entry holds, or {@link Outbox#NONE} for no outbox
         * @return this builder
         */
        public Builder outbox(Outbox outbox) {
            this.outbox = requireNonNull(outbox, "outbox is null");
            return this;
        }

        /**
         * The options.
         *
         * @return immutable options holding the values set on this builder
         */
        public RedisStoreOptions build() {
            return new RedisStoreOptions(this);
        }

        private static Duration timeout(String name, Duration timeout) {
            requireNonNull(timeout, name + " is null");
            if (timeout.compareTo(Duration.ofMillis(1)) < 0 || timeout.compareTo(MAX_TIMEOUT) > 0
                    || !timeout.equals(Duration.ofMillis(timeout.toMillis()))) {
                throw new IllegalArgumentException(name + " must be 1 ms to 1 minute in whole milliseconds, was " + timeout);
            }
            return timeout;
        }

        private static boolean allowedInPrefix(int c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '.' || c == ':' || c == '-';
        }
    }
}
