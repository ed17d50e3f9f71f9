package io.toolboundary.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Java block in README.md and docs/*.md is a whole source file that the build compiles: the block is
 * byte for byte a file {@code <module>/src/<source set>/java/<package>/<Type>.java} of this repository, so a
 * snippet cannot drift from code that compiles (and, where it has a test beside it, runs).
 */
class DocsSnippetsTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("(?m)^( *)```java\\n(.*?)^ *```$", Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);$");
    private static final Pattern TOP_TYPE = Pattern.compile(
            "(?m)^public (?:final |abstract |sealed |non-sealed )*(?:class|interface|record|enum|@interface) (\\w+)");

    @Test
    void everyJavaBlockIsACompiledSourceFile() {
        Path root = repositoryRoot();
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        for (Path page : pages(root)) {
            Matcher block = JAVA_BLOCK.matcher(read(page));
            while (block.find()) {
                blocks++;
                String where = root.relativize(page) + " block " + blocks;
                problems.addAll(block.group(1).isEmpty() ? check(root, where, block.group(2))
                        : List.of(where + ": indented; a Java block starts at the margin, as its file does"));
            }
        }
        assertThat(problems).isEmpty();
        assertThat(blocks).as("Java blocks found").isPositive();
    }

    @Test
    void aBlockThatIsNotAFileIsReported() {
        Path root = repositoryRoot();

        assertThat(check(root, "fragment", "boundary.invoke(run, envelope);\n"))
                .containsExactly("fragment: not a whole source file (a package and one public top-level type)");
        assertThat(check(root, "missing", "package com.example;\n\npublic final class NoSuchExample {\n}\n"))
                .containsExactly("missing: no file */src/*/java/com/example/NoSuchExample.java in the build");
        String real = read(root.resolve("architecture-tests/src/test/java/io/toolboundary/architecture/bad/api/NewPublicType.java"));
        assertThat(check(root, "same", real)).isEmpty();
        assertThat(check(root, "drifted", real.replace("private NewPublicType()", "NewPublicType()")))
                .containsExactly("drifted: differs from architecture-tests/src/test/java/io/toolboundary/architecture/bad/api/NewPublicType.java");
    }

    static List<String> check(Path root, String where, String block) {
        Matcher pkg = PACKAGE.matcher(block);
        Matcher type = TOP_TYPE.matcher(block);
        if (!pkg.find() || !type.find()) {
            return List.of(where + ": not a whole source file (a package and one public top-level type)");
        }
        String relative = pkg.group(1).replace('.', '/') + "/" + type.group(1) + ".java";
        List<Path> files = sourceFiles(root, relative);
        if (files.isEmpty()) {
            return List.of(where + ": no file */src/*/java/" + relative + " in the build");
        }
        // Two source sets may hold a type of the same name (one per Spring line): the block is one of them.
        return files.stream().anyMatch(file -> read(file).equals(block)) ? List.of()
                : List.of(where + ": differs from " + files.stream().map(root::relativize).map(Path::toString)
                        .collect(java.util.stream.Collectors.joining(" and ")));
    }

    private static List<Path> sourceFiles(Path root, String relative) {
        try (Stream<Path> modules = Files.list(root)) {
            return modules.filter(module -> Files.isDirectory(module.resolve("src")))
                    .flatMap(module -> list(module.resolve("src")))
                    .map(sourceSet -> sourceSet.resolve("java/" + relative))
                    .filter(Files::isRegularFile)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Stream<Path> list(Path folder) {
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.sorted().toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> pages(Path root) {
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            return Stream.concat(Stream.of(root.resolve("README.md")),
                    docs.filter(page -> page.toString().endsWith(".md")).sorted()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path repositoryRoot() {
        Path at = Path.of("").toAbsolutePath();
        while (at != null && !(Files.isRegularFile(at.resolve("README.md")) && Files.isDirectory(at.resolve("docs")))) {
            at = at.getParent();
        }
        return java.util.Objects.requireNonNull(at, "no README.md and docs/ above the working directory");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
