package io.toolboundary.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.testsupport.redis.RedisDeployment;
import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

class DemoTest {

    private static final String AGENT_GOT_BACK = "agent got back";
    private static final String HARNESS_RECORD = "harness record";

    /** What the agent gets back at each step, on every store. */
    private static final List<String> SCRIPTED_RESULTS = List.of(
            "EVIDENCE_FOUND",
            "NO_EVIDENCE",
            "EVIDENCE_FOUND",
            "EVIDENCE_FOUND",
            "ERROR DUPLICATE_TOOL_CALL",
            "ERROR TOOL_CALL_ID_REUSED",
            "ERROR TOOL_CALL_ID_UNSAFE",
            "ERROR RUN_MISMATCH",
            "ERROR TOOL_NOT_AUTHORIZED",
            "ERROR TOOL_NOT_READ_ONLY",
            "ERROR RESULT_TOO_LARGE",
            "ERROR RESULT_TOO_LARGE",
            "ERROR PROJECTION_FAILED",
            "ERROR RUN_STATE_LOST");
    /** The steps that create a record, by tool call id, with the status each record ends in. */
    private static final Map<String, String> CREATED_RECORDS = Map.of(
            "call_01", "READY", "call_02", "READY", "call_03", "READY", "call_04", "READY",
            "call_11", "ERROR", "call_12", "ERROR", "call_13", "ERROR");
    /** The steps refused before anything was stored, in preflight or for the lost run state: no key may exist for them. */
    private static final List<String> NEVER_STORED = List.of("call_08", "call_09", "call_10", "call_14");
    private static final String KEY_PREFIX = "toolboundary";

    private static Run demo;

    @BeforeAll
    static void playDemoOnce() {
        demo = Run.of();
    }

    @Nested
    class ScriptedRun {

        @Test
        void exitsZeroWithNothingOnStandardError() {
            assertThat(demo.exitCode()).isZero();
            assertThat(demo.err()).isEmpty();
        }

        @Test
        void holdsTheScriptedAnswersCitationsAgainstTheRecords() {
            String out = demo.out();
            String answers = out.substring(out.indexOf("The agent's final answer"), out.indexOf("Audit database"));
            List<String> verdicts = answers.lines().filter(line -> line.matches(" {10}(evidence|not found) +call_.*"))
                    .map(String::strip).map(line -> line.replaceAll(" +", " ")).toList();

            assertThat(verdicts).containsExactly("evidence call_01 ACCEPTED", "evidence call_04 ACCEPTED",
                    "not found call_02 ACCEPTED", "evidence call_03 ACCEPTED", "evidence call_02 NEGATIVE_AS_EVIDENCE",
                    "evidence call_13 NOT_REFERENCABLE");
            assertThat(answers).containsOnlyOnce("grounded: the answer goes out as written")
                    .containsOnlyOnce("not grounded: the model is asked to revise with:")
                    .doesNotContain("payment_gateway_latency_ms", "PROJECTION_FAILED");
        }

        @Test
        void readsTheRunsFinalRecordsBackFromTheAuditDatabaseWithRawResponsesMasked() {
            String audit = demo.out().substring(demo.out().indexOf("Audit database"));
            List<String> rows = audit.lines().filter(line -> line.startsWith("  call_")).toList();

            assertThat(rows).hasSize(CREATED_RECORDS.size());
            CREATED_RECORDS.forEach((call, status) -> assertThat(rows)
                    .anySatisfy(row -> assertThat(row).startsWith("  " + call + " ").contains(" " + status + " ")));
            assertThat(rows).allSatisfy(row -> assertThat(row).endsWith("(MASK)"));
            NEVER_STORED.forEach(call -> assertThat(audit).doesNotContain(call));
        }

        @Test
        void showsEveryScriptedCaseInOrder() {
            assertThat(demo.results()).containsExactlyElementsOf(SCRIPTED_RESULTS);
            assertThat(demo.out()).doesNotContain("NOT AS SCRIPTED");
        }

