package io.toolboundary.adapter.redis;

import static io.toolboundary.adapter.redis.Records.RUN_TTL;
import static io.toolboundary.adapter.redis.Records.failed;
import static io.toolboundary.adapter.redis.Records.key;
import static io.toolboundary.adapter.redis.Records.newRun;
import static io.toolboundary.adapter.redis.Records.projecting;
import static io.toolboundary.adapter.redis.Records.ready;
import static io.toolboundary.adapter.redis.Records.start;
import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.RunOpening;
import io.toolboundary.application.spi.RunToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.InvocationStatus;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolName;
import io.toolboundary.domain.spi.Refusal;
import io.toolboundary.domain.spi.StoreRules;
import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The Lua scripts and the Java that talks to them name the same things: a record is a string the scripts
 * read at fixed places and never by a field, and they name no field of a run's state but {@link #RUN_FIELDS}
 * (the ones {@code open.lua} writes are the ones {@code begin.lua} reads); they
 * return no outcome but one of their own {@link ScriptReplies} and every one of those, and each script's replies are
 * exactly the ones its reader in {@link ScriptReplies} gives a meaning to (below, script by script).
 * Reads the scripts' own text, as the store sends it.
 *
 * <p>On a real server ({@link MirrorOfTheStoreRules}), {@code begin.lua} and {@code open.lua} decide
 * every case of a table as the domain's {@link StoreRules#begin} and {@link StoreRules#openRun} do.
 */
class ScriptsAgreeWithJavaTest {

    /** The Redis commands the scripts call. */
    private static final Set<String> COMMANDS = Set.of("EXISTS", "HGET", "HMGET", "PEXPIRE", "HSET", "STRLEN",
            "SET", "GET", "DEL", "RENAME", "PTTL", "XADD");
    /** The fields of an outbox entry, {@link RedisRecordOutbox} reads them: the run id, the tool_call_id, the record. */
    private static final Set<String> OUTBOX_FIELDS = Set.of("r", "c", "v");
    /**
     * The fields of a run's state the scripts name: the token it was opened with and the run's call
     * counter. Its tools' counters are fields too, {@link RedisKeys#toolCounterField}, named by begin's
     * caller.
     */
    private static final Set<String> RUN_FIELDS = Set.of("token", "calls");
    private static final Pattern CALL = Pattern.compile("redis\\.p?call\\('([A-Z]+)'");
    private static final Pattern LITERAL = Pattern.compile("'([^']*)'");
    private static final Pattern FIELD = Pattern.compile("[a-z][A-Za-z0-9]*");
    private static final Pattern REPLY = Pattern.compile(
            "return \\{'([A-Z_]+)'(?:\\}|,)|table\\.insert\\(reply, 1, '([A-Z_]+)'\\)|outcome = '([A-Z_]+)'");

    private static final CanonicalRecord.Projecting RECORD = projecting(key(newRun(), "c1"), "{\"q\":1}");
    private static final AttemptToken TOKEN = AttemptToken.random();
    private static final CanonicalRecord.Ready READY = ready(RECORD, "raw", "result");
    private static final CanonicalRecord.Failed ENDED = failed(RECORD, ErrorCode.STORE_OUTCOME_UNKNOWN, Option.none());
    private static final CanonicalRecord.Failed ABANDONED = failed(RECORD, ErrorCode.EXECUTION_ABANDONED,
            Option.none());
    private static final RunToken OFFERED = new RunToken("offered-opening");
    private static final RunToken HELD = new RunToken("held-opening");

