package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * The boundary's settings. Immutable; built with {@link #ofDefaults()} or {@link #custom()}, and
 * validated when built.
 */
public final class ToolBoundaryConfig {

    /** Tool arguments: 64 KiB of UTF-8. */
    public static final long DEFAULT_ARGUMENTS_BYTES = Limits.DEFAULT_ARGUMENTS_BYTES;
    /** Raw tool response: 1 MiB of UTF-8. */
    public static final long DEFAULT_RAW_RESPONSE_BYTES = Limits.DEFAULT_RAW_RESPONSE_BYTES;
    /** Whole canonical record: 1.25 MiB of UTF-8. */
    public static final long DEFAULT_RECORD_BYTES = Limits.DEFAULT_RECORD_BYTES;
    /** Agent result (content and scope): 8 KiB of UTF-8. */
    public static final long DEFAULT_AGENT_RESULT_BYTES = Limits.DEFAULT_AGENT_RESULT_BYTES;
    /** Record time to live: 24 hours, set once at creation. */
    public static final Duration DEFAULT_RECORD_TTL = Duration.ofHours(24);
    /**
     * Execution lease: 5 minutes from the record's creation (cut short by the run's deadline), after
     * which a record still PROJECTING may be abandoned.
     */
    public static final Duration DEFAULT_EXECUTION_LEASE = Duration.ofMinutes(5);
    /**
     * Store budget: 4 seconds of store I/O at most in one {@code invoke}, every retry and clean-up
     * included.
     */
    public static final Duration DEFAULT_STORE_TIMEOUT = Duration.ofSeconds(4);
    /** The shortest store budget: 10 ms. */
    public static final Duration MIN_STORE_TIMEOUT = Duration.ofMillis(10);
    /** The longest store budget: 10 minutes. */
    public static final Duration MAX_STORE_TIMEOUT = Duration.ofMinutes(10);
    /** Deepest nesting of objects and arrays in the arguments: 64 levels. */
    public static final int DEFAULT_MAX_JSON_DEPTH = 64;
    /** Longest number literal in the arguments: 100 characters. */
    public static final int DEFAULT_MAX_NUMBER_LENGTH = 100;

    private static final ToolBoundaryConfig DEFAULTS = custom().build();

    private final Limits limits;
    private final Duration recordTtl;
    private final Duration executionLease;
    private final Duration storeTimeout;
    private final int maxJsonDepth;
    private final int maxNumberLength;
    private final boolean replayReadyDuplicates;

    private ToolBoundaryConfig(ToolBoundaryConfig config, boolean replayReadyDuplicates) {
        this.limits = config.limits;
        this.recordTtl = config.recordTtl;
        this.executionLease = config.executionLease;
        this.storeTimeout = config.storeTimeout;
        this.maxJsonDepth = config.maxJsonDepth;
        this.maxNumberLength = config.maxNumberLength;
        this.replayReadyDuplicates = replayReadyDuplicates;
    }

    private ToolBoundaryConfig(Builder builder) {
        this.limits = new Limits(builder.argumentsBytes, builder.rawResponseBytes, builder.recordBytes,
                builder.agentResultBytes);
        this.recordTtl = builder.recordTtl;
        this.executionLease = builder.executionLease;
        this.storeTimeout = builder.storeTimeout;
        this.maxJsonDepth = builder.maxJsonDepth;
        this.maxNumberLength = builder.maxNumberLength;
        this.replayReadyDuplicates = builder.replayReadyDuplicates;
    }

    /** {@return the documented defaults} */
    public static ToolBoundaryConfig ofDefaults() {
        return DEFAULTS;
    }

    /** {@return a builder starting from the defaults} */
    public static Builder custom() {
        return new Builder();
    }

    Limits limits() {
        return limits;
    }

    /** {@return the largest arguments JSON accepted, in UTF-8 bytes} */
    public long argumentsLimitBytes() {
        return limits.argumentsBytes();
    }

