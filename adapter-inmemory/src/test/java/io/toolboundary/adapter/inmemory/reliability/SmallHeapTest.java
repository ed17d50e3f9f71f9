package io.toolboundary.adapter.inmemory.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The default in-memory store in a JVM with a small heap: calls with about 1 MiB raw responses are
 * answered {@code STORE_FULL} once the store's bound is reached, and no {@code OutOfMemoryError} escapes
 * {@code invoke}, for Latin-1 responses (one heap byte per counted byte) and for UTF-16 ones (two). The same calls on a store without a bound show that the rig sees an
 * {@code OutOfMemoryError} when there is one. Each run prints a {@code RELIABILITY} line.
 */
class SmallHeapTest {

    private static final String HEAP = "64m";
    private static final int CALLS = 300;
    private static final long TIMEOUT_SECONDS = 120;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"ascii", "utf16"})
    void theDefaultStoreAnswersStoreFullAndNoOutOfMemoryErrorEscapes(String mode) throws Exception {
        Run run = runChild(mode);

        System.out.println("RELIABILITY small-heap/in-memory-" + mode + " heap=" + HEAP + " calls=" + run.get("calls") + " ready="
                + run.get("ready") + " storeFull=" + run.get("storeFull") + " other=" + run.get("other")
                + " escaped=" + run.get("escaped") + " projecting=" + run.get("projecting") + " maxBytes="
                + run.get("maxBytes") + " maxRecords=" + run.get("maxRecords") + " elapsedMs=" + run.get("elapsedMs"));
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).doesNotContain("OutOfMemoryError");
        assertThat(run.get("calls")).isEqualTo(String.valueOf(CALLS));
        assertThat(run.get("escaped")).isEqualTo("0");
        assertThat(run.get("other")).isEqualTo("0");
        assertThat(run.get("projecting")).isEqualTo("0");
        assertThat(Long.parseLong(run.get("ready"))).isPositive();
        assertThat(Long.parseLong(run.get("storeFull"))).isPositive();
        assertThat(Long.parseLong(run.get("heldBytes"))).isLessThanOrEqualTo(Long.parseLong(run.get("maxBytes")));
    }

    @Test
    void aStoreWithoutABoundLetsTheOutOfMemoryErrorOutAndLeavesARecordProjecting() throws Exception {
        Run run = runChild("unbounded");

        System.out.println("RELIABILITY small-heap/in-memory-unbounded heap=" + HEAP + " calls=" + run.get("calls")
                + " ready=" + run.get("ready") + " escaped=" + run.get("escaped") + " firstEscaped="
                + run.get("firstEscaped") + " projecting=" + run.get("projecting"));
        assertThat(run.output()).contains("OutOfMemoryError");
    }

    private Run runChild(String mode) throws IOException, InterruptedException {
        Path output = dir.resolve(mode + ".out");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + HEAP, "-cp", System.getProperty("java.class.path"), SmallHeapCalls.class.getName(),
                String.valueOf(CALLS), mode)
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        if (!child.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the child JVM did not finish within " + TIMEOUT_SECONDS + " s: "
                    + Files.readString(output, StandardCharsets.UTF_8));
        }
        return new Run(child.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    /** The child's exit code, its whole output, and the fields of its {@code SMALL-HEAP} line (none when it printed none). */
    private record Run(int exitCode, String output) {
        String get(String field) {
            Map<String, String> fields = new LinkedHashMap<>();
            output.lines().filter(line -> line.startsWith("SMALL-HEAP ")).findFirst().ifPresent(line -> {
                for (String pair : line.substring("SMALL-HEAP ".length()).split(" ")) {
                    int eq = pair.indexOf('=');
                    fields.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            });
            return fields.getOrDefault(field, "?");
        }
    }
}
