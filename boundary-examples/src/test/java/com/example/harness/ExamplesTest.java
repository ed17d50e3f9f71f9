package com.example.harness;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The README's harnesses, run as a newcomer runs them: each in a JVM of its own, which must print what
 * the model is given and then exit by itself (no thread of a store left running).
 */
class ExamplesTest {

    static final List<String> EXPECTED = List.of(
            "EVIDENCE_FOUND (scope: logs of service payments)",
            "2026-12-07T10:00:01Z payments ERROR timeout calling bank-gw password=[masked]",
            "NO_EVIDENCE (scope: logs of service search)",
            "no ERROR lines");

    @Test
    void theFirstHarnessPrintsWhatTheModelSeesAndExits() throws Exception {
        Finished run = runJava(FirstHarness.class);

        assertThat(run.exitCode()).as(run.output() + run.errors()).isZero();
        assertThat(run.output().lines().toList()).startsWith(EXPECTED.toArray(String[]::new));
        assertThat(run.output().lines().toList().get(4)).startsWith("ERROR DUPLICATE_TOOL_CALL: ");
        assertThat(run.output()).doesNotContain("hunter2").doesNotContain("retry 1 of 3");
    }

    @Test
    void theRedisHarnessDoesTheSameOnRedisAndExitsOnceTheStoreIsClosed() throws Exception {
        String url = RedisServerFixture.standalone().nodes().get(0).uri();

        Finished run = runJava(RedisHarness.class, url);

        assertThat(run.exitCode()).as(run.output() + run.errors()).isZero();
        assertThat(run.output().lines().toList()).startsWith(EXPECTED.toArray(String[]::new));
        assertThat(run.output()).contains("ERROR DUPLICATE_TOOL_CALL: ").doesNotContain("hunter2");
    }

    @Test
    void aProgramThatLeavesTheStoreOpenDoesNotExitWhichTheCheckAboveWouldSee() throws Exception {
        String url = RedisServerFixture.standalone().nodes().get(0).uri();

        Finished run = runJava(StoreLeftOpen.class, 10, url);

        assertThat(run.output()).isEqualTo("connected\n");
        assertThat(run.exitCode()).as("killed after 10 s").isEqualTo(-1);
    }

    record Finished(int exitCode, String output, String errors) {
    }

    /** Runs {@code main} of {@code type} in a new JVM on this test's class path; kills it after a minute (exit code -1). */
    static Finished runJava(Class<?> type, String... args) throws IOException, InterruptedException {
        return runJava(type, 60, args);
    }

    static Finished runJava(Class<?> type, int seconds, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), type.getName()));
        command.addAll(List.of(args));
        Path output = Files.createTempFile("example", ".out");
        Path errors = Files.createTempFile("example", ".err");
        Process process = new ProcessBuilder(command).redirectOutput(output.toFile()).redirectError(errors.toFile())
                .start();
        boolean exited = process.waitFor(seconds, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        Finished finished = new Finished(exited ? process.exitValue() : -1,
                Files.readString(output, StandardCharsets.UTF_8), Files.readString(errors, StandardCharsets.UTF_8));
        Files.delete(output);
        Files.delete(errors);
        return finished;
    }
}