    /** Each script's replies: what its reader makes of the reply, given the values in the second column. */
    private static final Map<LuaScripts.Script<?, ?>, Map<Enum<?>, Answer>> ANSWERS = Map.of(
            LuaScripts.OPEN, Map.of(
                    ScriptReplies.Open.OPENED, Answer.of(List.of(), Either.right(OFFERED)),
                    ScriptReplies.Open.RUN_OPEN, Answer.of(List.of("token", HELD.value()), Either.right(HELD)),
                    ScriptReplies.Open.RUN_INVALID, Answer.refused(StoreFailure.dataInvalid())),
            LuaScripts.BEGIN, Map.ofEntries(
                    Map.entry(ScriptReplies.Begin.RUN_LOST, Answer.refused(StoreFailure.refused(Refusal.RUN_STATE_LOST))),
                    Map.entry(ScriptReplies.Begin.CREATED, Answer.of(List.of("1"), Either.right(RECORD))),
                    Map.entry(ScriptReplies.Begin.ALREADY_CREATED, Answer.of(stored(RECORD), Either.right(RECORD))),
                    Map.entry(ScriptReplies.Begin.EXISTS, Answer.of(stored(READY), Either.left(StoreFailure.refused(Refusal.DUPLICATE)))),
                    Map.entry(ScriptReplies.Begin.DUPLICATE, Answer.refused(StoreFailure.refused(Refusal.DUPLICATE))),
                    Map.entry(ScriptReplies.Begin.REUSED, Answer.refused(StoreFailure.refused(Refusal.ID_REUSED))),
                    Map.entry(ScriptReplies.Begin.RUN_BUDGET, Answer.refused(StoreFailure.refused(Refusal.RUN_BUDGET_EXHAUSTED))),
                    Map.entry(ScriptReplies.Begin.TOOL_BUDGET, Answer.refused(StoreFailure.refused(Refusal.TOOL_BUDGET_EXHAUSTED))),
                    Map.entry(ScriptReplies.Begin.COUNTER_INVALID, Answer.refused(StoreFailure.dataInvalid())),
                    Map.entry(ScriptReplies.Begin.ATTEMPT_ENDED, Answer.refused(StoreFailure.refused(Refusal.CONFLICT))),
                    Map.entry(ScriptReplies.Begin.RECORD_INVALID, Answer.refused(StoreFailure.dataInvalid()))),
            LuaScripts.COMPLETE, Map.of(
                    ScriptReplies.Complete.APPLIED, Answer.of(List.of(), Either.right(READY)),
                    ScriptReplies.Complete.FINAL, Answer.of(stored(READY), Either.right(READY)),
                    ScriptReplies.Complete.NOT_FOUND, Answer.refused(StoreFailure.refused(Refusal.EXPIRED)),
                    ScriptReplies.Complete.TOKEN_MISMATCH, Answer.refused(StoreFailure.refused(Refusal.CONFLICT)),
                    ScriptReplies.Complete.PENDING_LOST, Answer.refused(StoreFailure.dataInvalid()),
                    ScriptReplies.Complete.NOT_WRITTEN, Answer.refused(StoreFailure.unavailable()),
                    ScriptReplies.Complete.RECORD_INVALID, Answer.refused(StoreFailure.dataInvalid())),
            LuaScripts.END, Map.of(
                    ScriptReplies.End.ENDED, Answer.of(stored(ENDED), Either.right(ENDED)),
                    ScriptReplies.End.FINAL, Answer.of(stored(READY), Either.right(READY)),
                    ScriptReplies.End.NOT_FOUND, Answer.refused(StoreFailure.refused(Refusal.EXPIRED)),
                    ScriptReplies.End.TOKEN_MISMATCH, Answer.refused(StoreFailure.refused(Refusal.CONFLICT)),
                    ScriptReplies.End.RECORD_INVALID, Answer.refused(StoreFailure.dataInvalid())),
            LuaScripts.ABANDON, Map.of(
                    ScriptReplies.Abandon.ABANDONED, Answer.of(stored(ABANDONED), Either.right(Option.some(ABANDONED))),
                    ScriptReplies.Abandon.FINAL, Answer.of(stored(READY), Either.left(StoreFailure.refused(Refusal.CONFLICT))),
                    ScriptReplies.Abandon.NOT_FOUND, Answer.refused(StoreFailure.refused(Refusal.EXPIRED)),
                    ScriptReplies.Abandon.TOKEN_MISMATCH, Answer.of(List.of(), Either.right(Option.none())),
                    ScriptReplies.Abandon.LEASE_ACTIVE, Answer.refused(StoreFailure.refused(Refusal.LEASE_NOT_EXPIRED)),
                    ScriptReplies.Abandon.LEASE_INVALID, Answer.refused(StoreFailure.dataInvalid()),
                    ScriptReplies.Abandon.RECORD_INVALID, Answer.refused(StoreFailure.dataInvalid())));

    /** Each script's reader, as the store calls it for {@link #RECORD} and {@link #TOKEN}. */
    private static final Map<LuaScripts.Script<?, ?>, Function<Object, Either<StoreFailure, ?>>> READERS = Map.of(
            LuaScripts.OPEN, reply -> ScriptReplies.openRun(reply, OFFERED),
            LuaScripts.BEGIN, reply -> ScriptReplies.begin(reply, RECORD, TOKEN, calls -> { }),
            LuaScripts.COMPLETE, reply -> ScriptReplies.complete(reply, READY, TOKEN),
            LuaScripts.END, reply -> ScriptReplies.end(reply, RECORD.key(), TOKEN),
            LuaScripts.ABANDON, reply -> ScriptReplies.abandon(reply, RECORD.key()));