    /** {@return the largest raw response kept, in UTF-8 bytes} */
    public long rawResponseLimitBytes() {
        return limits.rawResponseBytes();
    }

    /** {@return the largest whole record, in UTF-8 bytes} */
    public long recordLimitBytes() {
        return limits.recordBytes();
    }

    /** {@return the largest agent result, in UTF-8 bytes} */
    public long agentResultLimitBytes() {
        return limits.agentResultBytes();
    }

    /** {@return how long a record lives after creation} */
    public Duration recordTtl() {
        return recordTtl;
    }

    /**
     * {@return how long after its creation a record may stay PROJECTING before it may be abandoned (the run's deadline
     * cuts it short)}
     */
    public Duration executionLease() {
        return executionLease;
    }

    /**
     * {@return the most time one {@code invoke} waits for the store, retries and clean-ups included} Calls before the
     * tool runs never wait past the run's deadline. Also the timeout of each harness-side store call.
     */
    public Duration storeTimeout() {
        return storeTimeout;
    }

    /** {@return the deepest JSON nesting accepted in arguments} */
    public int maxJsonDepth() {
        return maxJsonDepth;
    }

    /** {@return the longest JSON number literal accepted in arguments, in characters} */
    public int maxNumberLength() {
        return maxNumberLength;
    }

    /**
     * {@return whether a duplicate call is answered from its READY record; false unless set (see
     * {@link Builder#replayReadyDuplicates(boolean)})}
     */
    public boolean replayReadyDuplicates() {
        return replayReadyDuplicates;
    }

    /**
     * {@return this config with duplicates replayed from READY records or not, every other setting the same}
     *
     * @param replay see {@link Builder#replayReadyDuplicates(boolean)}
     */
    public ToolBoundaryConfig withReplayReadyDuplicates(boolean replay) {
        return new ToolBoundaryConfig(this, replay);
    }

    @Override
    public String toString() {
        return "ToolBoundaryConfig[" + limits + ", recordTtl=" + recordTtl + ", executionLease=" + executionLease + ", storeTimeout=" + storeTimeout
                + ", maxJsonDepth=" + maxJsonDepth
                + ", maxNumberLength=" + maxNumberLength + ", replayReadyDuplicates=" + replayReadyDuplicates + "]";
    }

    /** Builds a config; each setter rejects an invalid value at once. */
    public static final class Builder {
        private long argumentsBytes = DEFAULT_ARGUMENTS_BYTES;
        private long rawResponseBytes = DEFAULT_RAW_RESPONSE_BYTES;
        private long recordBytes = DEFAULT_RECORD_BYTES;
        private long agentResultBytes = DEFAULT_AGENT_RESULT_BYTES;
        private Duration recordTtl = DEFAULT_RECORD_TTL;
        private Duration executionLease = DEFAULT_EXECUTION_LEASE;
        private Duration storeTimeout = DEFAULT_STORE_TIMEOUT;
        private int maxJsonDepth = DEFAULT_MAX_JSON_DEPTH;
        private int maxNumberLength = DEFAULT_MAX_NUMBER_LENGTH;
        private boolean replayReadyDuplicates;

        private Builder() {
        }

        /**
         * Whether a call whose key holds a READY record of the same tool and arguments is answered with that
         * record's agent result again ({@link BoundaryListener#onReplayed}), for an agent resumed from a
         * checkpoint; one store read per duplicate. False (the default and the specification's rule): every
         * duplicate is {@code DUPLICATE_TOOL_CALL}. The tool never runs again either way.
         *
         * @param replay whether READY records answer duplicates
         * @return this builder
         */
        public Builder replayReadyDuplicates(boolean replay) {
            this.replayReadyDuplicates = replay;
            return this;
        }

        /**
         * Limit of the arguments, in UTF-8 bytes.
         *
         * @param bytes the limit; positive
         * @return this builder
         */
        public Builder argumentsLimitBytes(long bytes) {
            this.argumentsBytes = positive(bytes, "argumentsLimitBytes");
            return this;
        }

