package io.toolboundary.springai.autoconfigure;

import io.toolboundary.application.ToolBoundaryConfig;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DataSizeUnit;
import org.springframework.util.unit.DataSize;
import org.springframework.util.unit.DataUnit;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The {@code toolboundary.*} properties: sizes with a unit ({@code 64KB}; 1 KB = 1024 bytes) or in bytes,
 * durations with a unit ({@code 30m}), defaults those of {@link ToolBoundaryConfig}. As a Spring
 * {@link Validator}, it stops the application at binding on a value out of range or limits that do not nest,
 * naming the property, its value and the allowed range.
 */
@ConfigurationProperties(prefix = "toolboundary")
public class ToolBoundaryProperties implements Validator {

    /** Whether the tool boundary is configured at all; {@code false} is the one explicit opt-out. */
    private boolean enabled = true;

    /** Which store keeps the canonical records: auto (Redis when a RedissonClient bean exists), redis or memory. */
    private Store store = Store.AUTO;

    /** How long a tool may run before its PROJECTING record may be ended as EXECUTION_ABANDONED. */
    private Duration executionLease = ToolBoundaryConfig.DEFAULT_EXECUTION_LEASE;

    /** Byte limits, each counted in UTF-8. */
    private final Limits limits = new Limits();

    /** Time to live of each canonical record, set once when it is created. */
    private Duration recordTtl = ToolBoundaryConfig.DEFAULT_RECORD_TTL;

    /** Bounds of the JSON arguments parser. */
    private final Json json = new Json();

    /** The Redis store. */
    private final Redis redis = new Redis();

    /**
     * Whether the tool boundary is configured at all ({@code toolboundary.enabled}).
     *
     * @return {@code true} (the default) to configure it; {@code false} switches all of it off
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets {@code toolboundary.enabled}.
     *
     * @param enabled {@code false} to run without the tool boundary, the one explicit opt-out
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Which store keeps the canonical records ({@code toolboundary.store}).
     *
     * @return the store choice; {@link Store#AUTO} by default
     */
    public Store getStore() {
        return store;
    }

    /**
     * Sets {@code toolboundary.store}.
     *
     * @param store auto, redis or memory; {@code null} fails validation
     */
    public void setStore(Store store) {
        this.store = store;
    }

    /**
     * How long a tool may run before its PROJECTING record may be ended as EXECUTION_ABANDONED
     * ({@code toolboundary.execution-lease}).
     *
     * @return the lease; {@link ToolBoundaryConfig#DEFAULT_EXECUTION_LEASE} (5 minutes) by default
     */
    public Duration getExecutionLease() {
        return executionLease;
    }

    /**
     * Sets {@code toolboundary.execution-lease}.
     *
     * @param executionLease the lease, at least 1 ms
     */
    public void setExecutionLease(Duration executionLease) {
        this.executionLease = executionLease;
    }

    /**
     * The byte limits ({@code toolboundary.limits.*}), each counted in UTF-8.
     *
     * @return the limits, bound in place
     */
    public Limits getLimits() {
        return limits;
    }

    /**
     * Time to live of each canonical record, set once when it is created
     * ({@code toolboundary.record-ttl}).
     *
     * @return the TTL; {@link ToolBoundaryConfig#DEFAULT_RECORD_TTL} (24 hours) by default
     */
    public Duration getRecordTtl() {
        return recordTtl;
    }

    /**
     * Sets {@code toolboundary.record-ttl}.
     *
     * @param recordTtl the TTL, at least 1 ms
     */
    public void setRecordTtl(Duration recordTtl) {
        this.recordTtl = recordTtl;
    }

    /**
     * The bounds of the JSON arguments parser ({@code toolboundary.json.*}).
     *
     * @return the bounds, bound in place
     */
    public Json getJson() {
        return json;
    }

    /**
     * The settings of the Redis store ({@code toolboundary.redis.*}).
     *
     * @return the Redis settings, bound in place
     */
    public Redis getRedis() {
        return redis;
    }