        @Test
        void givesTheAgentOnlySafeMessagesForErrors() {
            assertThat(demo.step(8).value(AGENT_GOT_BACK, "message")).isEqualTo("The tool call belongs to a different run.");
            assertThat(demo.step(13).value(AGENT_GOT_BACK, "message")).isEqualTo("The tool result could not be projected.");
        }

        @Test
        void printsTheTextTheModelSeesForEachStep() {
            assertThat(demo.step(2).value(AGENT_GOT_BACK, "model sees")).startsWith("NO_EVIDENCE (scope: ");
            assertThat(demo.step(8).value(AGENT_GOT_BACK, "model sees"))
                    .isEqualTo("ERROR RUN_MISMATCH: The tool call belongs to a different run.");
        }

        @Test
        void showsTheNegativeObservationWithItsScope() {
            Step noEvidence = demo.step(2);
            assertThat(noEvidence.value(AGENT_GOT_BACK, "scope")).contains("service inventory");
            assertThat(noEvidence.value(HARNESS_RECORD, "status")).isEqualTo("READY");
            assertThat(noEvidence.value(HARNESS_RECORD, "evidence")).isEqualTo("NO_EVIDENCE");
            assertThat(noEvidence.value(HARNESS_RECORD, "referencable"))
                    .isEqualTo("only as a negative observation within its scope");
        }

        @Test
        void showsTheCanonicalRecordOfASuccessfulCall() {
            Step normal = demo.step(1);
            assertThat(normal.value(HARNESS_RECORD, "record")).startsWith("created by this step");
            assertThat(normal.value(HARNESS_RECORD, "status")).isEqualTo("READY");
            assertThat(normal.value(HARNESS_RECORD, "evidence")).isEqualTo("EVIDENCE_FOUND");
            assertThat(normal.value(HARNESS_RECORD, "error code")).isEqualTo("-");
            assertThat(normal.value(HARNESS_RECORD, "request bytes")).isEqualTo("63");
            assertThat(Long.parseLong(normal.value(HARNESS_RECORD, "raw bytes")))
                    .isGreaterThan(Long.parseLong(normal.value(HARNESS_RECORD, "agent result bytes")));
            assertThat(normal.value(HARNESS_RECORD, "referencable")).isEqualTo("yes, as evidence");
            assertThat(normal.value(HARNESS_RECORD, "tool / projector")).contains("tool ran").contains("projector ran");
        }

        @Test
        void neverShowsRawResponseTextToTheAgent() {
            for (Step step : demo.steps()) {
                assertThat(step.group(AGENT_GOT_BACK)).doesNotContain(DemoTools.RAW_ONLY_MARKER, "db-replica",
                        "compute.internal", "chunk=", "cannot read sample");
            }
            assertThat(demo.out()).doesNotContain(DemoTools.RAW_ONLY_MARKER);
            assertThat(demo.step(1).value(AGENT_GOT_BACK, "content"))
                    .contains("10:02:11Z gateway timeout after 3000 ms, order 88412");
        }

        @Test
        void keepsTheFirstRecordUnchangedWhenItsIdComesAgain() {
            for (int number : new int[] {5, 6}) {
                Step step = demo.step(number);
                assertThat(step.value(HARNESS_RECORD, "record")).startsWith("the record of step 1, unchanged");
                assertThat(step.value(HARNESS_RECORD, "status")).isEqualTo("READY");
                assertThat(step.value(HARNESS_RECORD, "tool / projector")).isEqualTo("tool not run, projector not run");
            }
        }

        @Test
        void showsNoRecordWhereAPreflightCheckRefusedTheCall() {
            for (int number : new int[] {7, 8, 9, 10}) {
                Step step = demo.step(number);
                assertThat(step.value(HARNESS_RECORD, "record")).isEqualTo("no record (nothing was stored)");
                assertThat(step.value(HARNESS_RECORD, "tool / projector")).isEqualTo("tool not run, projector not run");
            }
            assertThat(demo.step(8).value("agent sent", "run id")).isEqualTo(TriageScript.OTHER_RUN_ID);
        }

