package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.failed;
import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.newRun;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.AttemptToken;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationStatus;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Lua scripts and the Java that talks to them name the same things: the scripts use no hash field
 * but {@link RecordCodec#NAMED_BY_SCRIPTS} and every one of those, return no outcome but a
 * {@link ScriptReply} and every one of those, and each script's replies are exactly the ones its reader in
 * {@link ScriptReplies} gives a meaning to (below, script by script). Reads the scripts' own text, as
 * the store sends it.
 */
class ScriptsAgreeWithJavaTest {

    /** The Redis commands the scripts call. */
    private static final Set<String> COMMANDS = Set.of("EXISTS", "HMGET", "HGETALL", "MGET", "GET", "INCR",
            "PEXPIRE", "TIME", "HSET");
    private static final Pattern LITERAL = Pattern.compile("'([^']*)'");
    private static final Pattern FIELD = Pattern.compile("[a-z][A-Za-z0-9]*");
    private static final Pattern REPLY = Pattern.compile(
            "return \\{'([A-Z_]+)'\\}|table\\.insert\\(reply, 1, '([A-Z_]+)'\\)|outcome = '([A-Z_]+)'");

    private static final CanonicalRecord.Projecting RECORD = projecting(key(newRun(), "c1"), "{\"q\":1}");
    private static final AttemptToken TOKEN = AttemptToken.random();
    private static final CanonicalRecord.Ready READY = ready(RECORD, "raw", "result");
    private static final CanonicalRecord.Failed ENDED = failed(RECORD, ErrorCode.STORE_OUTCOME_UNKNOWN, Option.none());
    private static final CanonicalRecord.Failed ABANDONED = failed(RECORD, ErrorCode.EXECUTION_ABANDONED,
            Option.none());

    /** Each script's replies: what its reader makes of the reply, given the fields in the second column. */
    private static final Map<LuaScripts.Script, Map<ScriptReply, Answer>> ANSWERS = Map.of(
            LuaScripts.BEGIN, Map.of(
                    ScriptReply.CREATED, Answer.of(List.of(), Either.right(RECORD)),
                    ScriptReply.ALREADY_CREATED, Answer.of(hash(RECORD), Either.right(RECORD)),
                    ScriptReply.DUPLICATE, Answer.refused(ErrorCode.DUPLICATE_TOOL_CALL),
                    ScriptReply.REUSED, Answer.refused(ErrorCode.TOOL_CALL_ID_REUSED),
                    ScriptReply.RUN_BUDGET, Answer.refused(ErrorCode.RUN_BUDGET_EXHAUSTED),
                    ScriptReply.TOOL_BUDGET, Answer.refused(ErrorCode.TOOL_BUDGET_EXHAUSTED),
                    ScriptReply.COUNTER_INVALID, Answer.refused(ErrorCode.STORE_DATA_INVALID),
                    ScriptReply.ATTEMPT_ENDED, Answer.refused(ErrorCode.RECORD_CONFLICT)),
            LuaScripts.COMPLETE, Map.of(
                    ScriptReply.APPLIED, Answer.of(List.of(), Either.right(READY)),
                    ScriptReply.ALREADY_APPLIED, Answer.of(hash(READY), Either.right(READY)),
                    ScriptReply.NOT_FOUND, Answer.refused(ErrorCode.RECORD_EXPIRED),
                    ScriptReply.TOKEN_MISMATCH, Answer.refused(ErrorCode.RECORD_CONFLICT),
                    ScriptReply.CONFLICT, Answer.refused(ErrorCode.RECORD_CONFLICT)),
            LuaScripts.END, Map.of(
                    ScriptReply.ENDED, Answer.of(hash(ENDED), Either.right(ENDED)),
                    ScriptReply.FINAL, Answer.of(hash(READY), Either.right(READY)),
                    ScriptReply.NOT_FOUND, Answer.refused(ErrorCode.RECORD_EXPIRED),
                    ScriptReply.TOKEN_MISMATCH, Answer.refused(ErrorCode.RECORD_CONFLICT)),
            LuaScripts.ABANDON, Map.of(
                    ScriptReply.ABANDONED, Answer.of(hash(ABANDONED), Either.right(ABANDONED)),
                    ScriptReply.ALREADY_ABANDONED, Answer.of(hash(ABANDONED), Either.right(ABANDONED)),
                    ScriptReply.NOT_FOUND, Answer.refused(ErrorCode.RECORD_EXPIRED),
                    ScriptReply.FINAL, Answer.refused(ErrorCode.RECORD_CONFLICT),
                    ScriptReply.LEASE_ACTIVE, Answer.refused(ErrorCode.LEASE_NOT_EXPIRED),
                    ScriptReply.LEASE_INVALID, Answer.refused(ErrorCode.STORE_DATA_INVALID)));

    /** Each script's reader, as the store calls it for {@link #RECORD} and {@link #TOKEN}. */
    private static final Map<LuaScripts.Script, Function<Object, Either<BoundaryError, ?>>> READERS = Map.of(
            LuaScripts.BEGIN, reply -> ScriptReplies.begin(reply, RECORD, TOKEN),
            LuaScripts.COMPLETE, reply -> ScriptReplies.complete(reply, READY, TOKEN),
            LuaScripts.END, reply -> ScriptReplies.end(reply, RECORD.key(), TOKEN),
            LuaScripts.ABANDON, reply -> ScriptReplies.abandon(reply, RECORD.key()));

    @Test
    void theScriptsNameExactlyTheFieldsTheCodecSaysTheyDo() {
        Set<String> named = new TreeSet<>();
        for (LuaScripts.Script script : scripts()) {
            for (String literal : literals(script)) {
                if (FIELD.matcher(literal).matches()) {
                    assertThat(RecordCodec.NAMED_BY_SCRIPTS).as("field '%s' of %s", literal, script.name())
                            .contains(literal);
                    named.add(literal);
                } else {
                    assertThat(isCommand(literal) || isValue(literal) || isReply(literal) || literal.contains("%")
                            || literal.matches("[0-9]+"))
                            .as("literal '%s' of %s is a command, a stored value, a reply, a pattern or a number", literal,
                                    script.name())
                            .isTrue();
                }
            }
        }
        assertThat(named).containsExactlyInAnyOrderElementsOf(RecordCodec.NAMED_BY_SCRIPTS);
    }

    @Test
    void eachScriptReturnsExactlyTheRepliesItsReaderGivesAMeaning() {
        Set<ScriptReply> returned = new TreeSet<>();
        for (LuaScripts.Script script : scripts()) {
            Set<ScriptReply> replies = replies(script);
            assertThat(replies).as(script.name())
                    .containsExactlyInAnyOrderElementsOf(ANSWERS.getOrDefault(script, Map.of()).keySet());
            returned.addAll(replies);
        }
        assertThat(returned).containsExactly(ScriptReply.values());
    }

    @Test
    void eachReaderMapsEachOfItsScriptsRepliesExplicitly() {
        ANSWERS.forEach((script, answers) -> answers.forEach((reply, answer) -> {
            List<String> items = new ArrayList<>(List.of(reply.name()));
            items.addAll(answer.fields());
            assertThat(READERS.get(script).apply(items)).as("%s %s", script.name(), reply).isEqualTo(answer.result());
        }));
    }

    @Test
    void anUnknownReplyAnotherScriptsReplyOrFieldsWhereNoneBelongAreInvalidData() {
        Either<BoundaryError, ?> invalid = Either.left(BoundaryError.of(ErrorCode.STORE_DATA_INVALID));
        READERS.forEach((script, reader) -> {
            for (String unknown : List.of("created", "OK", "", "CREATED ")) {
                assertThat(reader.apply(List.of(unknown))).as("%s '%s'", script.name(), unknown).isEqualTo(invalid);
            }
            for (ScriptReply reply : ScriptReply.values()) {
                if (!ANSWERS.get(script).containsKey(reply)) {
                    assertThat(reader.apply(List.of(reply.name()))).as("%s %s", script.name(), reply)
                            .isEqualTo(invalid);
                }
            }
            ANSWERS.get(script).forEach((reply, answer) -> {
                if (answer.fields().isEmpty()) {
                    assertThat(reader.apply(List.of(reply.name(), "status", "READY")))
                            .as("%s %s with a field", script.name(), reply).isEqualTo(invalid);
                }
            });
            assertThat(reader.apply(List.of())).as(script.name()).isEqualTo(invalid);
            assertThat(reader.apply("CREATED")).as(script.name()).isEqualTo(invalid);
        });
    }

    private static List<LuaScripts.Script> scripts() {
        return List.of(LuaScripts.BEGIN, LuaScripts.COMPLETE, LuaScripts.END, LuaScripts.ABANDON, LuaScripts.FIND);
    }

    /** The script's code without its comments. */
    private static String code(LuaScripts.Script script) {
        return Arrays.stream(script.source().split("\n"))
                .map(line -> line.contains("--") ? line.substring(0, line.indexOf("--")) : line)
                .collect(Collectors.joining("\n"));
    }

    private static List<String> literals(LuaScripts.Script script) {
        List<String> literals = new ArrayList<>();
        Matcher matcher = LITERAL.matcher(code(script));
        while (matcher.find()) {
            literals.add(matcher.group(1));
        }
        return literals;
    }

    private static Set<ScriptReply> replies(LuaScripts.Script script) {
        Set<ScriptReply> replies = new TreeSet<>();
        Matcher matcher = REPLY.matcher(code(script));
        while (matcher.find()) {
            String name = matcher.group(1) != null ? matcher.group(1)
                    : matcher.group(2) != null ? matcher.group(2) : matcher.group(3);
            assertThat(ScriptReply.named(name)).as("reply %s of %s", name, script.name()).isNotEmpty();
            replies.add(ScriptReply.valueOf(name));
        }
        return replies;
    }

    private static boolean isCommand(String literal) {
        return COMMANDS.contains(literal);
    }

    private static boolean isReply(String literal) {
        return ScriptReply.named(literal).isDefined();
    }

    /** A status or error code a script compares a stored value with. */
    private static boolean isValue(String literal) {
        return Arrays.stream(InvocationStatus.values()).anyMatch(status -> status.name().equals(literal))
                || Arrays.stream(ErrorCode.values()).anyMatch(code -> code.name().equals(literal));
    }

    /** The hash of a stored record with {@link #TOKEN}, as field, value pairs, the way the scripts return it. */
    private static List<String> hash(CanonicalRecord record) {
        Map<String, String> fields = new LinkedHashMap<>();
        putAll(fields, RecordCodec.projectingFields(RECORD, TOKEN));
        fields.put(RecordCodec.LEASE_UNTIL, "1900000000:000000000");
        if (record instanceof CanonicalRecord.Final done) {
            putAll(fields, RecordCodec.finalFields(done));
        }
        List<String> items = new ArrayList<>();
        fields.forEach((field, value) -> {
            items.add(field);
            items.add(value);
        });
        return items;
    }

    private static void putAll(Map<String, String> fields, List<Object> pairs) {
        for (int i = 0; i < pairs.size(); i += 2) {
            fields.put((String) pairs.get(i), (String) pairs.get(i + 1));
        }
    }

    private record Answer(List<String> fields, Either<BoundaryError, ?> result) {
        static Answer of(List<String> fields, Either<BoundaryError, ?> result) {
            return new Answer(fields, result);
        }

        static Answer refused(ErrorCode code) {
            return new Answer(List.of(), Either.left(BoundaryError.of(code)));
        }
    }
}
