package io.toolboundary.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class DemoTest {

    private static final String AGENT_GOT_BACK = "agent got back";
    private static final String HARNESS_RECORD = "harness record";

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
        void showsEveryScriptedCaseInOrder() {
            assertThat(demo.steps()).extracting(step -> step.value(AGENT_GOT_BACK, "result")).containsExactly(
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
                    "ERROR PROJECTION_FAILED");
            assertThat(demo.out()).doesNotContain("NOT AS SCRIPTED");
        }

        @Test
        void givesTheAgentOnlySafeMessagesForErrors() {
            assertThat(demo.step(8).value(AGENT_GOT_BACK, "message")).isEqualTo("The tool call belongs to a different run.");
            assertThat(demo.step(13).value(AGENT_GOT_BACK, "message")).isEqualTo("The tool result could not be projected.");
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
        void abbreviatesLongArgumentsWithTheirByteCount() {
            String arguments = demo.step(3).value("agent sent", "arguments");
            assertThat(arguments).matches("(?s)\\{\"query\":.*\u2026\\(\\d+ bytes\\)");
            assertThat(demo.step(1).value("agent sent", "arguments")).doesNotContain("\u2026");
        }

        @Test
        void endsWithAOneLineSummary() {
            assertThat(demo.summary()).startsWith(
                    "Summary: 13 steps, 7 records created (4 READY, 3 ERROR), 7 tool executions, 6 projector runs, 9 errors:")
                    .contains("DUPLICATE_TOOL_CALL 1", "RUN_MISMATCH 1", "TOOL_NOT_AUTHORIZED 1", "TOOL_NOT_READ_ONLY 1",
                            "RESULT_TOO_LARGE 2", "PROJECTION_FAILED 1", "TOOL_CALL_ID_REUSED 1", "TOOL_CALL_ID_UNSAFE 1");
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
        void saysRedisIsNotAvailableInThisBuild() {
            Run redis = Run.of("--redis", "redis://localhost:6379");
            assertThat(redis.exitCode()).isEqualTo(2);
            assertThat(redis.err()).contains("not available in this build");
            assertThat(redis.out()).isEmpty();
        }

        @Test
        void saysRedisClusterIsNotAvailableInThisBuild() {
            Run cluster = Run.of("--redis-cluster", "redis://localhost:7000");
            assertThat(cluster.exitCode()).isEqualTo(2);
            assertThat(cluster.err()).contains("not available in this build");
            assertThat(cluster.out()).isEmpty();
        }
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
            return String.join(" ", lines.subList(start, lines.size()).stream().map(String::trim).toList());
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
