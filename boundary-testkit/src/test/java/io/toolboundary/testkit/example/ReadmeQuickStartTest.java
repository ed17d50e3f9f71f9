package io.toolboundary.testkit.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The README's projector quick start shows these example files exactly, and states their line count. */
class ReadmeQuickStartTest {

    private static final Path EXAMPLE = Path.of("src/test/java/io/toolboundary/testkit/example");

    @Test
    void showsTheExampleProjectorAndItsTestAsTheyAreAndCountsTheirLines() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String projector = withoutPackage(Files.readString(EXAMPLE.resolve("MySqlRowsProjector.java")));
        String test = withoutPackage(Files.readString(EXAMPLE.resolve("MySqlRowsProjectorTest.java")));
        long lines = projector.lines().count() + test.lines().count();

        assertThat(readme).contains(indented(projector)).contains(indented(test))
                .contains("The projector and its test take " + lines + " lines together, imports included");
        assertThat(lines).as("about 30 lines").isLessThanOrEqualTo(32);
    }

    private static String withoutPackage(String source) {
        return source.substring(source.indexOf('\n', source.indexOf("package ")) + 1).strip();
    }

    private static String indented(String code) {
        return code.lines().map(line -> line.isEmpty() ? "" : "   " + line).collect(Collectors.joining("\n"));
    }
}