        @Test
        void endsAnOversizedRawResponseInErrorWithoutKeepingOrProjectingIt() {
            Step step = demo.step(11);
            assertThat(step.value(HARNESS_RECORD, "status")).isEqualTo("ERROR");
            assertThat(step.value(HARNESS_RECORD, "evidence")).isEqualTo("ERROR");
            assertThat(step.value(HARNESS_RECORD, "error code")).isEqualTo("RESULT_TOO_LARGE");
            assertThat(step.value(HARNESS_RECORD, "raw bytes")).isEqualTo("none kept");
            assertThat(step.value(HARNESS_RECORD, "referencable")).isEqualTo("no");
            Matcher rawBytes = Pattern.compile("tool ran \\((\\d+) raw bytes\\), projector not run")
                    .matcher(step.value(HARNESS_RECORD, "tool / projector"));
            assertThat(rawBytes.matches()).isTrue();
            assertThat(Long.parseLong(rawBytes.group(1))).isGreaterThan(1024L * 1024);
        }

        @Test
        void keepsTheRawResponseForTheHarnessWhenTheProjectionFails() {
            for (int number : new int[] {12, 13}) {
                Step step = demo.step(number);
                assertThat(step.value(HARNESS_RECORD, "status")).isEqualTo("ERROR");
                assertThat(Long.parseLong(step.value(HARNESS_RECORD, "raw bytes"))).isPositive();
                assertThat(step.value(HARNESS_RECORD, "agent result bytes")).isEqualTo("-");
                assertThat(step.value(HARNESS_RECORD, "referencable")).isEqualTo("no");
                assertThat(step.value(HARNESS_RECORD, "tool / projector")).endsWith("projector ran");
            }
            assertThat(demo.step(12).value(HARNESS_RECORD, "error code")).isEqualTo("RESULT_TOO_LARGE");
            assertThat(demo.step(13).value(HARNESS_RECORD, "error code")).isEqualTo("PROJECTION_FAILED");
        }

        @Test
        void refusesACallWhoseRunTokenTheStoreDoesNotHoldAndRunsNothing() {
            Step lost = demo.step(14);
            assertThat(lost.value("agent sent", "tool_call_id")).isEqualTo("call_14");
            assertThat(lost.value(AGENT_GOT_BACK, "message"))
                    .isEqualTo("The run's stored state was lost; the tool was not run. Start a new run.");
            assertThat(lost.value(AGENT_GOT_BACK, "model sees")).startsWith("ERROR RUN_STATE_LOST: ");
            assertThat(lost.value(HARNESS_RECORD, "record")).isEqualTo("no record (nothing was stored)");
            assertThat(lost.value(HARNESS_RECORD, "tool / projector")).isEqualTo("tool not run, projector not run");
        }

        @Test
        void opensTheRunBeforeItsFirstCall() {
            assertThat(demo.out()).containsPattern("run id +triage-[0-9a-f]{8} \\(opened in the store; deadline in 15 min");
        }

        @Test
        void abbreviatesLongArgumentsWithTheirByteCount() {
            String arguments = demo.step(3).value("agent sent", "arguments");
            assertThat(arguments).matches("(?s)\\{\"query\":.*\u2026\\(\\d+ bytes\\)");
            assertThat(demo.step(1).value("agent sent", "arguments")).doesNotContain("\u2026");
        }

        @Test
        void endsWithAOneLineSummary() {
            assertThat(demo.summary()).startsWith(
                    "Summary: 14 steps, 7 records created (4 READY, 3 ERROR), 7 tool executions, 6 projector runs, 10 errors:")
                    .contains("DUPLICATE_TOOL_CALL 1", "RUN_MISMATCH 1", "TOOL_NOT_AUTHORIZED 1", "TOOL_NOT_READ_ONLY 1",
                            "RESULT_TOO_LARGE 2", "PROJECTION_FAILED 1", "TOOL_CALL_ID_REUSED 1", "TOOL_CALL_ID_UNSAFE 1",
                            "RUN_STATE_LOST 1");
        }