    @Test
    void theScriptsNameNoFieldButTheRunsTokenAndCalls() {
        Set<String> runFields = new TreeSet<>();
        for (LuaScripts.Script<?, ?> script : scripts()) {
            for (String line : lines(script)) {
                if (line.contains("'XADD'")) {
                    // An outbox entry: the command, the id Redis picks, the entry's own fields.
                    assertThat(literals(line)).as("the literals of %s in %s", line, script.name())
                            .isSubsetOf(union(Set.of("XADD", "*", "GET"), OUTBOX_FIELDS))
                            .containsAll(List.of("XADD", "*", "r", "c"));
                    continue;
                }
                for (String literal : literals(line)) {
                    if (literal.equals("table")) {
                        continue; // the Lua type of an error reply of redis.pcall, not a field
                    }
                    if (FIELD.matcher(literal).matches()) {
                        assertThat(RUN_FIELDS).as("field '%s' of the run's state in %s", literal, script.name())
                                .contains(literal);
                        runFields.add(literal);
                    } else {
                        assertThat(isCommand(literal) || isReply(literal) || literal.startsWith("^")
                                || literal.matches("[0-9]+")
                                || List.of("|", "|||", "P|", "E", "", " ", "XX", "KEEPTTL", "PX", "NX").contains(literal))
                                .as("literal '%s' of %s is a command or its option, a reply, a pattern or a part of a record's head",
                                        literal, script.name())
                                .isTrue();
                    }
                }
            }
        }
        assertThat(runFields).containsExactlyInAnyOrderElementsOf(RUN_FIELDS);
    }

    @Test
    void openWritesExactlyTheFieldsOfTheRunsStateThatBeginReads() {
        List<String> written = fieldsOnTheLineOf(LuaScripts.OPEN, "'HSET', KEYS[1]");
        List<String> read = fieldsOnTheLineOf(LuaScripts.BEGIN, "'HMGET', KEYS[2]");
        List<String> counted = fieldsOnTheLineOf(LuaScripts.BEGIN, "'HSET', KEYS[2], '");

        assertThat(written).containsExactlyInAnyOrderElementsOf(RUN_FIELDS);
        assertThat(read).containsExactlyInAnyOrderElementsOf(RUN_FIELDS);
        assertThat(counted).containsExactly("calls");
        assertThat(fieldsOnTheLineOf(LuaScripts.OPEN, "'HGET', KEYS[1]")).containsExactly("token");
        // A tool's counter field can never be one of the run's own fields, whatever the tool's name.
        assertThat(RedisKeys.toolCounterField(new ToolName("calls"))).isEqualTo("t:calls");
        assertThat(RedisKeys.toolCounterField(new ToolName("token"))).isNotIn(RUN_FIELDS);
    }

    @Test
    void noScriptReadsAPackedFieldWithAPattern() {
        for (LuaScripts.Script<?, ?> script : LuaScripts.ALL) {
            for (String line : lines(script)) {
                assertThat(line).as("%s: %s", script.name(), line)
                        .doesNotContain("string.match", "string.gmatch", "string.gsub", ":match(", ":find(");
                if (line.contains("string.find(")) {
                    // Separators are found as plain text; the one pattern left checks the run's counters.
                    assertThat(line.contains(", true)") || line.contains("string.find(runText .. '|' .. toolText,"))
                            .as("%s: %s", script.name(), line).isTrue();
                }
            }
        }
    }

    @Test
    void theScriptsCallExactlyTheKnownCommands() {
        Set<String> called = new TreeSet<>();
        for (LuaScripts.Script<?, ?> script : scripts()) {
            Matcher matcher = CALL.matcher(code(script));
            while (matcher.find()) {
                called.add(matcher.group(1));
            }
        }
        assertThat(called).containsExactlyInAnyOrderElementsOf(COMMANDS);
    }