    /** The boundary's settings described by these properties. */
    ToolBoundaryConfig toConfig() {
        return ToolBoundaryConfig.custom()
                .argumentsLimitBytes(limits.getArguments().toBytes())
                .rawResponseLimitBytes(limits.getRawResponse().toBytes())
                .recordLimitBytes(limits.getRecord().toBytes())
                .agentResultLimitBytes(limits.getAgentResult().toBytes())
                .recordTtl(recordTtl)
                .executionLease(executionLease)
                .maxJsonDepth(json.getMaxDepth())
                .maxNumberLength(json.getMaxNumberLength())
                .build();
    }

    @Override
    public boolean supports(Class<?> type) {
        return ToolBoundaryProperties.class.isAssignableFrom(type);
    }

    /**
     * Checks every value against its range and the limits against each other; see the class comment. Errors
     * are reported under the properties' own (dashed) names, as Spring Boot's report shows them.
     */
    @Override
    public void validate(Object target, Errors errors) {
        ToolBoundaryPropertiesValidation.validate((ToolBoundaryProperties) target, errors);
    }

    /** Which store keeps the canonical records. */
    public enum Store {
        /** The Redis store when the context has a RedissonClient bean and adapter-redis is on the class path, else in memory. */
        AUTO,
        /** The Redis store; the application does not start without a RedissonClient bean and adapter-redis. */
        REDIS,
        /** The in-memory store, even when a RedissonClient bean exists. */
        MEMORY
    }

    /** {@code toolboundary.limits.*}: byte limits, plain numbers read as bytes. */
    public static class Limits {

        /** Largest tool arguments text. */
        @DataSizeUnit(DataUnit.BYTES)
        private DataSize arguments = DataSize.ofBytes(ToolBoundaryConfig.DEFAULT_ARGUMENTS_BYTES);

        /** Largest raw tool response; a larger one ends the call in RESULT_TOO_LARGE, never truncated. */
        @DataSizeUnit(DataUnit.BYTES)
        private DataSize rawResponse = DataSize.ofBytes(ToolBoundaryConfig.DEFAULT_RAW_RESPONSE_BYTES);

        /** Largest whole canonical record; also the Redis store's record limit. */
        @DataSizeUnit(DataUnit.BYTES)
        private DataSize record = DataSize.ofBytes(ToolBoundaryConfig.DEFAULT_RECORD_BYTES);

        /** Largest agent result (content and scope). */
        @DataSizeUnit(DataUnit.BYTES)
        private DataSize agentResult = DataSize.ofBytes(ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES);

        /**
         * Largest tool arguments text ({@code toolboundary.limits.arguments}).
         *
         * @return the limit in UTF-8 bytes; {@link ToolBoundaryConfig#DEFAULT_ARGUMENTS_BYTES} by default
         */
        public DataSize getArguments() {
            return arguments;
        }

        /**
         * Sets {@code toolboundary.limits.arguments}.
         *
         * @param arguments the limit, 1 byte to 512 MB and at most the record limit
         */
        public void setArguments(DataSize arguments) {
            this.arguments = arguments;
        }

        /**
         * Largest raw tool response ({@code toolboundary.limits.raw-response}); a larger one ends the
         * call in RESULT_TOO_LARGE, never truncated.
         *
         * @return the limit in UTF-8 bytes; {@link ToolBoundaryConfig#DEFAULT_RAW_RESPONSE_BYTES} by default
         */
        public DataSize getRawResponse() {
            return rawResponse;
        }

        /**
         * Sets {@code toolboundary.limits.raw-response}.
         *
         * @param rawResponse the limit, 1 byte to 512 MB and at most the record limit
         */
        public void setRawResponse(DataSize rawResponse) {
            this.rawResponse = rawResponse;
        }

        /**
         * Largest whole canonical record ({@code toolboundary.limits.record}); also the Redis store's
         * record limit.
         *
         * @return the limit in UTF-8 bytes; {@link ToolBoundaryConfig#DEFAULT_RECORD_BYTES} by default
         */
        public DataSize getRecord() {
            return record;
        }

        /**
         * Sets {@code toolboundary.limits.record}.
         *
         * @param record the limit, 1 byte to 512 MB; the other limits must not exceed it
         */
        public void setRecord(DataSize record) {
            this.record = record;
        }

