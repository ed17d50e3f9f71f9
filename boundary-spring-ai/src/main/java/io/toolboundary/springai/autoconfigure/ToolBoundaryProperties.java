package io.toolboundary.springai.autoconfigure;

import io.toolboundary.application.ToolBoundaryConfig;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DataSizeUnit;
import org.springframework.util.unit.DataSize;
import org.springframework.util.unit.DataUnit;

/**
 * The {@code toolboundary.*} properties. Sizes take a unit ({@code 64KB}, {@code 1MB}; 1 KB = 1024 bytes)
 * or are plain numbers of bytes; durations take a unit ({@code 30m}, {@code 24h}). The defaults are those of
 * {@link ToolBoundaryConfig}; the values are checked when the {@link ToolBoundaryConfig} is built, so an
 * invalid one stops the application context from starting.
 */
@ConfigurationProperties(prefix = "toolboundary")
public class ToolBoundaryProperties {

    /** Byte limits, each counted in UTF-8. */
    private final Limits limits = new Limits();

    /** Time to live of each canonical record, set once when it is created. */
    private Duration recordTtl = ToolBoundaryConfig.DEFAULT_RECORD_TTL;

    /** Bounds of the JSON arguments parser. */
    private final Json json = new Json();

    /** The Redis store, used when a RedissonClient bean exists. */
    private final Redis redis = new Redis();

    public Limits getLimits() {
        return limits;
    }

    public Duration getRecordTtl() {
        return recordTtl;
    }

    public void setRecordTtl(Duration recordTtl) {
        this.recordTtl = recordTtl;
    }

    public Json getJson() {
        return json;
    }

    public Redis getRedis() {
        return redis;
    }

    /** The boundary's settings described by these properties. */
    ToolBoundaryConfig toConfig() {
        return ToolBoundaryConfig.custom()
                .requestLimitBytes(limits.getRequest().toBytes())
                .rawResponseLimitBytes(limits.getRawResponse().toBytes())
                .recordLimitBytes(limits.getRecord().toBytes())
                .agentResultLimitBytes(limits.getAgentResult().toBytes())
                .recordTtl(recordTtl)
                .maxJsonDepth(json.getMaxDepth())
                .maxNumberLength(json.getMaxNumberLength())
                .build();
    }

    /** {@code toolboundary.limits.*}: byte limits, plain numbers read as bytes. */
    public static class Limits {

        /** Largest tool arguments text. */
        @DataSizeUnit(DataUnit.BYTES)
        private DataSize request = DataSize.ofBytes(ToolBoundaryConfig.DEFAULT_REQUEST_BYTES);

        /** Largest raw tool response; a larger one ends the call in RESULT_TOO_LARGE, never truncated. */
        @DataSizeUnit(DataUnit.BYTES)
        private DataSize rawResponse = DataSize.ofBytes(ToolBoundaryConfig.DEFAULT_RAW_RESPONSE_BYTES);

        /** Largest whole canonical record; also the Redis store's record limit. */
        @DataSizeUnit(DataUnit.BYTES)
        private DataSize record = DataSize.ofBytes(ToolBoundaryConfig.DEFAULT_RECORD_BYTES);

        /** Largest agent result (content and scope). */
        @DataSizeUnit(DataUnit.BYTES)
        private DataSize agentResult = DataSize.ofBytes(ToolBoundaryConfig.DEFAULT_AGENT_RESULT_BYTES);

        public DataSize getRequest() {
            return request;
        }

        public void setRequest(DataSize request) {
            this.request = request;
        }

        public DataSize getRawResponse() {
            return rawResponse;
        }

        public void setRawResponse(DataSize rawResponse) {
            this.rawResponse = rawResponse;
        }

        public DataSize getRecord() {
            return record;
        }

        public void setRecord(DataSize record) {
            this.record = record;
        }

        public DataSize getAgentResult() {
            return agentResult;
        }

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

        public int getMaxDepth() {
            return maxDepth;
        }

        public void setMaxDepth(int maxDepth) {
            this.maxDepth = maxDepth;
        }

        public int getMaxNumberLength() {
            return maxNumberLength;
        }

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

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public EvictionPolicyCheck getEvictionPolicyCheck() {
            return evictionPolicyCheck;
        }

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
