package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How a record lives in its Redis hash, the one layout this store reads and writes (see "The record hash"
 * in docs/redis.md): {@code h} packs what begin fixed, {@code <schema>|<token>|<leaseUntil>|<createdAt>|<tool>|<fingerprint>};
 * {@code a} holds the arguments; {@code o} packs the outcome, {@code <status>|<updatedAt>|<evidence or code>|<raw>|<scope>}
 * (none while PROJECTING); {@code c} the agent's content (READY); {@code f} why the record failed (ERROR,
 * when it says). The raw response is a key of its own ({@link RedisKeys#raw}), which the scripts add to
 * their replies as {@link #RAW}.
 *
 * <p>The field names are declared here once, and the scripts name exactly {@link #NAMED_BY_SCRIPTS}. A hash
 * of another schema, with a field the layout lacks or without one it needs, or with a value that does not
 * parse is invalid data, never a guess.
 */
final class RecordCodec {

    /** The small values fixed at creation, packed. */
    static final String HEAD = "h";
    /** The complete arguments JSON. */
    static final String ARGUMENTS = "a";
    /** The small values of the completion, packed. */
    static final String OUTCOME = "o";
    /** The bounded result the agent received (READY). */
    static final String CONTENT = "c";
    /** Why the record failed, when it says (ERROR): {@code <type's UTF-8 length>|<type>|<message>}. */
    static final String FAILURE = "f";
    /** Not a field of the hash: the name under which the scripts' replies carry the raw response. */
    static final String RAW = "r";

    /** The version of this layout, the first value of every record's head: one character, as the scripts read it. */
    static final String SCHEMA_VERSION = "4";

    /** The fields the Lua scripts name as literals; the scripts name no other field. */
    static final Set<String> NAMED_BY_SCRIPTS = Set.of(HEAD, ARGUMENTS, OUTCOME, CONTENT, FAILURE, RAW);

    /** The largest whole number of seconds a Lua number (a double) holds exactly. */
    private static final long MAX_EXACT_SECONDS = (1L << 53) - 1;
    private static final Pattern LEASE = Pattern.compile("(-?[0-9]{1,16}):([0-9]{9})");
    private static final Pattern LENGTH = Pattern.compile("0|[1-9][0-9]{0,8}");
    private static final String NO_SCOPE = "-";
    private static final String SCOPE = "+";

    private RecordCodec() {
    }

    /** A record as stored, with the token of the attempt that created it. */
    record Stored(CanonicalRecord record, AttemptToken token) {
    }

    /** The head before the lease: {@code <schema>|<token>|}; {@code begin.lua} appends the lease. */
    static String headStart(AttemptToken token) {
        return SCHEMA_VERSION + "|" + token.value() + "|";
    }

    /** The head after the lease: {@code |<createdAt>|<tool>|<fingerprint>}. */
    static String headEnd(CanonicalRecord.Projecting record) {
        return "|" + record.createdAt() + "|" + record.tool().value() + "|" + record.requestFingerprint();
    }

    /** The value of {@link #OUTCOME} abandonment writes over a PROJECTING record. */
    static String abandoned(Instant now) {
        return failed(ErrorCode.EXECUTION_ABANDONED, now);
    }

    /** The value of {@link #OUTCOME} that ends a PROJECTING record in ERROR with {@code code} and no raw response. */
    static String failed(ErrorCode code, Instant now) {
        return outcomeHead(InvocationStatus.ERROR, now, code.name(), false, Option.none());
    }

    /**
     * An instant's whole seconds since the epoch, clamped to what a Lua number holds exactly, as
     * {@code abandon.lua} compares them with the server's {@code TIME}.
     */
    static String seconds(Instant instant) {
        return Long.toString(Math.max(-MAX_EXACT_SECONDS, Math.min(MAX_EXACT_SECONDS, instant.getEpochSecond())));
    }

    /** An instant's nanoseconds within its second, nine digits. */
    static String nanos(Instant instant) {
        String digits = Integer.toString(instant.getNano());
        return "000000000".substring(digits.length()) + digits;
    }

    /** The value of {@link #OUTCOME} {@code complete.lua} writes for the final record {@code done}. */
    static String outcome(CanonicalRecord.Final done) {
        if (done instanceof CanonicalRecord.Ready ready) {
            return outcomeHead(InvocationStatus.READY, ready.updatedAt(), ready.result().evidence().name(), true,
                    ready.result().scope());
        }
        CanonicalRecord.Failed failed = (CanonicalRecord.Failed) done;
        return outcomeHead(InvocationStatus.ERROR, failed.updatedAt(), failed.code().name(),
                failed.rawResponse().isDefined(), Option.none());
    }

    /**
     * What {@code complete.lua} writes beside {@link #OUTCOME}: the agent's content ({@link #CONTENT}) of a
     * READY record, why an ERROR record failed ({@link #FAILURE}) when it says, else none.
     */
    static Option<String> detail(CanonicalRecord.Final done) {
        if (done instanceof CanonicalRecord.Ready ready) {
            return Option.some(ready.result().content());
        }
        return done.failureType().flatMap(type -> done.failureMessage()
                .map(message -> utf8(type).length + "|" + type + "|" + message));
    }

    /** {@code <status>|<updatedAt>|<evidence or code>|<raw>|<scope>}: the value of {@link #OUTCOME}. */
    static String outcomeHead(InvocationStatus status, Instant at, String code, boolean raw, Option<String> scope) {
        return status.name() + "|" + at + "|" + code + "|" + (raw ? "1" : "0") + "|"
                + scope.map(text -> SCOPE + text).getOrElse(NO_SCOPE);
    }

    /**
     * The small values of a record's packed {@link #HEAD}, {@link #OUTCOME} and {@link #FAILURE}, each when
     * present and not empty, by their names in the record table ({@code schema}, {@code status}, {@code tool},
     * {@code evidence}, {@code errorCode}, {@code createdAt}, {@code updatedAt}, {@code leaseUntil},
     * {@code failureType}), into {@code fields}; the length in bytes of the scope and of the failure's
     * message into {@code sizes} as {@code scope} and {@code failureMessage}. For operators: a value that
     * does not unpack is left out, never an error.
     */
    static void facts(String head, String outcome, String failure, Map<String, String> fields,
            Map<String, Long> sizes) {
        if (head != null) {
            String[] values = head.split("\\|", 6);
            if (values.length == 6) {
                putNonEmpty(fields, "schema", values[0]);
                putNonEmpty(fields, "tool", values[4]);
                putNonEmpty(fields, "createdAt", values[3]);
                putNonEmpty(fields, "leaseUntil", values[2]);
            }
            if (outcome == null) {
                fields.put("status", InvocationStatus.PROJECTING.name());
            }
        }
        String scope = "";
        if (outcome != null) {
            String[] values = outcome.split("\\|", 5);
            if (values.length == 5) {
                putNonEmpty(fields, "status", values[0]);
                putNonEmpty(fields, "updatedAt", values[1]);
                if (InvocationStatus.ERROR.name().equals(values[0])) {
                    fields.put("evidence", InvocationStatus.ERROR.name());
                    putNonEmpty(fields, "errorCode", values[2]);
                } else {
                    putNonEmpty(fields, "evidence", values[2]);
                }
                scope = values[4].isEmpty() ? "" : values[4].substring(1);
            }
        }
        sizes.put("scope", (long) utf8(scope).length);
        Option<List<String>> why = failure == null ? Option.none() : reason(failure);
        why.forEach(reason -> putNonEmpty(fields, "failureType", reason.get(0)));
        sizes.put("failureMessage", why.map(reason -> (long) utf8(reason.get(1)).length).getOrElse(0L));
    }

    private static void putNonEmpty(Map<String, String> fields, String name, String value) {
        if (!value.isEmpty()) {
            fields.put(name, value);
        }
    }

    /** Text as UTF-8 bytes. */
    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads a stored hash.
     *
     * @param expected the key the hash was read under: the record's run and tool call
     * @param hash the hash's fields
     * @return the record and token, or {@link StoreFailure#dataInvalid() data invalid} when the hash is not a record
     *     this store wrote (another schema, missing or unknown field, unknown status, bad instant or lease,
     *     broken rule)
     */
    static Either<StoreFailure, Stored> decode(InvocationKey expected, Map<String, String> hash) {
        try {
            return Either.right(decodeOrThrow(expected, hash));
        } catch (RuntimeException invalid) {
            return Either.left(StoreFailure.dataInvalid());
        }
    }

    private static Stored decodeOrThrow(InvocationKey expected, Map<String, String> hash) {
        check(NAMED_BY_SCRIPTS.containsAll(hash.keySet()));
        String[] head = required(hash, HEAD).split("\\|", 6);
        check(head.length == 6 && SCHEMA_VERSION.equals(head[0]) && LEASE.matcher(head[2]).matches());
        AttemptToken token = new AttemptToken(head[1]);
        Instant createdAt = Instant.parse(head[3]);
        ToolName tool = new ToolName(head[4]);
        String fingerprint = head[5];
        String arguments = required(hash, ARGUMENTS);
        String packed = hash.get(OUTCOME);
        CanonicalRecord.Projecting begun = new CanonicalRecord.Projecting(expected, tool, arguments, fingerprint,
                createdAt);
        if (packed == null) {
            check(!hash.containsKey(CONTENT) && !hash.containsKey(FAILURE) && !hash.containsKey(RAW));
            return new Stored(begun, token);
        }
        String[] outcome = packed.split("\\|", 5);
        check(outcome.length == 5);
        Instant updatedAt = Instant.parse(outcome[1]);
        boolean hasRaw = "1".equals(outcome[3]);
        check(hasRaw || "0".equals(outcome[3]));
        // A record that says it has a raw response and comes without it lost it: damage, never a record without one.
        Option<String> raw = hasRaw ? Option.of(required(hash, RAW)) : Option.none();
        check(hasRaw || !hash.containsKey(RAW));
        CanonicalRecord.Final done = switch (InvocationStatus.valueOf(outcome[0])) {
            case READY -> {
                check(hasRaw && !hash.containsKey(FAILURE));
                Option<String> scope = outcome[4].equals(NO_SCOPE) ? Option.none()
                        : Option.some(scoped(outcome[4]));
                AgentResult result = new AgentResult(required(hash, CONTENT), EvidenceStatus.valueOf(outcome[2]), scope);
                yield begun.ready(raw.get(), result, updatedAt);
            }
            case ERROR -> {
                check(!hash.containsKey(CONTENT) && NO_SCOPE.equals(outcome[4]));
                CanonicalRecord.Failed failed = begun.failed(ErrorCode.valueOf(outcome[2]), raw, updatedAt);
                if (!hash.containsKey(FAILURE)) {
                    yield failed;
                }
                Option<List<String>> why = reason(hash.get(FAILURE));
                check(why.isDefined());
                yield failed.because(why.get().get(0), why.get().get(1));
            }
            case PROJECTING -> throw new IllegalArgumentException("not a record");
        };
        return new Stored(done, token);
    }

    /**
     * The type and the message packed in a {@link #FAILURE} value, or none when it does not unpack. The
     * type's length in bytes finds its end; a separator byte must follow it, so the type ends between two
     * characters and the message, last, may hold any text.
     */
    private static Option<List<String>> reason(String packed) {
        int bar = packed.indexOf('|');
        if (bar < 1 || !LENGTH.matcher(packed.substring(0, bar)).matches()) {
            return Option.none();
        }
        int typeBytes = Integer.parseInt(packed.substring(0, bar));
        byte[] rest = utf8(packed.substring(bar + 1));
        if (typeBytes >= rest.length || rest[typeBytes] != '|') {
            return Option.none();
        }
        return Option.some(List.of(new String(rest, 0, typeBytes, StandardCharsets.UTF_8),
                new String(rest, typeBytes + 1, rest.length - typeBytes - 1, StandardCharsets.UTF_8)));
    }

    private static String scoped(String mark) {
        check(mark.startsWith(SCOPE));
        return mark.substring(SCOPE.length());
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
}
