package io.toolboundary.adapter.redis;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Outcome;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How a record lives in its Redis hash: one layout, one UTF-8 string field per value, instants as
 * ISO-8601 text ({@link Instant#toString()}, exact to the nanosecond). An optional value (raw response,
 * scope) is present exactly when its field is, so an empty string and "absent" stay different. The run id
 * and the tool call id are not in the hash: its key holds both.
 *
 * <p>The field names are declared here, once. The Lua scripts name the fields of
 * {@link #NAMED_BY_SCRIPTS} as literals (they read them, and {@code begin.lua} adds {@code leaseUntil});
 * every other field reaches them as an argument built here. A test reads the scripts and checks that the
 * field names they use are exactly those.
 *
 * <p>The execution lease is kept beside the record, not in it: field {@code leaseUntil}, as
 * {@code <epoch seconds>:<nanoseconds>} so that {@code abandon.lua} compares it exactly with Lua
 * numbers (whole seconds are clamped to ±(2<sup>53</sup>-1), some 285 million years, the range a Lua
 * number holds exactly).
 *
 * <p>The field {@code schema} holds {@link #SCHEMA_VERSION}; a hash with any other value, a field the
 * layout does not have, or a missing one is not a record this store wrote, and is read as invalid data.
 */
final class RecordCodec {

    static final String SCHEMA = "schema";
    static final String TOOL = "tool";
    static final String ARGUMENTS = "arguments";
    static final String FINGERPRINT = "fingerprint";
    static final String TOKEN = "token";
    static final String STATUS = "status";
    static final String CREATED_AT = "createdAt";
    static final String UPDATED_AT = "updatedAt";
    static final String EVIDENCE = "evidence";
    static final String RAW_RESPONSE = "rawResponse";
    static final String CONTENT = "content";
    static final String SCOPE = "scope";
    static final String ERROR_CODE = "errorCode";
    static final String LEASE_UNTIL = "leaseUntil";

    /** The version of this layout, stored in every record. */
    static final String SCHEMA_VERSION = "3";

    /** The fields the Lua scripts name as literals; the scripts name no other field. */
    static final Set<String> NAMED_BY_SCRIPTS = Set.of(TOKEN, STATUS, TOOL, ARGUMENTS, FINGERPRINT, ERROR_CODE,
            LEASE_UNTIL);

    /** The largest whole number of seconds a Lua number (a double) holds exactly. */
    private static final long MAX_EXACT_SECONDS = (1L << 53) - 1;
    private static final Pattern LEASE = Pattern.compile("(-?[0-9]{1,16}):([0-9]{9})");

    private static final Set<String> PROJECTING_FIELDS = Set.of(SCHEMA, TOOL, ARGUMENTS, FINGERPRINT, TOKEN,
            STATUS, CREATED_AT, LEASE_UNTIL);
    private static final Set<String> READY_ONLY_FIELDS = Set.of(UPDATED_AT, EVIDENCE, RAW_RESPONSE, CONTENT, SCOPE);
    private static final Set<String> ERROR_ONLY_FIELDS = Set.of(UPDATED_AT, EVIDENCE, RAW_RESPONSE, ERROR_CODE);

    private RecordCodec() {
    }

    /** A record as stored, with the token of the attempt that created it. */
    record Stored(CanonicalRecord record, AttemptToken token) {
    }

    /**
     * The fields of a new PROJECTING record, as field, value pairs; {@code begin.lua} adds its execution
     * lease, {@code leaseUntil}, by the server's clock.
     */
    static List<Object> projectingFields(CanonicalRecord.Projecting record, AttemptToken token) {
        List<Object> fields = new ArrayList<>(18);
        put(fields, SCHEMA, SCHEMA_VERSION);
        put(fields, TOOL, record.tool().value());
        put(fields, ARGUMENTS, record.arguments());
        put(fields, FINGERPRINT, record.requestFingerprint());
        put(fields, TOKEN, token.value());
        put(fields, STATUS, InvocationStatus.PROJECTING.name());
        put(fields, CREATED_AT, record.createdAt().toString());
        return fields;
    }

    /** The fields abandonment writes over a PROJECTING record, as field, value pairs. */
    static List<Object> abandonedFields(Instant now) {
        return failedFields(ErrorCode.EXECUTION_ABANDONED, now);
    }

    /** The fields that end a PROJECTING record in ERROR with {@code code} and no raw response, in pairs. */
    static List<Object> failedFields(ErrorCode code, Instant now) {
        List<Object> fields = new ArrayList<>(8);
        put(fields, STATUS, InvocationStatus.ERROR.name());
        put(fields, UPDATED_AT, now.toString());
        put(fields, EVIDENCE, EvidenceStatus.ERROR.name());
        put(fields, ERROR_CODE, code.name());
        return fields;
    }

    /** An instant's whole seconds since the epoch, as {@code abandon.lua} compares them (clamped, see above). */
    static String seconds(Instant instant) {
        return Long.toString(Math.max(-MAX_EXACT_SECONDS, Math.min(MAX_EXACT_SECONDS, instant.getEpochSecond())));
    }

    /** An instant's nanoseconds within its second, nine digits. */
    static String nanos(Instant instant) {
        String digits = Integer.toString(instant.getNano());
        return "000000000".substring(digits.length()) + digits;
    }

    /** The fields a completion with {@code outcome} writes over a PROJECTING record, as field, value pairs. */
    static List<Object> outcomeFields(Outcome outcome) {
        List<Object> fields = new ArrayList<>(14);
        put(fields, STATUS, outcome.status().name());
        put(fields, UPDATED_AT, outcome.completedAt().toString());
        outcome.rawResponse().forEach(raw -> put(fields, RAW_RESPONSE, raw));
        if (outcome instanceof Outcome.Ready ready) {
            put(fields, EVIDENCE, ready.result().evidence().name());
            put(fields, CONTENT, ready.result().content());
            ready.result().scope().forEach(scope -> put(fields, SCOPE, scope));
        } else if (outcome instanceof Outcome.Failed failed) {
            put(fields, EVIDENCE, EvidenceStatus.ERROR.name());
            put(fields, ERROR_CODE, failed.code().name());
        }
        return fields;
    }

    /**
     * Reads a stored hash.
     *
     * @param expected the key the hash was read under: the record's run and tool call
     * @param hash the hash's fields
     * @return the record and token, or {@link ErrorCode#STORE_DATA_INVALID} when the hash is not a record
     *     this store wrote (another schema, missing or unknown field, unknown status, bad instant or lease,
     *     broken rule)
     */
    static Either<BoundaryError, Stored> decode(InvocationKey expected, Map<String, String> hash) {
        try {
            return Either.right(decodeOrThrow(expected, hash));
        } catch (RuntimeException invalid) {
            return Either.left(BoundaryError.of(ErrorCode.STORE_DATA_INVALID));
        }
    }

    private static Stored decodeOrThrow(InvocationKey expected, Map<String, String> hash) {
        check(SCHEMA_VERSION.equals(required(hash, SCHEMA)));
        check(LEASE.matcher(required(hash, LEASE_UNTIL)).matches());
        ToolName tool = new ToolName(required(hash, TOOL));
        String arguments = required(hash, ARGUMENTS);
        String fingerprint = required(hash, FINGERPRINT);
        AttemptToken token = new AttemptToken(required(hash, TOKEN));
        InvocationStatus status = InvocationStatus.valueOf(required(hash, STATUS));
        Instant createdAt = Instant.parse(required(hash, CREATED_AT));
        CanonicalRecord.Projecting projecting = new CanonicalRecord.Projecting(expected, tool, arguments, fingerprint,
                createdAt);
        CanonicalRecord record = switch (status) {
            case PROJECTING -> {
                onlyFields(hash, Set.of());
                yield projecting;
            }
            case READY -> {
                onlyFields(hash, READY_ONLY_FIELDS);
                EvidenceStatus evidence = EvidenceStatus.valueOf(required(hash, EVIDENCE));
                AgentResult result = new AgentResult(required(hash, CONTENT), evidence, Option.of(hash.get(SCOPE)));
                yield new CanonicalRecord.Ready(expected, tool, arguments, fingerprint, createdAt,
                        instant(hash, UPDATED_AT), required(hash, RAW_RESPONSE), result);
            }
            case ERROR -> {
                onlyFields(hash, ERROR_ONLY_FIELDS);
                check(EvidenceStatus.ERROR.name().equals(required(hash, EVIDENCE)));
                yield new CanonicalRecord.Failed(expected, tool, arguments, fingerprint, createdAt,
                        instant(hash, UPDATED_AT), Option.of(hash.get(RAW_RESPONSE)),
                        ErrorCode.valueOf(required(hash, ERROR_CODE)));
            }
        };
        return new Stored(record, token);
    }

    private static void onlyFields(Map<String, String> hash, Set<String> finalFields) {
        for (String field : hash.keySet()) {
            check(PROJECTING_FIELDS.contains(field) || finalFields.contains(field));
        }
    }

    private static Instant instant(Map<String, String> hash, String field) {
        return Instant.parse(required(hash, field));
    }

    private static String required(Map<String, String> hash, String field) {
        String value = hash.get(field);
        check(value != null);
        return value;
    }

    private static void check(boolean condition) {
        if (!condition) {
            throw new IllegalArgumentException("not a record");
        }
    }

    private static void put(List<Object> fields, String field, String value) {
        fields.add(field);
        fields.add(value);
    }
}