        /**
         * Limit of the raw tool response, in UTF-8 bytes.
         *
         * @param bytes the limit; positive
         * @return this builder
         */
        public Builder rawResponseLimitBytes(long bytes) {
            this.rawResponseBytes = positive(bytes, "rawResponseLimitBytes");
            return this;
        }

        /**
         * Limit of the whole record, in UTF-8 bytes.
         *
         * @param bytes the limit; positive
         * @return this builder
         */
        public Builder recordLimitBytes(long bytes) {
            this.recordBytes = positive(bytes, "recordLimitBytes");
            return this;
        }

        /**
         * Limit of the agent result (content and scope), in UTF-8 bytes.
         *
         * @param bytes the limit; positive
         * @return this builder
         */
        public Builder agentResultLimitBytes(long bytes) {
            this.agentResultBytes = positive(bytes, "agentResultLimitBytes");
            return this;
        }

        /**
         * Time to live of each record, set once when it is created; at least one millisecond.
         *
         * @param ttl the time to live
         * @return this builder
         */
        public Builder recordTtl(Duration ttl) {
            requireNonNull(ttl, "recordTtl is null");
            if (ttl.toMillis() < 1) {
                throw new IllegalArgumentException("recordTtl must be at least 1 ms, was " + ttl);
            }
            this.recordTtl = ttl;
            return this;
        }

        /**
         * How long a tool may run: a record still PROJECTING this long after its creation (or at the
         * run's deadline, if that comes first) may be ended as {@code EXECUTION_ABANDONED}. At least one
         * millisecond. Choose it longer than the slowest tool, or a slow call is ended while it runs.
         *
         * @param lease the execution lease
         * @return this builder
         */
        public Builder executionLease(Duration lease) {
            requireNonNull(lease, "executionLease is null");
            if (lease.toMillis() < 1) {
                throw new IllegalArgumentException("executionLease must be at least 1 ms, was " + lease);
            }
            this.executionLease = lease;
            return this;
        }

        /**
         * Deepest nesting of objects and arrays in the arguments, 1 or more.
         *
         * @param depth the deepest nesting accepted
         * @return this builder
         */
        public Builder maxJsonDepth(int depth) {
            this.maxJsonDepth = (int) positive(depth, "maxJsonDepth");
            return this;
        }

        /**
         * Longest number literal in the arguments, in characters, 1 or more.
         *
         * @param length the longest number literal accepted, in characters
         * @return this builder
         */
        public Builder maxNumberLength(int length) {
            this.maxNumberLength = (int) positive(length, "maxNumberLength");
            return this;
        }

        /**
         * The most time one {@code invoke} may spend waiting for the store: 10 ms to 10 minutes, whole
         * milliseconds. See {@link ToolBoundaryConfig#storeTimeout()}.
         *
         * @param timeout the store budget of one call
         * @return this builder
         */
        public Builder storeTimeout(Duration timeout) {
            requireNonNull(timeout, "storeTimeout is null");
            if (timeout.compareTo(MIN_STORE_TIMEOUT) < 0 || timeout.compareTo(MAX_STORE_TIMEOUT) > 0
                    || !timeout.equals(Duration.ofMillis(timeout.toMillis()))) {
                throw new IllegalArgumentException(
                        "storeTimeout must be 10 ms to 10 minutes in whole milliseconds, was " + timeout);
            }
            this.storeTimeout = timeout;
            return this;
        }

        /**
         * {@return the validated config}
         *
         * @throws IllegalArgumentException when the limits do not nest (request and raw response must
         *     each fit in the record)
         */
        public ToolBoundaryConfig build() {
            if (argumentsBytes > recordBytes || rawResponseBytes > recordBytes) {
                throw new IllegalArgumentException("argumentsLimitBytes and rawResponseLimitBytes must not exceed recordLimitBytes");
            }
            return new ToolBoundaryConfig(this);
        }

        private static long positive(long value, String field) {
            if (value <= 0) {
                throw new IllegalArgumentException(field + " must be positive, was " + value);
            }
            return value;
        }
    }
}