        @Test
        void keepsEveryLineWithinOneHundredColumnsOfPlainText() {
            assertThat(demo.out().lines()).allSatisfy(line -> {
                assertThat(line.codePointCount(0, line.length())).isLessThanOrEqualTo(Table.WIDTH);
                assertThat(line.replace("\u2026", "")).matches("[\\x20-\\x7E]*");
            });
        }
    }

    @Nested
    class CommandLineOptions {

        @Test
        void playsANewRunIdEachTime() {
            Run again = Run.of("--in-memory");
            assertThat(again.exitCode()).isZero();
            assertThat(again.runId()).matches("triage-[0-9a-f]{8}").isNotEqualTo(demo.runId());
        }

        @Test
        void printsUsageOnHelp() {
            Run help = Run.of("--help");
            assertThat(help.exitCode()).isZero();
            assertThat(help.out()).startsWith("Usage: java -jar boundary-demo.jar");
            assertThat(help.err()).isEmpty();
        }

        @Test
        void rejectsAnUnknownOptionWithUsage() {
            Run bad = Run.of("--verbose");
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("unknown option: --verbose").contains("Usage:");
            assertThat(bad.out()).isEmpty();
        }

        @Test
        void rejectsARedisOptionWithoutAddress() {
            Run bad = Run.of("--redis");
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("--redis needs a redis://HOST:PORT address").contains("Usage:");
        }

        @Test
        void rejectsTwoStores() {
            Run bad = Run.of("--in-memory", "--redis", "redis://localhost:6379");
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("choose one store");
        }

        @Test
        void rejectsAllowEvictionWithoutARedisStore() {
            Run bad = Run.of("--allow-eviction");
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("--allow-eviction applies to --redis and --redis-cluster only");
            assertThat(bad.out()).isEmpty();
        }

        @Test
        void explainsTheEvictionRuleInTheUsage() {
            assertThat(Run.of("--help").out()).contains("--allow-eviction", "maxmemory-policy noeviction",
                    "CONFIG SET maxmemory-policy noeviction");
        }

        @Test
        void reportsARefusedConnectionInOneLineAndExitsOne() throws IOException {
            int closedPort;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                closedPort = probe.getLocalPort();
            }

            Run refused = Run.of("--redis", "redis://127.0.0.1:" + closedPort);

            assertThat(refused.exitCode()).isEqualTo(1);
            assertThat(refused.out()).isEmpty();
            assertThat(refused.err().lines()).containsExactly(
                    "boundary-demo: cannot connect to Redis at 127.0.0.1:" + closedPort + ": connection refused");
        }

