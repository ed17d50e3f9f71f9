package io.toolboundary.springai.autoconfigure;

import io.toolboundary.domain.ToolName;
import io.toolboundary.springai.autoconfigure.ToolBoundaryProperties.Export;
import io.toolboundary.springai.autoconfigure.ToolBoundaryProperties.Json;
import io.toolboundary.springai.autoconfigure.ToolBoundaryProperties.Limits;
import io.toolboundary.springai.autoconfigure.ToolBoundaryProperties.Redis;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.BindingResult;
import org.springframework.validation.Errors;
import org.springframework.validation.FieldError;

/**
 * The checks {@link ToolBoundaryProperties#validate(Object, Errors)} runs on bound properties: every value
 * against its range, then the limits against the record limit. Errors are reported under the properties'
 * own (dashed) names, relative to {@code toolboundary}, as Spring Boot's report shows them.
 */
final class ToolBoundaryPropertiesValidation {

    /** Largest byte limit accepted: Redis's own limit of one value, 512 MB. */
    static final DataSize MAX_LIMIT = DataSize.ofMegabytes(512);

    private static final Pattern KEY_PREFIX = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");
    /** An exporter's consumer name, as {@code RecordExporter} takes it. */
    private static final Pattern CONSUMER = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");
    /** The raw response policies, as written in properties. */
    static final Set<String> RAW_POLICIES = Set.of("keep", "mask", "omit");
    /** The kinds of outbox entry, as written in properties. */
    static final Set<String> OUTBOXES = Set.of("keys", "records");
    /** The largest {@code toolboundary.export.batch-size}: {@code RecordExporter}'s own bound. */
    static final int MAX_BATCH_SIZE = 10_000;

    private ToolBoundaryPropertiesValidation() {
    }

    /**
     * Rejects into {@code errors} each value of {@code properties} out of range, each limit above the record,
     * and each export setting that {@code RecordExporter} or the store would refuse (checked whether export
     * is on or not, as every other value is).
     */
    static void validate(ToolBoundaryProperties properties, Errors errors) {
        checkRanges(properties, errors);
        checkNesting(properties.getLimits(), errors);
        checkExport(properties.getExport(), errors);
    }

    private static void checkExport(Export export, Errors errors) {
        if (!OUTBOXES.contains(lower(export.getOutbox()))) {
            errors.rejectValue("export.outbox", "value", "must be keys or records");
        }
        if (export.getOutboxCapacity() < 1) {
            errors.rejectValue("export.outbox-capacity", "range", "must be at least 1 entry");
        }
        if (!RAW_POLICIES.contains(lower(export.getRawResponses()))) {
            errors.rejectValue("export.raw-responses", "value", "must be keep, mask or omit");
        }
        Map<String, String> byTool = export.getRawResponsesByTool();
        if (byTool == null) {
            errors.rejectValue("export.raw-responses-by-tool", "required", "must be a map of tool name to keep, mask or omit");
        } else {
            byTool.forEach((tool, policy) -> {
                if (ToolName.of(tool).isLeft()) {
                    errors.rejectValue("export.raw-responses-by-tool", "tool",
                            "names '" + tool + "', which is not a tool name (1 to " + ToolName.MAX_LENGTH
                                    + " characters of [A-Za-z0-9_.:-])");
                } else if (!RAW_POLICIES.contains(lower(policy))) {
                    errors.rejectValue("export.raw-responses-by-tool", "value",
                            "of tool '" + tool + "' must be keep, mask or omit");
                }
            });
        }
        if (export.getBatchSize() < 1 || export.getBatchSize() > MAX_BATCH_SIZE) {
            errors.rejectValue("export.batch-size", "range", "must be 1 to " + MAX_BATCH_SIZE);
        }
        atLeastOneMillisecond(errors, "export.claim-idle", export.getClaimIdle());
        atLeastOneMillisecond(errors, "export.poll-interval", export.getPollInterval());
        if (export.getConsumer() != null && !CONSUMER.matcher(export.getConsumer()).matches()) {
            errors.rejectValue("export.consumer", "pattern", "must be 1 to 64 characters of [A-Za-z0-9_.:-]");
        }
    }