    /**
     * The scripts that make a record final find the outbox where {@link ScriptArgs.Export} puts it: the key
     * after their own keys, the run id, the tool_call_id and the carry flag after their own arguments; each
     * appends in exactly two places, the carrying and the plain entry, and only with the outbox's key.
     */
    @Test
    void theScriptsThatMakeARecordFinalFindTheOutboxWhereTheJavaPutsIt() {
        ScriptArgs.Export export = new ScriptArgs.Export("tb:outbox", "run-1", "call-1", true);
        Map<LuaScripts.Script<?, ?>, List<ScriptArgs>> argsWithoutAndWith = Map.of(
                LuaScripts.COMPLETE, List.of(new ScriptArgs.Complete("r", "p", "t", 7, Option.none()),
                        new ScriptArgs.Complete("r", "p", "t", 7, Option.some(export))),
                LuaScripts.END, List.of(new ScriptArgs.End("r", "s", "p", "t", "e:c", "|1|X|", Option.none()),
                        new ScriptArgs.End("r", "s", "p", "t", "e:c", "|1|X|", Option.some(export))),
                LuaScripts.ABANDON, List.of(new ScriptArgs.Abandon("r", "p", "t", "|1|X|", Option.none()),
                        new ScriptArgs.Abandon("r", "p", "t", "|1|X|", Option.some(export))));
        assertThat(new ScriptArgs.Complete("r", "p", "t", 7, Option.some(new ScriptArgs.Export("o", "a", "b", false)))
                .argv()).as("an entry that does not carry the record").endsWith("a", "b", "0");
        argsWithoutAndWith.forEach((script, args) -> {
            ScriptArgs without = args.get(0);
            ScriptArgs with = args.get(1);
            int outboxKey = with.keys().size();
            int runId = without.argv().size() + 1;
            assertThat(with.keys()).as(script.name()).hasSize(without.keys().size() + 1).endsWith("tb:outbox")
                    .startsWith(without.keys().toArray());
            assertThat(with.argv()).as(script.name()).hasSize(without.argv().size() + 3)
                    .endsWith("run-1", "call-1", "1").startsWith(without.argv().toArray());
            List<String> appends = lines(script).stream().filter(line -> line.contains("'XADD'")).toList();
            assertThat(appends).as(script.name()).hasSize(2).allSatisfy(line -> assertThat(line)
                    .contains("'XADD', KEYS[" + outboxKey + "], '*', 'r', ARGV[" + runId + "], 'c', ARGV["
                            + (runId + 1) + "]"));
            assertThat(appends).as(script.name()).filteredOn(line -> line.contains("'v'")).hasSize(1);
            assertThat(code(script)).as(script.name()).contains("if KEYS[" + outboxKey + "] then")
                    .contains("if ARGV[" + (runId + 2) + "] == '1' then")
                    .doesNotContain("KEYS[" + (outboxKey + 1) + "]", "ARGV[" + (runId + 3) + "]");
            assertThat(script.source()).as("%s documents the outbox's key", script.name())
                    .contains("-- KEYS[" + outboxKey + "]  with export on only: the outbox, a stream   <prefix>:outbox");
        });
    }

