package io.toolboundary.adapter.redis;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.EvidenceStatus;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.Referencability;
import io.toolboundary.domain.ToolName;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How a record lives in its Redis string, the one layout this store reads and writes (see "The record" in
 * docs/redis.md): a head of small ASCII values, one line, then the large values back to back, each as long
 * as the head says in UTF-8 bytes:
 *
 * <pre>{@code
 * 5|<status>|<token>|<leaseLeft>|<createdAt>|<updatedAt>|<outcome>|<tool>|<#fp>|<#args>|<#scope>|<#content>|<#raw>|<#type>|<#message>\n
 * <fingerprint><arguments><scope><content><raw response><failure type><failure message>
 * }</pre>
 *
 * <p>{@code status} is {@code P}, {@code R} or {@code E}; {@code leaseLeft} the remaining TTL in milliseconds
 * at which the execution lease ends (PROJECTING; kept, unread, by an ERROR record the scripts ended);
 * instants are {@code <epoch seconds>[.<nine digits>]}; {@code outcome} is empty (PROJECTING), {@code F} or
 * {@code N} (READY: evidence found, no evidence) or the error code (ERROR); a length of {@code -} is a value
 * the record does not have. A PROJECTING record reads {@code <createdAt>|||<tool>}, which {@code end.lua}
 * and {@code abandon.lua} replace with {@code <createdAt>|<updatedAt>|<code>|<tool>}. The fingerprint is
 * packed ({@link #packedFingerprint}). Anything else is invalid data, never a guess.
 */
final class RecordCodec {

    /** The version of this layout, the first character of every record. */
    static final String SCHEMA_VERSION = "5";

    private static final int HEAD_VALUES = 15;
    private static final String ABSENT = "-";
    private static final Pattern HEX_SHA_256 = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern LENGTH = Pattern.compile("-|0|[1-9][0-9]{0,9}");
    private static final Pattern DIGITS = Pattern.compile("0|[1-9][0-9]{0,17}");
    private static final Pattern INSTANT = Pattern.compile("(-?[0-9]{1,19})(?:\\.([0-9]{9}))?");

    private RecordCodec() {
    }

    /** A record as stored, with the token of the attempt that created it. */
    record Stored(CanonicalRecord record, AttemptToken token) {
    }

    /**
     * The fingerprint as the record and the run's ledger keep it: {@code h} and the 32 bytes of a lowercase
     * hex SHA-256 in unpadded base64url (44 characters instead of 64), or {@code t} and any other text as it is.
     */
    static String packedFingerprint(String fingerprint) {
        return HEX_SHA_256.matcher(fingerprint).matches()
                ? "h" + Base64.getUrlEncoder().withoutPadding().encodeToString(HexFormat.of().parseHex(fingerprint))
                : "t" + fingerprint;
    }

    private static String unpackedFingerprint(String packed) {
        if (packed.startsWith("h")) {
            String hex = HexFormat.of().formatHex(Base64.getUrlDecoder().decode(packed.substring(1)));
            check(hex.length() == 64 && packedFingerprint(hex).equals(packed));
            return hex;
        }
        check(packed.startsWith("t"));
        return packed.substring(1);
    }

    /** The PROJECTING record begin writes; its lease ends when the record's remaining TTL is {@code leaseLeftMillis}. */
    static byte[] projecting(CanonicalRecord.Projecting record, AttemptToken token, long leaseLeftMillis) {
        return write(record, token, "P", Long.toString(Math.max(0, leaseLeftMillis)), "", "",
                Option.none(), Option.none(), Option.none(), Option.none(), Option.none());
    }

    /** The final record a completion writes, whole, for the attempt {@code token}. */
    static byte[] completed(CanonicalRecord.Final record, AttemptToken token) {
        String updatedAt = instant(record.updatedAt());
        if (record instanceof CanonicalRecord.Ready ready) {
            AgentResult result = ready.result();
            return write(record, token, "R", "", updatedAt, result.evidence() == EvidenceStatus.EVIDENCE_FOUND ? "F" : "N",
                    result.scope(), Option.some(result.content()), ready.rawResponse(), Option.none(), Option.none());
        }
        CanonicalRecord.Failed failed = (CanonicalRecord.Failed) record;
        return write(record, token, "E", "", updatedAt, failed.code().name(), Option.none(), Option.none(),
                failed.rawResponse(), failed.failureType(), failed.failureMessage());
    }

    /** What an ERROR record the scripts end holds where a PROJECTING one holds {@code |||}. */
    static String endedOutcome(ErrorCode code, Instant now) {
        return "|" + instant(now) + "|" + code.name() + "|";
    }

    private static byte[] write(CanonicalRecord record, AttemptToken token, String status, String leaseLeft,
            String updatedAt, String outcome, Option<String> scope, Option<String> content, Option<String> raw,
            Option<String> failureType, Option<String> failureMessage) {
        boolean failure = failureType.isDefined() && failureMessage.isDefined();
        // The large values in the order the head lists their lengths; none for a value the record lacks.
        List<Option<String>> values = List.of(Option.some(packedFingerprint(record.requestFingerprint())),
                Option.some(record.arguments()), scope, content, raw, failure ? failureType : Option.none(),
                failure ? failureMessage : Option.none());
        StringBuilder head = new StringBuilder(128).append(SCHEMA_VERSION).append('|').append(status).append('|')
                .append(token.value()).append('|').append(leaseLeft).append('|').append(instant(record.createdAt()))
                .append('|').append(updatedAt).append('|').append(outcome).append('|').append(record.tool().value());
        int[] lengths = new int[values.size()];
        int size = 0;
        for (int i = 0; i < lengths.length; i++) {
            lengths[i] = values.get(i).map(ByteBufUtil::utf8Bytes).getOrElse(-1);
            head.append('|').append(lengths[i] < 0 ? ABSENT : Integer.toString(lengths[i]));
            size += Math.max(lengths[i], 0);
        }
        head.append('\n');
        // Each value encoded once, straight into the record's one array.
        byte[] out = new byte[head.length() + size];
        ByteBuf writer = Unpooled.wrappedBuffer(out).clear();
        writer.writeCharSequence(head, StandardCharsets.US_ASCII);
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] >= 0) {
                ByteBufUtil.reserveAndWriteUtf8(writer, values.get(i).get(), lengths[i]);
            }
        }
        return out;
    }


    /** {@code <epoch seconds>}, and {@code .<nine digits>} when the instant has a fraction. */
    static String instant(Instant at) {
        if (at.getNano() == 0) {
            return Long.toString(at.getEpochSecond());
        }
        String nanos = Integer.toString(at.getNano());
        return at.getEpochSecond() + "." + "000000000".substring(nanos.length()) + nanos;
    }

    private static Instant parseInstant(String text) {
        java.util.regex.Matcher matcher = INSTANT.matcher(text);
        check(matcher.matches());
        long nanos = matcher.group(2) == null ? 0 : Long.parseLong(matcher.group(2));
        check(matcher.group(2) == null || nanos != 0);
        return Instant.ofEpochSecond(Long.parseLong(matcher.group(1)), nanos);
    }

    /** Text as UTF-8 bytes. */
    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The small values of a record's head, by their names in the record table ({@code schema}, {@code status},
     * {@code tool}, {@code evidence}, {@code errorCode}, {@code createdAt}, {@code updatedAt},
     * {@code leaseLeftMillis}), into {@code fields}, and the lengths in bytes of its large values
     * ({@code arguments}, {@code scope}, {@code content}, {@code rawResponse}, {@code failureType},
     * {@code failureMessage}; 0 when absent) into {@code sizes}, and the failure's type ({@code failureType})
     * when {@code last}, the record's last bytes, holds it. For operators: a head that does not unpack adds
     * nothing, never an error.
     */
    static void facts(String start, String last, Map<String, String> fields, Map<String, Long> sizes) {
        int end = start.indexOf('\n');
        String[] values = (end < 0 ? start : start.substring(0, end)).split("\\|", -1);
        if (values.length != HEAD_VALUES || !values[0].equals(SCHEMA_VERSION) || !"PRE".contains(values[1])
                || values[1].length() != 1) {
            return;
        }
        fields.put("schema", values[0]);
        InvocationStatus status = switch (values[1]) {
            case "P" -> InvocationStatus.PROJECTING;
            case "R" -> InvocationStatus.READY;
            default -> InvocationStatus.ERROR;
        };
        fields.put("status", status.name());
        fields.put("tool", values[7]);
        putNonEmpty(fields, "createdAt", seconds(values[4]));
        putNonEmpty(fields, "updatedAt", seconds(values[5]));
        if (DIGITS.matcher(values[3]).matches()) {
            fields.put("leaseLeftMillis", values[3]);
        }
        if (status == InvocationStatus.READY) {
            fields.put("evidence", "F".equals(values[6]) ? EvidenceStatus.EVIDENCE_FOUND.name() : EvidenceStatus.NO_EVIDENCE.name());
        } else if (status == InvocationStatus.ERROR) {
            fields.put("evidence", InvocationStatus.ERROR.name());
            putNonEmpty(fields, "errorCode", values[6]);
        }
        String[] names = {"arguments", "scope", "content", "rawResponse", "failureType", "failureMessage"};
        for (int i = 0; i < names.length; i++) {
            String length = values[9 + i];
            sizes.put(names[i], LENGTH.matcher(length).matches() && !length.equals(ABSENT) ? Long.parseLong(length) : 0L);
        }
        byte[] tail = utf8(last);
        long type = sizes.get("failureType");
        long reason = type + sizes.get("failureMessage");
        if (type > 0 && reason <= tail.length) {
            int from = (int) (tail.length - reason);
            fields.put("failureType", new String(tail, from, (int) type, StandardCharsets.UTF_8));
        }
    }

    private static String seconds(String instant) {
        try {
            return instant.isEmpty() ? "" : parseInstant(instant).toString();
        } catch (IllegalArgumentException notAnInstant) {
            return "";
        }
    }

    private static void putNonEmpty(Map<String, String> fields, String name, String value) {
        if (!value.isEmpty()) {
            fields.put(name, value);
        }
    }

    /**
     * How a record may be cited, from the start of its head as {@code referencability.lua} cuts it:
     * {@code <version>|<status>|<token>|<leaseLeft>|<createdAt>|<updatedAt>|<outcome>|}; anything else is
     * invalid data.
     */
    static Either<StoreFailure, Referencability> referencability(String headStart) {
        String[] head = headStart.split("\\|", -1);
        if (head.length != 8 || !SCHEMA_VERSION.equals(head[0]) || !head[7].isEmpty()) {
            return Either.left(StoreFailure.dataInvalid());
        }
        String outcome = head[6];
        return switch (head[1]) {
            case "P" -> outcome.isEmpty() ? Either.right(Referencability.NOT_REFERENCABLE)
                    : Either.left(StoreFailure.dataInvalid());
            case "R" -> outcome.equals("F") ? Either.right(Referencability.CITABLE_EVIDENCE)
                    : outcome.equals("N") ? Either.right(Referencability.SCOPED_NEGATIVE_OBSERVATION)
                    : Either.left(StoreFailure.dataInvalid());
            case "E" -> Arrays.stream(ErrorCode.values()).anyMatch(code -> code.name().equals(outcome))
                    ? Either.right(Referencability.NOT_REFERENCABLE) : Either.left(StoreFailure.dataInvalid());
            default -> Either.left(StoreFailure.dataInvalid());
        };
    }

    /**
     * Reads a stored record.
     *
     * @param expected the key the record was read under: its run and tool call
     * @param value the record as stored
     * @return the record and token, or {@link StoreFailure#dataInvalid() data invalid} when the value is not a
     *     record this store wrote (another schema, a head that does not parse, lengths that do not add up or
     *     cut a character, an unknown status or code, a broken rule)
     */
    static Either<StoreFailure, Stored> decode(InvocationKey expected, String value) {
        try {
            return Either.right(decodeOrThrow(expected, utf8(value)));
        } catch (RuntimeException invalid) {
            return Either.left(StoreFailure.dataInvalid());
        }
    }

    private static Stored decodeOrThrow(InvocationKey expected, byte[] bytes) {
        int newline = 0;
        while (newline < bytes.length && bytes[newline] != '\n') {
            newline++;
        }
        check(newline < bytes.length);
        String[] head = new String(bytes, 0, newline, StandardCharsets.US_ASCII).split("\\|", -1);
        check(head.length == HEAD_VALUES && SCHEMA_VERSION.equals(head[0]));
        AttemptToken token = new AttemptToken(head[2]);
        String status = head[1];
        check(status.equals("P") ? DIGITS.matcher(head[3]).matches()
                : head[3].isEmpty() || DIGITS.matcher(head[3]).matches());
        Instant createdAt = parseInstant(head[4]);
        ToolName tool = new ToolName(head[7]);
        Values values = new Values(bytes, newline + 1);
        String fingerprint = unpackedFingerprint(values.required(head[8]));
        String arguments = values.required(head[9]);
        Option<String> scope = values.optional(head[10]);
        Option<String> content = values.optional(head[11]);
        Option<String> raw = values.optional(head[12]);
        Option<String> failureType = values.optional(head[13]);
        Option<String> failureMessage = values.optional(head[14]);
        check(values.atEnd() && failureType.isDefined() == failureMessage.isDefined());
        CanonicalRecord.Projecting begun = new CanonicalRecord.Projecting(expected, tool, arguments, fingerprint,
                createdAt);
        if (status.equals("P")) {
            check(head[5].isEmpty() && head[6].isEmpty() && scope.isEmpty() && content.isEmpty() && raw.isEmpty()
                    && failureType.isEmpty());
            return new Stored(begun, token);
        }
        Instant updatedAt = parseInstant(head[5]);
        CanonicalRecord.Final done = switch (status) {
            case "R" -> {
                check(raw.isDefined() && content.isDefined() && failureType.isEmpty());
                EvidenceStatus evidence = switch (head[6]) {
                    case "F" -> EvidenceStatus.EVIDENCE_FOUND;
                    case "N" -> EvidenceStatus.NO_EVIDENCE;
                    default -> throw new IllegalArgumentException("not a record");
                };
                yield begun.ready(raw.get(), new AgentResult(content.get(), evidence, scope), updatedAt);
            }
            case "E" -> {
                check(content.isEmpty() && scope.isEmpty());
                CanonicalRecord.Failed failed = begun.failed(ErrorCode.valueOf(head[6]), raw, updatedAt);
                yield failureType.isDefined() ? failed.because(failureType.get(), failureMessage.get()) : failed;
            }
            default -> throw new IllegalArgumentException("not a record");
        };
        return new Stored(done, token);
    }

    /** The large values after the head, read in order, each ending between two characters. */
    private static final class Values {
        private final byte[] bytes;
        private int at;

        Values(byte[] bytes, int at) {
            this.bytes = bytes;
            this.at = at;
        }

        String required(String length) {
            Option<String> value = optional(length);
            check(value.isDefined());
            return value.get();
        }

        Option<String> optional(String length) {
            check(LENGTH.matcher(length).matches());
            if (length.equals(ABSENT)) {
                return Option.none();
            }
            int size = Integer.parseInt(length);
            check(size <= bytes.length - at && boundary(at) && boundary(at + size));
            String value = new String(bytes, at, size, StandardCharsets.UTF_8);
            at += size;
            return Option.some(value);
        }

        boolean atEnd() {
            return at == bytes.length;
        }

        /** True unless {@code index} is inside a character: a UTF-8 continuation byte starts there. */
        private boolean boundary(int index) {
            return index == bytes.length || (bytes[index] & 0xC0) != 0x80;
        }
    }

    private static void check(boolean condition) {
        if (!condition) {
            throw new IllegalArgumentException("not a record");
        }
    }
}
