package io.toolboundary.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The {@code ### Layout} table of docs/redis.md against the code: its key patterns are the keys {@link RedisKeys}
 * builds and the keys the scripts' headers document, its run fields are the fields the scripts name for the
 * run's state, and every script it names as a writer is one the store loads ({@link LuaScripts#ALL}) and names
 * that key. No Redis is needed.
 */
class RedisLayoutDocTest {

    private static final Path DOC = Path.of("..", "docs", "redis.md");
    private static final String HEADING = "### Layout";
    private static final List<String> HEADER = List.of("key", "type", "fields or value", "TTL", "written by");

    /**
     * A key pattern as the docs and the scripts' headers write it: a run's key, or one of the outbox's, which
     * belong to no run.
     */
    private static final Pattern KEY_PATTERN = Pattern.compile(
            "<prefix>(?::\\{<runId>\\}(?::(?:[a-z]+|<[A-Za-z]+>))*|(?::[a-z]+)+)");
    /** A key cell: the key pattern, then, for a field of the run's hash, {@code field `<name>`}. */
    private static final Pattern KEY_CELL = Pattern.compile("`([^`]+)`(?: field `([^`]+)`)?");
    private static final Pattern SCRIPT_NAME = Pattern.compile("\\b([a-z]+\\.lua)\\b");
    private static final Pattern KEYS_LINE = Pattern.compile("^--\\s+KEYS\\[(\\d+)]\\s+(.*)$");
    private static final Pattern ARGV_LINE = Pattern.compile("^--\\s+ARGV\\[(\\d+)]\\s+(.*)$");
    /** The type a header names for a key: {@code the record, a string}. */
    private static final Pattern KEY_TYPE = Pattern.compile(",\\s+an?\\s+(string|hash|stream)\\b");
    /** A field shape quoted in an ARGV comment: {@code 't:<toolName>'}. */
    private static final Pattern FIELD_SHAPE = Pattern.compile("'([a-z]+:<[A-Za-z]+>)'");
    private static final Pattern CALL = Pattern.compile("redis\\.p?call\\(");
    private static final Pattern LITERAL = Pattern.compile("'([^']*)'");
    private static final Pattern ARGV_ARG = Pattern.compile("ARGV\\[(\\d+)]");

    /** Placeholders the store accepts, put back into the docs' names. */
    private static final String RUN = "RUNID0";
    private static final String CALL_ID = "TOOLCALLID0";
    private static final String TOKEN = "TOKEN0";
    private static final String TOOL = "TOOLNAME0";

    /** One row of the layout table. */
    private record Row(String key, String field, String type, String ttl, Set<String> writers, String line) {
        boolean isKey() {
            return field == null;
        }
    }

    @Test
    void theTablesKeysAreTheKeysTheStoreBuilds() throws IOException {
        RedisKeys keys = new RedisKeys("<prefix>");
        InvocationKey call = InvocationKey.of(new RunId(RUN), new ToolCallId(CALL_ID));
        Set<String> built = Set.of(shape(keys.record(call)), shape(keys.pending(call, new AttemptToken(TOKEN))),
                shape(keys.runState(new RunId(RUN))), keys.outbox(), keys.outboxLost());
        assertThat(built).as("the shapes RedisKeys builds").containsExactlyInAnyOrder(
                "<prefix>:{<runId>}:call:<toolCallId>", "<prefix>:{<runId>}:pending:<token>:<toolCallId>",
                "<prefix>:{<runId>}:run", "<prefix>:outbox", "<prefix>:outbox:lost");

        List<Row> rows = table();

        assertThat(keyRows(rows).keySet()).as("the key rows of the Layout table").containsExactlyInAnyOrderElementsOf(built);
        assertThat(rows).as("every field row belongs to a key row").allSatisfy(row ->
                assertThat(keyRows(rows)).containsKey(row.key()));
        assertThat(rows.stream().filter(row -> !row.isKey()).map(Row::key).distinct().toList())
                .as("only the run's state has fields").containsExactly(shape(keys.runState(new RunId(RUN))));
        // Every key has a TTL but the outbox's two, which have none by design.
        Set<String> withoutTtl = Set.of(keys.outbox(), keys.outboxLost());
        keyRows(rows).forEach((pattern, row) -> assertThat(row.ttl().startsWith("none"))
                .as("the TTL of %s: %s", pattern, row.ttl()).isEqualTo(withoutTtl.contains(pattern)));
    }

    @Test
    void everyKeyTheScriptsDocumentIsInTheTableWithItsType() throws IOException {
        Map<String, Row> keyRows = keyRows(table());
        Set<String> named = new TreeSet<>();
        for (LuaScripts.Script<?, ?> script : LuaScripts.ALL) {
            Map<Integer, String> header = keysHeader(script);
            assertThat(header).as("the KEYS documented by %s", script.name()).isNotEmpty();
            header.forEach((index, text) -> {
                List<String> patterns = patterns(text);
                if (script.writes()) {
                    assertThat(patterns).as("%s KEYS[%s] names a key pattern: %s", script.name(), index, text)
                            .isNotEmpty();
                }
                for (String pattern : patterns) {
                    assertThat(keyRows).as("%s KEYS[%s] names %s", script.name(), index, pattern).containsKey(pattern);
                }
                Matcher type = KEY_TYPE.matcher(text);
                if (type.find()) {
                    assertThat(patterns).as("%s KEYS[%s] names one key with its type", script.name(), index).hasSize(1);
                    assertThat(keyRows.get(patterns.get(0)).type()).as("the type of %s", patterns.get(0))
                            .isEqualTo(type.group(1));
                }
                named.addAll(patterns);
            });
        }
        assertThat(named).as("the keys the scripts' headers name").containsExactlyInAnyOrderElementsOf(keyRows.keySet());
    }

    @Test
    void theRunsFieldsAreTheFieldsTheScriptsAndRedisKeysName() throws IOException {
        String run = shape(new RedisKeys("<prefix>").runState(new RunId(RUN)));
        List<Row> rows = table();
        Set<String> documented = rows.stream().filter(row -> !row.isKey() && row.key().equals(run)).map(Row::field)
                .collect(Collectors.toCollection(TreeSet::new));

        Set<String> literals = new TreeSet<>();
        Set<String> viaArguments = new TreeSet<>();
        for (LuaScripts.Script<?, ?> script : LuaScripts.ALL) {
            runFields(script, run, literals, viaArguments);
        }
        Set<String> built = Set.of(shape(RedisKeys.toolCounterField(new ToolName(TOOL))),
                shape(RedisKeys.ledgerField(new ToolCallId(CALL_ID))), shape(RedisKeys.endMarkField(new ToolCallId(CALL_ID))));

        assertThat(built).as("the fields RedisKeys builds").containsExactlyInAnyOrder("t:<toolName>", "c:<toolCallId>",
                "e:<toolCallId>");
        assertThat(literals).as("the fields open.lua and begin.lua name themselves").contains("token", "calls");
        assertThat(viaArguments).as("the fields the scripts receive, as their headers describe them")
                .containsExactlyInAnyOrderElementsOf(built);
        Set<String> expected = new TreeSet<>(literals);
        expected.addAll(built);
        assertThat(documented).as("the run's fields in the Layout table").containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void everyWriterInTheTableIsALoadedScriptThatNamesTheKey() throws IOException {
        Map<String, LuaScripts.Script<?, ?>> loaded = new LinkedHashMap<>();
        LuaScripts.ALL.forEach(script -> loaded.put(script.name(), script));
        Set<String> writers = new TreeSet<>();
        for (Row row : table()) {
            assertThat(row.writers()).as("the scripts that write %s", row.line()).isNotEmpty();
            for (String writer : row.writers()) {
                assertThat(loaded).as("%s, named in the row %s", writer, row.line()).containsKey(writer);
                assertThat(keysHeader(loaded.get(writer)).values().stream().flatMap(text -> patterns(text).stream()))
                        .as("the keys %s documents, for the row %s", writer, row.line()).contains(row.key());
                assertThat(loaded.get(writer).writes()).as("%s may write", writer).isTrue();
            }
            writers.addAll(row.writers());
        }
        assertThat(writers).as("every script that writes is named as a writer")
                .containsExactlyInAnyOrderElementsOf(loaded.values().stream().filter(LuaScripts.Script::writes)
                        .map(LuaScripts.Script::name).toList());
    }

    // ---------------------------------------------------------------------------------------------------------
    // The docs' table

    /** The rows of the table under {@code ### Layout}, checked for the header and for one row per key and field. */
    private static List<Row> table() throws IOException {
        List<String> lines = Files.readAllLines(DOC);
        int heading = lines.indexOf(HEADING);
        assertThat(heading).as("%s has a heading %s", DOC, HEADING).isNotNegative();
        int at = heading + 1;
        while (at < lines.size() && !lines.get(at).startsWith("|")) {
            assertThat(lines.get(at)).as("no other heading before the Layout table").doesNotStartWith("#");
            at++;
        }
        assertThat(at).as("a table under %s", HEADING).isLessThan(lines.size());
        assertThat(cells(lines.get(at))).as("the Layout table's header").isEqualTo(HEADER);
        assertThat(lines.get(at + 1)).as("the Layout table's rule").matches("\\|(\\s*-{3,}\\s*\\|){5}");
        List<Row> rows = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (at += 2; at < lines.size() && lines.get(at).startsWith("|"); at++) {
            String line = lines.get(at);
            List<String> cells = cells(line);
            assertThat(cells).as("the cells of %s", line).hasSize(HEADER.size());
            Matcher key = KEY_CELL.matcher(cells.get(0));
            if (!key.matches()) {
                fail("a key cell is `<key pattern>` or `<key pattern>` field `<field>`: " + cells.get(0));
            }
            Set<String> writers = new TreeSet<>();
            Matcher script = SCRIPT_NAME.matcher(cells.get(4));
            while (script.find()) {
                writers.add(script.group(1));
            }
            Row row = new Row(key.group(1), key.group(2), cells.get(1), cells.get(3), writers, line);
            assertThat(seen.add(row.key() + " " + row.field())).as("one row for %s", cells.get(0)).isTrue();
            rows.add(row);
        }
        assertThat(rows).as("the Layout table's rows").isNotEmpty();
        return rows;
    }

    /** The cells of a table line, split at each {@code |} that is not escaped, trimmed. */
    private static List<String> cells(String line) {
        String inner = line.trim();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("(?<!\\\\)\\|", -1)) {
            cells.add(cell.trim());
        }
        return cells;
    }

    /** The key rows, by key pattern, each with a type the store writes. */
    private static Map<String, Row> keyRows(List<Row> rows) {
        Map<String, Row> keys = new LinkedHashMap<>();
        for (Row row : rows) {
            if (row.isKey()) {
                assertThat(row.type()).as("the type of %s", row.key()).isIn("string", "hash", "stream");
                keys.put(row.key(), row);
            } else {
                assertThat(row.type()).as("the type of %s field %s", row.key(), row.field()).isEqualTo("hash field");
            }
        }
        return keys;
    }

    // ---------------------------------------------------------------------------------------------------------
    // The scripts

    /** The {@code KEYS[n]} lines of a script's header comment, by index: the text after {@code KEYS[n]}. */
    private static Map<Integer, String> keysHeader(LuaScripts.Script<?, ?> script) {
        return header(script, KEYS_LINE);
    }

    private static Map<Integer, String> header(LuaScripts.Script<?, ?> script, Pattern line) {
        Map<Integer, String> documented = new LinkedHashMap<>();
        for (String text : script.source().split("\n")) {
            if (!text.startsWith("--")) {
                break;
            }
            Matcher matcher = line.matcher(text);
            if (matcher.matches()) {
                assertThat(documented.put(Integer.parseInt(matcher.group(1)), matcher.group(2)))
                        .as("%s documents %s once", script.name(), text).isNull();
            }
        }
        return documented;
    }

    /** The key patterns a header line names. */
    private static List<String> patterns(String text) {
        List<String> found = new ArrayList<>();
        Matcher matcher = KEY_PATTERN.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group());
        }
        return found;
    }

    /**
     * The fields {@code script} names for the run's state: in each hash command on a {@code KEYS[n]} its header
     * documents as the run's state, the literal fields into {@code literals}, and the fields it receives in
     * {@code ARGV}, by the shape its header quotes, into {@code viaArguments}.
     */
    private static void runFields(LuaScripts.Script<?, ?> script, String run, Set<String> literals,
            Set<String> viaArguments) {
        Set<String> runKeys = new TreeSet<>();
        keysHeader(script).forEach((index, text) -> {
            if (patterns(text).contains(run)) {
                runKeys.add("KEYS[" + index + "]");
            }
        });
        if (runKeys.isEmpty()) {
            return;
        }
        Map<Integer, String> argv = header(script, ARGV_LINE);
        String code = code(script);
        Matcher call = CALL.matcher(code);
        while (call.find()) {
            List<String> args = arguments(code, call.end());
            if (args.size() < 2 || !runKeys.contains(args.get(1))) {
                continue;
            }
            Matcher command = LITERAL.matcher(args.get(0));
            assertThat(command.matches()).as("a command named by a literal in %s: %s", script.name(), args).isTrue();
            String name = command.group(1).toUpperCase(java.util.Locale.ROOT);
            if (!name.startsWith("H")) {
                continue;
            }
            List<String> rest = args.subList(2, args.size());
            List<String> fields = switch (name) {
                case "HSET", "HSETNX", "HMSET" -> everyOther(rest);
                case "HGET", "HEXISTS", "HINCRBY", "HINCRBYFLOAT", "HSTRLEN" -> rest.subList(0, 1);
                case "HMGET", "HDEL" -> rest;
                default -> {
                    fail("a hash command this test does not know, in " + script.name() + ": " + name);
                    yield List.of();
                }
            };
            for (String field : fields) {
                Matcher literal = LITERAL.matcher(field);
                Matcher argument = ARGV_ARG.matcher(field);
                if (literal.matches()) {
                    literals.add(literal.group(1));
                } else if (argument.matches()) {
                    String described = argv.get(Integer.parseInt(argument.group(1)));
                    assertThat(described).as("%s documents %s", script.name(), field).isNotNull();
                    Matcher shape = FIELD_SHAPE.matcher(described);
                    assertThat(shape.find()).as("%s quotes the field %s is: %s", script.name(), field, described).isTrue();
                    viaArguments.add(shape.group(1));
                } else {
                    fail("a field of the run's state that is neither a literal nor an ARGV in " + script.name() + ": "
                            + field);
                }
            }
        }
    }

    private static List<String> everyOther(List<String> values) {
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < values.size(); i += 2) {
            picked.add(values.get(i));
        }
        return picked;
    }

    /** The arguments of the call whose parenthesis opens just before {@code from}, split at top-level commas. */
    private static List<String> arguments(String code, int from) {
        List<String> args = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        StringBuilder current = new StringBuilder();
        for (int i = from; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && (c == '(' || c == '{' || c == '[')) {
                depth++;
            } else if (!quoted && (c == ')' || c == '}' || c == ']')) {
                if (depth == 0) {
                    args.add(current.toString().trim());
                    return args;
                }
                depth--;
            } else if (!quoted && c == ',' && depth == 0) {
                args.add(current.toString().trim());
                current.setLength(0);
                continue;
            }
            current.append(c);
        }
        throw new AssertionError("an unclosed call in a script: " + code.substring(from, Math.min(code.length(), from + 80)));
    }

    /** The script's code, without its comments. */
    private static String code(LuaScripts.Script<?, ?> script) {
        return java.util.Arrays.stream(script.source().split("\n"))
                .map(line -> line.contains("--") ? line.substring(0, line.indexOf("--")) : line)
                .collect(Collectors.joining("\n"));
    }

    /** A key or field the store built from the placeholders, in the docs' names. */
    private static String shape(String built) {
        return built.replace(RUN, "<runId>").replace(CALL_ID, "<toolCallId>").replace(TOKEN, "<token>")
                .replace(TOOL, "<toolName>");
    }
}
