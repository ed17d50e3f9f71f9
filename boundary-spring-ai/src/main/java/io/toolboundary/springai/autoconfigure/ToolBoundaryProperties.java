package io.toolboundary.springai.autoconfigure;

import io.toolboundary.application.ToolBoundaryConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
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

    /** Export of final records to the application's SQL database. */
    private final Export export = new Export();

    /** {@return whether the boundary is configured at all ({@code toolboundary.enabled}); {@code true} by default} */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled {@code toolboundary.enabled}: {@code false} to run without the boundary */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return which store keeps the records ({@code toolboundary.store}); {@link Store#AUTO} by default} */
    public Store getStore() {
        return store;
    }

    /** @param store {@code toolboundary.store}: auto, redis or memory; {@code null} fails validation */
    public void setStore(Store store) {
        this.store = store;
    }

    /** {@return the execution lease ({@code toolboundary.execution-lease}); 5 minutes by default} */
    public Duration getExecutionLease() {
        return executionLease;
    }

    /** @param executionLease {@code toolboundary.execution-lease}: the lease, at least 1 ms */
    public void setExecutionLease(Duration executionLease) {
        this.executionLease = executionLease;
    }

    /** {@return the byte limits ({@code toolboundary.limits.*}), bound in place} */
    public Limits getLimits() {
        return limits;
    }

    /** {@return each record's TTL, set at creation ({@code toolboundary.record-ttl}); 24 hours by default} */
    public Duration getRecordTtl() {
        return recordTtl;
    }

    /** @param recordTtl {@code toolboundary.record-ttl}: the TTL, at least 1 ms */
    public void setRecordTtl(Duration recordTtl) {
        this.recordTtl = recordTtl;
    }

    /** {@return the JSON parser's bounds ({@code toolboundary.json.*}), bound in place} */
    public Json getJson() {
        return json;
    }

    /** {@return the Redis store's settings ({@code toolboundary.redis.*}), bound in place} */
    public Redis getRedis() {
        return redis;
    }

    /** {@return the export's settings ({@code toolboundary.export.*}), bound in place} */
    public Export getExport() {
        return export;
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

        /** {@return the largest arguments text ({@code toolboundary.limits.arguments}); 64 KB by default} */
        public DataSize getArguments() {
            return arguments;
        }

        /** @param arguments {@code toolboundary.limits.arguments}: 1 byte to 512 MB, at most the record limit */
        public void setArguments(DataSize arguments) {
            this.arguments = arguments;
        }

        /** {@return the largest raw response ({@code toolboundary.limits.raw-response}); 1 MB by default} */
        public DataSize getRawResponse() {
            return rawResponse;
        }

        /** @param rawResponse {@code toolboundary.limits.raw-response}: 1 byte to 512 MB, at most the record limit */
        public void setRawResponse(DataSize rawResponse) {
            this.rawResponse = rawResponse;
        }

        /** {@return the largest record, also Redis's ({@code toolboundary.limits.record}); 1.25 MB by default} */
        public DataSize getRecord() {
            return record;
        }

        /** @param record {@code toolboundary.limits.record}: 1 byte to 512 MB, at least every other limit */
        public void setRecord(DataSize record) {
            this.record = record;
        }

        /** {@return the largest agent result ({@code toolboundary.limits.agent-result}); 8 KB by default} */
        public DataSize getAgentResult() {
            return agentResult;
        }

        /** @param agentResult {@code toolboundary.limits.agent-result}: 1 byte to 512 MB, at most the record limit */
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

        /** {@return the deepest nesting of the arguments ({@code toolboundary.json.max-depth}); 64 by default} */
        public int getMaxDepth() {
            return maxDepth;
        }

        /** @param maxDepth {@code toolboundary.json.max-depth}: the depth, 1 to 1000 */
        public void setMaxDepth(int maxDepth) {
            this.maxDepth = maxDepth;
        }

        /** {@return the longest number literal in characters ({@code toolboundary.json.max-number-length}); 100 by default} */
        public int getMaxNumberLength() {
            return maxNumberLength;
        }

        /** @param maxNumberLength {@code toolboundary.json.max-number-length}: the length in characters, 1 to 10000 */
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

        /** {@return the first segment of every key ({@code toolboundary.redis.key-prefix}), {@code toolboundary} by default} */
        public String getKeyPrefix() {
            return keyPrefix;
        }

        /** @param keyPrefix {@code toolboundary.redis.key-prefix}: 1 to 64 characters of {@code [A-Za-z0-9_.:-]} */
        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        /** {@return what to do when a master may evict ({@code toolboundary.redis.eviction-policy-check}); REFUSE by default} */
        public EvictionPolicyCheck getEvictionPolicyCheck() {
            return evictionPolicyCheck;
        }

        /** @param evictionPolicyCheck {@code toolboundary.redis.eviction-policy-check}: refuse or warn; not null */
        public void setEvictionPolicyCheck(EvictionPolicyCheck evictionPolicyCheck) {
            this.evictionPolicyCheck = evictionPolicyCheck;
        }
    }

    /**
     * {@code toolboundary.export.*}: export of each final record, once, to the application's own SQL database
     * (MariaDB, MySQL, PostgreSQL) by a {@code RecordExporter} running beside the boundary; off by default.
     * Policies and the outbox's kind are written in lower case ({@code mask}, {@code keys}), any case taken.
     */
    public static class Export {

        /** Whether the store keeps an outbox and a RecordExporter writes its records to the context's DataSource. */
        private boolean enabled;

        /** What each outbox entry holds: keys (the exporter reads the record from the store) or records (the whole record). */
        private String outbox = "keys";

        /** The most entries the in-memory store's outbox holds; when full, the oldest is dropped and counted as lost. */
        private long outboxCapacity = 100_000;

        /** What is written of raw responses: keep, mask (credentials masked) or omit. */
        private String rawResponses = "mask";

        /** The raw response policy of single tools (keep, mask or omit), by tool name; a name with ':' goes in brackets. */
        private Map<String, String> rawResponsesByTool = new LinkedHashMap<>();

        /** The most records per round, written in one transaction. */
        private int batchSize = 100;

        /** How long an entry another exporter took stays unacknowledged before this one takes it over. */
        private Duration claimIdle = Duration.ofSeconds(30);

        /** The pause after a round that found nothing to export. */
        private Duration pollInterval = Duration.ofMillis(500);

        /** The name this exporter takes outbox entries under, unique per running exporter; exporter-PID-RANDOM when unset. */
        private String consumer;

        /** {@return whether export is on ({@code toolboundary.export.enabled}); {@code false} by default} */
        public boolean isEnabled() {
            return enabled;
        }

        /** @param enabled {@code toolboundary.export.enabled}: {@code true} to export records */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return what each outbox entry holds ({@code toolboundary.export.outbox}); {@code keys} by default} */
        public String getOutbox() {
            return outbox;
        }

        /** @param outbox {@code toolboundary.export.outbox}: keys or records */
        public void setOutbox(String outbox) {
            this.outbox = outbox;
        }

        /** {@return the in-memory outbox's capacity ({@code toolboundary.export.outbox-capacity}); 100000 by default} */
        public long getOutboxCapacity() {
            return outboxCapacity;
        }

        /** @param outboxCapacity {@code toolboundary.export.outbox-capacity}: 1 or more entries */
        public void setOutboxCapacity(long outboxCapacity) {
            this.outboxCapacity = outboxCapacity;
        }

        /** {@return the raw response policy of every tool ({@code toolboundary.export.raw-responses}); {@code mask} by default} */
        public String getRawResponses() {
            return rawResponses;
        }

        /** @param rawResponses {@code toolboundary.export.raw-responses}: keep, mask or omit */
        public void setRawResponses(String rawResponses) {
            this.rawResponses = rawResponses;
        }

        /** {@return the raw response policies of single tools ({@code toolboundary.export.raw-responses-by-tool.*}), bound in place} */
        public Map<String, String> getRawResponsesByTool() {
            return rawResponsesByTool;
        }

        /** @param rawResponsesByTool {@code toolboundary.export.raw-responses-by-tool.*}: tool name to keep, mask or omit */
        public void setRawResponsesByTool(Map<String, String> rawResponsesByTool) {
            this.rawResponsesByTool = rawResponsesByTool;
        }

        /** {@return the most records per round ({@code toolboundary.export.batch-size}); 100 by default} */
        public int getBatchSize() {
            return batchSize;
        }

        /** @param batchSize {@code toolboundary.export.batch-size}: 1 to 10000 */
        public void setBatchSize(int batchSize) {
            this.batchSize = batchSize;
        }

        /** {@return how long a taken entry stays idle before it is taken over ({@code toolboundary.export.claim-idle}); 30 seconds by default} */
        public Duration getClaimIdle() {
            return claimIdle;
        }

        /** @param claimIdle {@code toolboundary.export.claim-idle}: at least 1 ms, longer than a round takes */
        public void setClaimIdle(Duration claimIdle) {
            this.claimIdle = claimIdle;
        }

        /** {@return the pause after an empty round ({@code toolboundary.export.poll-interval}); 500 ms by default} */
        public Duration getPollInterval() {
            return pollInterval;
        }

        /** @param pollInterval {@code toolboundary.export.poll-interval}: at least 1 ms */
        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        /** {@return the exporter's consumer name ({@code toolboundary.export.consumer}); unset by default} */
        public String getConsumer() {
            return consumer;
        }

        /** @param consumer {@code toolboundary.export.consumer}: 1 to 64 characters of {@code [A-Za-z0-9_.:-]} */
        public void setConsumer(String consumer) {
            this.consumer = consumer;
        }

        /** {@return whether outbox entries carry whole records ({@code outbox=records})} */
        boolean carriesRecords() {
            return "records".equalsIgnoreCase(outbox == null ? "" : outbox.strip());
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
