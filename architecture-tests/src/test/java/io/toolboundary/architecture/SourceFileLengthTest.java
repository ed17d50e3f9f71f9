package io.toolboundary.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SourceFileLength} on this project, and on a project written in a temporary directory to break
 * it, so that the rule is seen to fail on a file one line over the limit and to pass on one at the limit.
 */
class SourceFileLengthTest {

    /** The project root: the tests run in the architecture-tests module's directory. */
    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void noMainSourceFileOfAPublishedModuleIsOver400Lines() {
        SourceFileLength.check(PROJECT);
    }

    @Test
    void readsTheModulesFromTheRootPomAndLeavesTheUnpublishedOnesOut() {
        assertThat(SourceFileLength.publishedModules(PROJECT))
                .contains("boundary-domain", "boundary-application", "adapter-inmemory", "adapter-redis",
                        "boundary-testkit", "boundary-store-tck", "boundary-langchain4j", "boundary-micrometer",
                        "boundary-spring-ai", "boundary-spring-ai-alibaba", "boundary-mcp")
                .doesNotContain("boundary-benchmarks", "boundary-demo", "boundary-cli", "redis-test-support",
                        "architecture-tests");
    }

    @Test
    void countsTheMainSourceFilesOfEveryPublishedModule() {
        assertThat(SourceFileLength.lineCounts(PROJECT))
                .containsKey("boundary-domain/src/main/java/io/toolboundary/domain/CanonicalRecord.java")
                .containsKey("boundary-spring-ai/src/main/java/io/toolboundary/springai/autoconfigure/"
                        + "ToolBoundaryProperties.java")
                .allSatisfy((file, lines) -> assertThat(file).contains("/src/main/java/").endsWith(".java"));
    }

    /** A project of two published modules, {@code lib} and {@code extra} (in a profile), and an unpublished one. */
    @Nested
    class OnAProjectWrittenToBreakIt {

        @TempDir
        Path root;

        @BeforeEach
        void writeTheProject() throws IOException {
            write("pom.xml", "<project><modules><module>lib</module><module>demo</module></modules>"
                    + "<profiles><profile><modules><module>extra</module></modules></profile></profiles></project>");
            write("lib/pom.xml", "<project><properties><module.name>lib</module.name></properties></project>");
            write("demo/pom.xml", "<project><properties><maven.deploy.skip>true</maven.deploy.skip></properties>"
                    + "</project>");
            write("extra/pom.xml", "<project/>");
            write("lib/src/main/java/lib/Small.java", javaFileOf(10));
        }

        @Test
        void catchesAMainSourceFileOneLineOverTheLimit() throws IOException {
            write("lib/src/main/java/lib/deep/Big.java", javaFileOf(401));

            assertThatThrownBy(() -> SourceFileLength.check(root))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("lib/src/main/java/lib/deep/Big.java has 401 lines, over the limit of 400")
                    .hasMessageNotContaining("Small.java");
        }

        @Test
        void acceptsAMainSourceFileAtTheLimit() throws IOException {
            write("lib/src/main/java/lib/deep/Big.java", javaFileOf(400));

            assertThatCode(() -> SourceFileLength.check(root)).doesNotThrowAnyException();
            assertThat(SourceFileLength.lineCounts(root)).containsEntry("lib/src/main/java/lib/deep/Big.java", 400);
        }

        @Test
        void catchesAFileOfAModuleListedOnlyInAProfile() throws IOException {
            write("extra/src/main/java/extra/Big.java", javaFileOf(401));

            assertThatThrownBy(() -> SourceFileLength.check(root))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("extra/src/main/java/extra/Big.java has 401 lines");
        }

        @Test
        void leavesTestSourcesAndUnpublishedModulesOut() throws IOException {
            write("lib/src/test/java/lib/BigTest.java", javaFileOf(401));
            write("demo/src/main/java/demo/Big.java", javaFileOf(401));

            assertThat(SourceFileLength.publishedModules(root)).containsExactly("lib", "extra");
            assertThatCode(() -> SourceFileLength.check(root)).doesNotThrowAnyException();
        }

        @Test
        void failsWhenItFindsNoMainSourceFile() throws IOException {
            Files.delete(root.resolve("lib/src/main/java/lib/Small.java"));

            assertThatThrownBy(() -> SourceFileLength.check(root))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("the rule would pass on anything");
        }

        private void write(String file, String text) throws IOException {
            Path path = root.resolve(file);
            Files.createDirectories(path.getParent());
            Files.writeString(path, text, StandardCharsets.UTF_8);
        }
    }

    /** A Java source file of exactly {@code lines} lines, each ended by a newline. */
    private static String javaFileOf(int lines) {
        return "package lib;\n\nclass Big {\n" + "    // filler\n".repeat(lines - 4) + "}\n";
    }
}