    @Test
    void eachScriptReturnsExactlyTheRepliesItsReaderGivesAMeaning() {
        for (LuaScripts.Script<?, ?> script : scripts()) {
            Set<Enum<?>> replies = replies(script);
            assertThat(replies).as(script.name())
                    .containsExactlyInAnyOrderElementsOf(ANSWERS.getOrDefault(script, Map.of()).keySet());
            // Each script returns every reply of its own enum.
            assertThat(replies).as(script.name()).containsExactlyInAnyOrder(script.replies().getEnumConstants());
        }
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
    void everyReplySaysWhatItsScriptDid() {
        Set<ScriptReplies.Reply> writes = Set.of(ScriptReplies.Open.OPENED, ScriptReplies.Begin.CREATED,
                ScriptReplies.Complete.APPLIED, ScriptReplies.End.ENDED, ScriptReplies.End.NOT_FOUND,
                ScriptReplies.Abandon.ABANDONED, ScriptReplies.Touch.TOUCHED);
        Set<ScriptReplies.Reply> confirmations = Set.of(ScriptReplies.Open.RUN_OPEN,
                ScriptReplies.Begin.ALREADY_CREATED, ScriptReplies.Complete.FINAL, ScriptReplies.End.FINAL,
                ScriptReplies.Abandon.FINAL);
        for (LuaScripts.Script<?, ?> script : LuaScripts.ALL) {
            for (ScriptReplies.Reply reply : script.replies().getEnumConstants()) {
                assertThat(reply.effect()).as("%s %s", script.name(), reply)
                        .isEqualTo(writes.contains(reply) ? ScriptReplies.Effect.WRITE
                                : confirmations.contains(reply) ? ScriptReplies.Effect.CONFIRMATION
                                : ScriptReplies.Effect.REFUSAL);
            }
        }
    }

    @Test
    void anUnknownReplyAnotherScriptsReplyOrFieldsWhereNoneBelongAreInvalidData() {
        Either<StoreFailure, ?> invalid = Either.left(StoreFailure.dataInvalid());
        READERS.forEach((script, reader) -> {
            for (String unknown : List.of("created", "OK", "", "CREATED ")) {
                assertThat(reader.apply(List.of(unknown))).as("%s '%s'", script.name(), unknown).isEqualTo(invalid);
            }
            for (LuaScripts.Script<?, ?> other : scripts()) {
                for (Enum<?> reply : other.replies().getEnumConstants()) {
                    if (script.reply(reply.name()).isEmpty()) {
                        assertThat(reader.apply(List.of(reply.name()))).as("%s %s", script.name(), reply)
                                .isEqualTo(invalid);
                    }
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
        Function<Object, Either<StoreFailure, ?>> open = READERS.get(LuaScripts.OPEN);
        for (List<String> odd : List.of(List.of("RUN_OPEN"), List.of("RUN_OPEN", HELD.value()),
                List.of("RUN_OPEN", "calls", HELD.value()), List.of("RUN_OPEN", "token", "not a token!"),
                List.of("RUN_OPEN", "token", ""), List.of("RUN_OPEN", "token", HELD.value(), "calls", "0"))) {
            assertThat(open.apply(odd)).as("open.lua %s", odd).isEqualTo(invalid);
        }
    }

    /**
     * The Lua mirror of the domain's rules, on a real server: each case of a table is set up in Redis (the
     * run's state, what its key holds, the counters), decided by the store's script, and compared with
     * what {@link StoreRules} decides for the same case; a refusal must leave the run's state and the
     * record exactly as they were, a creation must reserve one call of each budget.
     */
    @Nested
    class MirrorOfTheStoreRules {

        private final RedisDeployment redis = RedisServerFixture.standalone();
        private final RedisCanonicalInvocationStore store = SharedRedisStores.withDefaultOptions(redis);

        @Test
        void beginDecidesEveryCaseAsStoreRulesBeginDoes() {
            List<int[]> counts = List.of(new int[] {0, 1, 0, 1}, new int[] {3, 3, 0, 10}, new int[] {3, 3, 3, 3},
                    new int[] {2, 3, 3, 3}, new int[] {2, 3, 2, 3}, new int[] {0, 0, 0, 5});
            int cases = 0;
            for (RunState runState : RunState.values()) {
                for (HeldState held : HeldState.values()) {
                    for (int[] count : counts) {
                        decideBegin(runState, held, count[0], count[1], count[2], count[3]);
                        cases++;
                    }
                }
            }
            assertThat(cases).isEqualTo(RunState.values().length * HeldState.values().length * counts.size());
        }

        @Test
        void openDecidesAsStoreRulesOpenRunDoes() {
            for (boolean heldBefore : List.of(false, true)) {
                RunId run = newRun();
                String runKey = store.runKey(run);
                Option<RunToken> held = heldBefore ? Option.some(RunToken.random()) : Option.none();
                held.forEach(token -> assertThat(store.openRun(new RunOpening(run, token, RUN_TTL), TIMEOUT)).isEqualTo(Either.right(token)));
                Map<String, String> before = hash(runKey);
                long ttlBefore = redis.callLong("PTTL", runKey);
                RunToken offered = RunToken.random();
                RunToken decided = StoreRules.openRun(held, offered);

                assertThat(store.openRun(new RunOpening(run, offered, RUN_TTL.multipliedBy(2)), TIMEOUT)).as("held %s", held)
                        .isEqualTo(Either.right(decided));

                if (heldBefore) {
                    assertThat(hash(runKey)).as("a held run is left as it is").isEqualTo(before);
                    assertThat(redis.callLong("PTTL", runKey)).isPositive().isLessThanOrEqualTo(ttlBefore);
                } else {
                    assertThat(hash(runKey)).isEqualTo(Map.of("token", decided.value(), "calls", "0"));
                    assertThat(redis.callLong("PTTL", runKey)).isPositive()
                            .isLessThanOrEqualTo(RUN_TTL.multipliedBy(2).toMillis());
                }
            }
        }

        private void decideBegin(RunState runState, HeldState held, int runUsed, int runBudget, int toolUsed,
                int toolBudget) {
            String as = runState + ", " + held + ", run " + runUsed + "/" + runBudget + ", tool " + toolUsed + "/"
                    + toolBudget;
            RunId run = Records.openedRun(store);
            String runKey = store.runKey(run);
            InvocationKey key = key(run, "c1");
            String recordKey = store.recordKey(key);
            CanonicalRecord.Projecting first = projecting(key, "{\"q\":1}");
            AttemptToken firstToken = AttemptToken.random();
            AttemptToken token = AttemptToken.random();
            CanonicalRecord.Projecting wanted = first;
            Option<StoreRules.Held> heldForTheRules = Option.none();
            if (held != HeldState.NONE) {
                assertThat(store.begin(start(first, firstToken), TIMEOUT)).as(as).isEqualTo(Either.right(first));
                CanonicalRecord stored = first;
                if (held == HeldState.OWN_READY || held == HeldState.OTHERS_FAILED) {
                    CanonicalRecord.Final done = held == HeldState.OWN_READY ? ready(first, "raw", "result")
                            : failed(first, ErrorCode.EXECUTION_FAILED, Option.some("raw"));
                    assertThat(store.complete(firstToken, done, TIMEOUT)).as(as).isEqualTo(Either.right(done));
                    stored = done;
                }
                boolean own = held == HeldState.OWN_PROJECTING || held == HeldState.OWN_READY;
                token = own ? firstToken : token;
                wanted = held == HeldState.OTHERS_FAILED || held == HeldState.GONE_OTHER_REQUEST
                        ? projecting(key, "{\"q\":2}") : first;
                boolean gone = held == HeldState.GONE_SAME_REQUEST || held == HeldState.GONE_OTHER_REQUEST;
                if (gone) {
                    redis.call("DEL", recordKey);
                }
                heldForTheRules = gone ? Option.none() : Option.some(new StoreRules.Held(stored, own));
            }
            // The store saw the run begin one call when the case began a record: a run's state that says
            // fewer is an older copy, which the rules see as a run the store does not hold.
            int seen = held == HeldState.NONE ? 0 : 1;
            String toolCounter = RedisKeys.toolCounterField(wanted.tool());
            redis.call("HSET", runKey, "calls", Integer.toString(runUsed), toolCounter, Integer.toString(toolUsed));
            if (runState == RunState.OTHER_TOKEN) {
                redis.call("HSET", runKey, "token", "another-opening");
            } else if (runState == RunState.LOST) {
                redis.call("DEL", runKey);
            }
            Map<String, String> runBefore = hash(runKey);
            Object recordBefore = redis.call("GET", recordKey);
            Option<StoreRules.RunLedger> runForTheRules = runState == RunState.OPEN && runUsed >= seen
                    ? Option.some(new StoreRules.RunLedger(
                            held == HeldState.NONE ? Option.none() : Option.some(first.requestFingerprint()),
                            runUsed, toolUsed))
                    : Option.none();
            Either<Refusal, Option<CanonicalRecord.Projecting>> rule = StoreRules.begin(runForTheRules,
                    heldForTheRules, wanted.requestFingerprint(), runBudget, toolBudget);
            CanonicalRecord.Projecting created = wanted;

            assertThat(store.begin(start(wanted, token, runBudget, toolBudget), TIMEOUT)).as(as)
                    .isEqualTo(rule.fold(reason -> Either.left(StoreFailure.refused(reason)),
                            stored -> Either.right(stored.getOrElse(created))));

            if (rule.isRight() && rule.get().isEmpty()) {
                Map<String, String> reserved = new HashMap<>(runBefore);
                reserved.put("calls", Integer.toString(runUsed + 1));
                reserved.put(toolCounter, Integer.toString(toolUsed + 1));
                reserved.put(RedisKeys.ledgerField(key.toolCallId()), RecordCodec.packedFingerprint(wanted.requestFingerprint()));
                assertThat(hash(runKey)).as(as + ": one call of each budget reserved").isEqualTo(reserved);
                assertThat(store.find(key, TIMEOUT)).as(as).isEqualTo(Either.right(Option.of(wanted)));
            } else {
                assertThat(hash(runKey)).as(as + ": the run's state untouched").isEqualTo(runBefore);
                assertThat(redis.call("GET", recordKey)).as(as + ": the record untouched").isEqualTo(recordBefore);
            }
        }

        private Map<String, String> hash(String key) {
            List<?> flat = (List<?>) redis.call("HGETALL", key);
            Map<String, String> fields = new HashMap<>();
            for (int i = 0; i + 1 < flat.size(); i += 2) {
                fields.put(String.valueOf(flat.get(i)), String.valueOf(flat.get(i + 1)));
            }
            return fields;
        }
    }

    /** The run's state in a case of {@link MirrorOfTheStoreRules}: the store holds it with the caller's token, another, or none. */
    private enum RunState {
        OPEN, OTHER_TOKEN, LOST
    }

    /** What the key holds in a case of {@link MirrorOfTheStoreRules}, and whether the caller's attempt began it. */
    private enum HeldState {
        NONE, OWN_PROJECTING, OWN_READY, OTHERS_PROJECTING_SAME_REQUEST, OTHERS_FAILED,
        /** The record is gone (expired or evicted); the run's ledger has it, with the same request. */
        GONE_SAME_REQUEST,
        /** The record is gone; the run's ledger has it, with another request. */
        GONE_OTHER_REQUEST
    }

    private static List<LuaScripts.Script<?, ?>> scripts() {
        return List.of(LuaScripts.OPEN, LuaScripts.BEGIN, LuaScripts.COMPLETE, LuaScripts.END, LuaScripts.ABANDON,
                LuaScripts.FIND);
    }

    /** The script's code without its comments. */
    private static String code(LuaScripts.Script<?, ?> script) {
        return Arrays.stream(script.source().split("\n"))
                .map(line -> line.contains("--") ? line.substring(0, line.indexOf("--")) : line)
                .collect(Collectors.joining("\n"));
    }

    /** The script's code lines, without comments. */
    private static List<String> lines(LuaScripts.Script<?, ?> script) {
        return List.of(code(script).split("\n"));
    }

    private static List<String> literals(String code) {
        List<String> literals = new ArrayList<>();
        Matcher matcher = LITERAL.matcher(code);
        while (matcher.find()) {
            literals.add(matcher.group(1));
        }
        return literals;
    }

    /** The field literals on the one code line of {@code script} that contains {@code marker}. */
    private static List<String> fieldsOnTheLineOf(LuaScripts.Script<?, ?> script, String marker) {
        List<String> matching = lines(script).stream().filter(line -> line.contains(marker)).toList();
        assertThat(matching).as("lines of %s with %s", script.name(), marker).hasSize(1);
        return literals(matching.get(0)).stream().filter(literal -> FIELD.matcher(literal).matches()).toList();
    }

    private static Set<Enum<?>> replies(LuaScripts.Script<?, ?> script) {
        Set<Enum<?>> replies = new java.util.HashSet<>();
        Matcher matcher = REPLY.matcher(code(script));
        while (matcher.find()) {
            String name = matcher.group(1) != null ? matcher.group(1)
                    : matcher.group(2) != null ? matcher.group(2) : matcher.group(3);
            assertThat(script.reply(name)).as("reply %s of %s", name, script.name()).isNotEmpty();
            replies.add(script.reply(name).get());
        }
        return replies;
    }

    private static Set<String> union(Set<String> first, Set<String> second) {
        Set<String> all = new TreeSet<>(first);
        all.addAll(second);
        return all;
    }

    private static boolean isCommand(String literal) {
        return COMMANDS.contains(literal);
    }

    private static boolean isReply(String literal) {
        return scripts().stream().anyMatch(script -> script.reply(literal).isDefined());
    }

    /** A record with {@link #TOKEN} as the scripts return it: its one value, as stored. */
    private static List<String> stored(CanonicalRecord record) {
        byte[] value = record instanceof CanonicalRecord.Final done ? RecordCodec.completed(done, TOKEN)
                : RecordCodec.projecting((CanonicalRecord.Projecting) record, TOKEN, 1000);
        return List.of(new String(value, java.nio.charset.StandardCharsets.UTF_8));
    }

    private record Answer(List<String> fields, Either<StoreFailure, ?> result) {
        static Answer of(List<String> fields, Either<StoreFailure, ?> result) {
            return new Answer(fields, result);
        }

        static Answer refused(StoreFailure failure) {
            return new Answer(List.of(), Either.left(failure));
        }
    }
}