        @Test
        void reportsAMalformedAddressInOneLineWithoutItsPassword() {
            Run bad = Run.of("--redis", "redis://:s3cret@127.0.0.1:port");

            assertThat(bad.exitCode()).isEqualTo(1);
            assertThat(bad.out()).isEmpty();
            assertThat(bad.err().lines()).singleElement().asString()
                    .startsWith("boundary-demo: --redis: redisUrl must look like redis://")
                    .doesNotContain("s3cret");
        }
    }

    @Nested
    class OnStandaloneRedis extends PlayedOnRedis {

        @Override
        RedisDeployment deployment() {
            return RedisServerFixture.standalone();
        }

        @Override
        String[] storeOptions() {
            return new String[] {"--redis", deployment().nodes().get(0).uri()};
        }

        @Test
        void refusesAServerThatMayEvictRecordsUnlessEvictionIsAllowed() {
            RedisDeployment redis = deployment();
            redis.call("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
            Run refused;
            Run allowed;
            try {
                refused = Run.of(storeOptions());
                allowed = Run.of(plus(storeOptions(), "--allow-eviction"));
            } finally {
                redis.call("CONFIG", "SET", "maxmemory-policy", "noeviction");
            }

            assertThat(refused.exitCode()).isEqualTo(1);
            assertThat(refused.out()).isEmpty();
            assertThat(refused.err().lines()).singleElement().asString()
                    .startsWith("boundary-demo: refusing to run: Redis maxmemory-policy is 'allkeys-lru'")
                    .contains("--allow-eviction");
            assertThat(allowed.exitCode()).isZero();
            assertThat(allowed.results()).containsExactlyElementsOf(SCRIPTED_RESULTS);
            assertThat(allowed.out()).contains("eviction check: warn only");
        }
    }

    @Nested
    class OnRedisCluster extends PlayedOnRedis {

        @Override
        RedisDeployment deployment() {
            return RedisServerFixture.cluster();
        }

        @Override
        String[] storeOptions() {
            return new String[] {"--redis-cluster", deployment().nodes().get(0).uri()};
        }

        @Test
        void printsAnInspectCommandThatFollowsClusterRedirections() {
            assertThat(played().out()).contains("redis-cli -c -h ");
        }
    }

    /** The scripted run, played once on a Redis deployment and inspected from outside the store. */
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract class PlayedOnRedis {

        private Run played;

        abstract RedisDeployment deployment();

        abstract String[] storeOptions();

        Run played() {
            return played;
        }

        @BeforeAll
        void playOnRedisOnce() {
            played = Run.of(storeOptions());
        }

        @Test
        void exitsZeroWithNothingOnStandardError() {
            assertThat(played.exitCode()).as(played.err()).isZero();
            assertThat(played.err()).isEmpty();
        }

        @Test
        void showsTheSameCasesAsInMemory() {
            assertThat(played.results()).containsExactlyElementsOf(SCRIPTED_RESULTS);
            assertThat(played.summary()).isEqualTo(demo.summary());
            assertThat(played.out()).doesNotContain("NOT AS SCRIPTED");
        }

        @Test
        void leavesEveryCreatedRecordInRedisWithItsTtl() {
            String runId = played.runId();
            long day = Duration.ofHours(24).toMillis();
            CREATED_RECORDS.forEach((toolCallId, status) -> {
                String key = recordKey(runId, toolCallId);
                // The record's layout (docs/redis.md): one string, "5|<status letter>|<token>|...\n<values>"
                assertThat(deployment().call("TYPE", key)).as(key).isEqualTo("string");
                assertThat(deployment().call("GET", key).toString()).as(key)
                        .startsWith("5|" + status.charAt(0) + "|").contains("\n");
                assertThat(deployment().callLong("PTTL", key)).as(key).isPositive().isLessThanOrEqualTo(day);
            });
            for (String toolCallId : NEVER_STORED) {
                assertThat(deployment().callLong("EXISTS", recordKey(runId, toolCallId))).isZero();
            }
        }

        @Test
        void keepsTheOpenedRunsStateWithItsTokenBudgetCountersAndATtl() {
            String runState = KEY_PREFIX + ":{" + played.runId() + "}:run";
            assertThat(deployment().call("HGET", runState, "token").toString()).matches("[A-Za-z0-9-]{1,64}");
            assertThat(deployment().call("HGET", runState, "calls")).isEqualTo(String.valueOf(CREATED_RECORDS.size()));
            assertThat(deployment().call("HGET", runState, "t:log-search")).isEqualTo("2");
            assertThat(deployment().callLong("PTTL", runState)).isPositive();
        }

        @Test
        void printsTheKeyPrefixTheRunIdAndAnInspectCommand() {
            String runId = played.runId();
            assertThat(played.out())
                    .contains("  key prefix  " + KEY_PREFIX)
                    .contains("  run id      " + runId)
                    .contains(" GET '" + recordKey(runId, "call_01") + "'")
                    .doesNotContain(" HGETALL '" + recordKey(runId, "call_01") + "'")
                    .contains(" PTTL '" + recordKey(runId, "call_01") + "'")
                    .contains(" HGETALL '" + KEY_PREFIX + ":{" + runId + "}:run'")
                    .contains(" -p " + deployment().nodes().get(0).port() + " ");
        }

        @Test
        void playsANewRunIdEachTime() {
            Run again = Run.of(storeOptions());
            assertThat(again.exitCode()).isZero();
            assertThat(again.results()).containsExactlyElementsOf(SCRIPTED_RESULTS);
            assertThat(again.runId()).matches("triage-[0-9a-f]{8}").isNotEqualTo(played.runId());
        }

        @Test
        void keepsEveryLineWithinOneHundredColumnsOfPlainText() {
            assertThat(played.out().lines()).allSatisfy(line -> {
                assertThat(line.codePointCount(0, line.length())).isLessThanOrEqualTo(Table.WIDTH);
                assertThat(line.replace("\u2026", "")).matches("[\\x20-\\x7E]*");
            });
        }

        private String recordKey(String runId, String toolCallId) {
            return KEY_PREFIX + ":{" + runId + "}:call:" + toolCallId;
        }
    }

    private static String[] plus(String[] args, String more) {
        String[] all = Arrays.copyOf(args, args.length + 1);
        all[args.length] = more;
        return all;
    }

    /** One in-process run of the demo. */
    private record Run(int exitCode, String out, String err) {

        static Run of(String... args) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }

        List<String> results() {
            return steps().stream().map(step -> step.value(AGENT_GOT_BACK, "result")).toList();
        }

        String runId() {
            Matcher matcher = Pattern.compile("run id +(\\S+)").matcher(out);
            assertThat(matcher.find()).as("a run id line").isTrue();
            return matcher.group(1);
        }

        /** The step tables, in order, read back into cells; a value wrapped over lines is joined by spaces. */
        List<Step> steps() {
            List<Step> steps = new ArrayList<>();
            Step current = null;
            String group = "";
            for (String line : out.split("\\R")) {
                if (line.startsWith("+====")) {
                    current = new Step(new ArrayList<>());
                    steps.add(current);
                    group = "";
                } else if (current != null && isCellLine(line)) {
                    String groupCell = line.substring(2, 16).trim();
                    group = groupCell.isEmpty() ? group : groupCell;
                    String field = line.substring(19, 37).trim();
                    String value = line.substring(40, line.length() - 2).trim();
                    if (field.isEmpty() && !current.cells().isEmpty()) {
                        Cell previous = current.cells().remove(current.cells().size() - 1);
                        current.cells().add(new Cell(previous.group(), previous.field(), previous.value() + " " + value));
                    } else {
                        current.cells().add(new Cell(group, field, value));
                    }
                }
            }
            return steps;
        }

        Step step(int number) {
            return steps().get(number - 1);
        }

        String summary() {
            List<String> lines = Arrays.asList(out.split("\\R"));
            int start = lines.size() - 1;
            while (start > 0 && !lines.get(start).startsWith("Summary:")) {
                start--;
            }
            int end = start;
            while (end < lines.size() && !lines.get(end).isBlank()) {
                end++;
            }
            return String.join(" ", lines.subList(start, end).stream().map(String::trim).toList());
        }

        private static boolean isCellLine(String line) {
            return line.length() == Table.WIDTH && line.startsWith("| ") && line.charAt(17) == '|'
                    && line.charAt(38) == '|';
        }
    }

    private record Step(List<Cell> cells) {

        String value(String group, String field) {
            return cells.stream().filter(c -> c.group().equals(group) && c.field().equals(field)).map(Cell::value)
                    .findFirst().orElseThrow(() -> new AssertionError("no " + group + " / " + field + " in " + cells));
        }

        String group(String group) {
            return String.join("\n", cells.stream().filter(c -> c.group().equals(group))
                    .map(c -> c.field() + " " + c.value()).toList());
        }
    }

    private record Cell(String group, String field, String value) {
    }
}