    /** {@code value} stripped and in lower case; empty for null. */
    static String lower(String value) {
        return value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
    }

    private static void checkRanges(ToolBoundaryProperties properties, Errors errors) {
        Limits limits = properties.getLimits();
        Json json = properties.getJson();
        Redis redis = properties.getRedis();
        atLeastOneMillisecond(errors, "record-ttl", properties.getRecordTtl());
        atLeastOneMillisecond(errors, "execution-lease", properties.getExecutionLease());
        size(errors, "limits.arguments", limits.getArguments());
        size(errors, "limits.raw-response", limits.getRawResponse());
        size(errors, "limits.record", limits.getRecord());
        size(errors, "limits.agent-result", limits.getAgentResult());
        if (json.getMaxDepth() < 1 || json.getMaxDepth() > 1000) {
            errors.rejectValue("json.max-depth", "range", "must be 1 to 1000");
        }
        if (json.getMaxNumberLength() < 1 || json.getMaxNumberLength() > 10_000) {
            errors.rejectValue("json.max-number-length", "range", "must be 1 to 10000 characters");
        }
        if (redis.getKeyPrefix() == null || !KEY_PREFIX.matcher(redis.getKeyPrefix()).matches()) {
            errors.rejectValue("redis.key-prefix", "pattern", "must be 1 to 64 characters of [A-Za-z0-9_.:-]");
        }
        if (properties.getStore() == null) {
            errors.rejectValue("store", "required", "must be auto, redis or memory");
        }
        if (redis.getEvictionPolicyCheck() == null) {
            errors.rejectValue("redis.eviction-policy-check", "required", "must be refuse or warn");
        }
    }

    private static void checkNesting(Limits limits, Errors errors) {
        DataSize record = limits.getRecord();
        if (record == null || errors.hasFieldErrors("limits.record")) {
            return;
        }
        String bound = "must not exceed toolboundary.limits.record (" + record.toBytes() + " bytes)";
        nested(errors, "limits.arguments", limits.getArguments(), record, bound);
        nested(errors, "limits.raw-response", limits.getRawResponse(), record, bound);
        nested(errors, "limits.agent-result", limits.getAgentResult(), record, bound);
    }

    private static void nested(Errors errors, String field, DataSize size, DataSize record, String bound) {
        if (size != null && !errors.hasFieldErrors(field) && size.toBytes() > record.toBytes()) {
            errors.rejectValue(field, "nesting", bound);
        }
    }

    private static void atLeastOneMillisecond(Errors errors, String field, Duration duration) {
        if (duration == null || duration.toMillis() < 1) {
            String message = "must be at least 1ms (for example 30m or 24h)";
            if (duration != null && errors instanceof BindingResult result) {
                // Shown as written in properties ("-5s"), not as Java prints a Duration ("PT-5S").
                result.addError(new FieldError(result.getObjectName(), field, written(duration),
                        false, new String[] {"range"}, null, message));
            } else {
                errors.rejectValue(field, "range", message);
            }
        }
    }

    /** {@code duration} as a property would be written: in the largest unit that states it exactly. */
    private static String written(Duration duration) {
        for (ChronoUnit unit : List.of(ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES, ChronoUnit.SECONDS)) {
            if (duration.toNanos() % unit.getDuration().toNanos() == 0) {
                return DurationStyle.SIMPLE.print(duration, unit);
            }
        }
        return DurationStyle.SIMPLE.print(duration);
    }

    private static void size(Errors errors, String field, DataSize size) {
        if (size == null || size.toBytes() < 1 || size.toBytes() > MAX_LIMIT.toBytes()) {
            errors.rejectValue(field, "range", "must be 1 byte to 512MB");
        }
    }
}