        /**
         * Largest agent result, content and scope together ({@code toolboundary.limits.agent-result}).
         *
         * @return the limit in UTF-8 bytes; {@link ToolBoundaryConfig#DEFAULT_AGENT_RESULT_BYTES} by default
         */
        public DataSize getAgentResult() {
            return agentResult;
        }

        /**
         * Sets {@code toolboundary.limits.agent-result}.
         *
         * @param agentResult the limit, 1 byte to 512 MB and at most the record limit
         */
        public void setAgentResult(DataSize agentResult) {
            this.agentResult = agentResult;
        }
    }

    /** {@code toolboundary.json.*}: bounds of the arguments parser. */
    public static class Json {

        /** Deepest nesting of objects and arrays in the arguments. */
        private int maxDepth = ToolBoundaryConfig.DEFAULT_MAX_JSON_DEPTH;

        /** Longest number literal in the arguments, in characters. */
        private int maxNumberLength = ToolBoundaryConfig.DEFAULT_MAX_NUMBER_LENGTH;

        /**
         * Deepest nesting of objects and arrays in the arguments ({@code toolboundary.json.max-depth}).
         *
         * @return the depth; {@link ToolBoundaryConfig#DEFAULT_MAX_JSON_DEPTH} by default
         */
        public int getMaxDepth() {
            return maxDepth;
        }

        /**
         * Sets {@code toolboundary.json.max-depth}.
         *
         * @param maxDepth the depth, 1 to 1000
         */
        public void setMaxDepth(int maxDepth) {
            this.maxDepth = maxDepth;
        }

        /**
         * Longest number literal in the arguments, in characters
         * ({@code toolboundary.json.max-number-length}).
         *
         * @return the length in characters; {@link ToolBoundaryConfig#DEFAULT_MAX_NUMBER_LENGTH} by default
         */
        public int getMaxNumberLength() {
            return maxNumberLength;
        }

        /**
         * Sets {@code toolboundary.json.max-number-length}.
         *
         * @param maxNumberLength the length in characters, 1 to 10000
         */
        public void setMaxNumberLength(int maxNumberLength) {
            this.maxNumberLength = maxNumberLength;
        }
    }

    /** {@code toolboundary.redis.*}: the Redis store, used when a RedissonClient bean exists. */
    public static class Redis {

        /** First segment of every key. */
        private String keyPrefix = "toolboundary";

        /** What to do when a Redis master may evict records: refuse to start, or warn. */
        private EvictionPolicyCheck evictionPolicyCheck = EvictionPolicyCheck.REFUSE;

        /**
         * First segment of every key ({@code toolboundary.redis.key-prefix}).
         *
         * @return the prefix; {@code toolboundary} by default
         */
        public String getKeyPrefix() {
            return keyPrefix;
        }

        /**
         * Sets {@code toolboundary.redis.key-prefix}.
         *
         * @param keyPrefix 1 to 64 characters of {@code [A-Za-z0-9_.:-]}
         */
        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        /**
         * What to do when a Redis master may evict records
         * ({@code toolboundary.redis.eviction-policy-check}).
         *
         * @return {@link EvictionPolicyCheck#REFUSE} (the default) or {@link EvictionPolicyCheck#WARN}
         */
        public EvictionPolicyCheck getEvictionPolicyCheck() {
            return evictionPolicyCheck;
        }

        /**
         * Sets {@code toolboundary.redis.eviction-policy-check}.
         *
         * @param evictionPolicyCheck refuse to start, or warn; {@code null} fails validation
         */
        public void setEvictionPolicyCheck(EvictionPolicyCheck evictionPolicyCheck) {
            this.evictionPolicyCheck = evictionPolicyCheck;
        }
    }

    /** What the Redis store does when a server's {@code maxmemory-policy} is not {@code noeviction}. */
    public enum EvictionPolicyCheck {
        /** Refuse to create the store, so that the application does not start. */
        REFUSE,
        /** Create the store and log a warning. */
        WARN
    }
}
