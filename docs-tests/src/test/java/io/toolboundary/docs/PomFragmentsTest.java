package io.toolboundary.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.testsupport.redis.RedisServerFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every pom fragment of {@code docs/*.md} builds, as its own Maven project on a fresh local repository that
 * holds this build's artifacts, and the application the page shows beside it runs and prints what the marker
 * says.
 *
 * <p>A fragment is an {@code ```xml} block holding {@code <dependency>}, {@code <parent>} or
 * {@code <dependencyManagement>}. The line right above it is its marker, one of
 * <ul>
 *   <li>{@code <!-- app: com.example.aiops.AiopsAgentApp in boundary-spring-ai-alibaba prints "Answer: ..." -->}:
 *       the fragment with the application whose source is that module's
 *       {@code src/test/java/com/example/aiops/AiopsAgentApp.java} (or {@code src/line-test/java/...}, a line's
 *       own test sources), which the page must show verbatim in a {@code ```java} block;</li>
 *   <li>{@code <!-- pom part: ... -->}: a part of an application's fragment on the same page, shown alone.</li>
 * </ul>
 * A fragment without a marker fails the test.
 *
 * <p>The applications are built in one Maven invocation (the Maven wrapper of this repository, an aggregator
 * of generated projects) with {@code -Dmaven.repo.local} a new folder under {@code target/}, into which the
 * reactor's own jars and POMs are copied first; third-party artifacts come from the local repository of this
 * build ({@code file://}) and then from Maven Central. Nothing is read from or written to an installed copy of
 * this project. An application whose fragment has {@code adapter-redis} gets a {@code redis-server} (the
 * shared test server) as {@code REDIS_URL} in its environment and as its first argument.
 */
class PomFragmentsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path WORK = Path.of("target", "fragments").toAbsolutePath();
    private static final String VERSION = System.getProperty("toolboundary.version", "0.1.0-SNAPSHOT");

    /** The reactor modules whose jars the documented applications use (this module depends on each). */
    private static final List<String> JARS = List.of("boundary-domain", "boundary-application", "adapter-inmemory",
            "adapter-redis", "boundary-langchain4j", "boundary-micrometer", "boundary-spring-ai", "boundary-spring-ai2",
            "boundary-spring-ai-alibaba", "boundary-mcp", "boundary-citations");

    private static final Pattern XML_BLOCK = Pattern.compile("(?m)^```xml\n(.*?)^```$", Pattern.DOTALL);
    private static final Pattern APP = Pattern.compile(
            "<!-- app: ([\\w.]+)((?: with \\w+)*) in ([\\w-]+) prints \"(.+)\" -->");
    private static final Pattern PART = Pattern.compile("<!-- pom part: .+ -->");

    private static final long BUILD_MINUTES = 8;
    private static final long RUN_SECONDS = 120;

    record Fragment(Path page, String xml, String marker) {
    }

    /** An application: its main class and the classes of its package it needs ({@code with Name}, in the marker). */
    record App(Path page, String xml, String mainClass, List<String> with, String module, String printed) {

        Path source() {
            return source(mainClass);
        }

        Path source(String className) {
            String file = className.replace('.', '/') + ".java";
            Path test = ROOT.resolve(module).resolve("src/test/java").resolve(file);
            return Files.exists(test) ? test : ROOT.resolve(module).resolve("src/line-test/java").resolve(file);
        }

        /** The fully qualified names of the classes beside the main class. */
        List<String> companions() {
            String pkg = mainClass.substring(0, mainClass.lastIndexOf('.') + 1);
            return with.stream().map(name -> pkg + name).toList();
        }

        boolean needsRedis() {
            return xml.contains("<artifactId>adapter-redis</artifactId>");
        }
    }

    @Test
    void everyPomFragmentIsMarkedAndEveryPartIsInAnApplicationsFragment() throws IOException {
        List<Fragment> fragments = fragments();
        assertThat(fragments).as("pom fragments in docs/*.md").isNotEmpty();
        for (Fragment fragment : fragments) {
            assertThat(APP.matcher(fragment.marker()).matches() || PART.matcher(fragment.marker()).matches())
                    .as("the line above this pom fragment of %s is a marker (<!-- app: <main class> in <module> prints"
                            + " \"<line>\" --> or <!-- pom part: ... -->), not:%n%s%nfragment:%n%s",
                            fragment.page().getFileName(), fragment.marker(), fragment.xml())
                    .isTrue();
            if (PART.matcher(fragment.marker()).matches()) {
                assertThat(apps(fragments).stream().filter(app -> app.page().equals(fragment.page()))
                        .anyMatch(app -> app.xml().contains(fragment.xml())))
                        .as("%s: this part is in one of the page's application fragments:%n%s",
                                fragment.page().getFileName(), fragment.xml())
                        .isTrue();
            }
        }
    }

    @Test
    void everyApplicationFragmentBuildsOnAFreshRepositoryAndItsApplicationRuns() throws Exception {
        List<App> apps = apps(fragments());
        assertThat(apps).as("application fragments").isNotEmpty();
        for (App app : apps) {
            for (Path source : Stream.concat(Stream.of(app.source()), app.companions().stream().map(app::source)).toList()) {
                assertThat(source).as("a source of %s in %s", app.mainClass(), app.module()).exists();
                assertThat(Files.readString(app.page())).as("%s shows %s verbatim", app.page().getFileName(), source)
                        .contains("```java\n" + Files.readString(source) + "```\n");
            }
        }

        deleteTree(WORK);
        Path repository = freshRepository();
        Path settings = settings();
        Path aggregator = projects(apps);

        long started = System.nanoTime();
        Process build = new ProcessBuilder(ROOT.resolve("mvnw").toString(), "-B", "-q", "-s", settings.toString(),
                "-Dmaven.repo.local=" + repository, "-f", aggregator.resolve("pom.xml").toString(), "package",
                "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
                "-Dmdep.outputFile=classpath.txt")
                .directory(aggregator.toFile()).redirectErrorStream(true)
                .redirectOutput(WORK.resolve("build.log").toFile()).start();
        boolean built = build.waitFor(BUILD_MINUTES, TimeUnit.MINUTES);
        if (!built) {
            build.descendants().forEach(ProcessHandle::destroyForcibly);
            build.destroyForcibly();
        }
        String log = Files.readString(WORK.resolve("build.log"));
        assertThat(built && build.exitValue() == 0).as("the fragments build (%s):%n%s", WORK.resolve("build.log"), log)
                .isTrue();
        System.out.printf("Built %d documented applications in %d s%n", apps.size(),
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));

        String redisUrl = apps.stream().anyMatch(App::needsRedis)
                ? RedisServerFixture.standalone().nodes().get(0).uri() : null;
        for (int i = 0; i < apps.size(); i++) {
            run(apps.get(i), aggregator.resolve(projectName(i, apps.get(i))), redisUrl);
        }
    }

    private static void run(App app, Path project, String redisUrl) throws Exception {
        String classPath = project.resolve("target/classes") + java.io.File.pathSeparator
                + Files.readString(project.resolve("classpath.txt")).strip();
        if (app.needsRedis()) {
            assertThat(classPath).as("%s's class path: Netty at Redisson's 4.2", app.page().getFileName())
                    .containsPattern("netty-common-4\\.2\\.[^/]*\\.jar").doesNotContainPattern("netty-common-4\\.1\\.");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", classPath, app.mainClass()));
        if (app.mainClass().equals("com.example.mcp.McpTriageHarness")) {
            // its argument is the command of a stdio MCP server: boundary-mcp's test server, built with the app
            command.addAll(List.of(java, "-cp", classPath, "io.toolboundary.mcp.McpTestServer"));
        } else if (redisUrl != null && app.needsRedis()) {
            command.add(redisUrl);
        }
        Path output = project.resolve("run.log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        if (redisUrl != null) {
            builder.environment().put("REDIS_URL", redisUrl);
        }
        long started = System.nanoTime();
        Process process = builder.start();
        boolean ended = process.waitFor(RUN_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String printed = Files.readString(output);
        assertThat(ended).as("%s (%s) ends by itself within %d s:%n%s", app.mainClass(), app.module(), RUN_SECONDS,
                printed).isTrue();
        assertThat(process.exitValue()).as("%s (%s) exit code:%n%s", app.mainClass(), app.module(), printed).isZero();
        assertThat(printed.lines()).as("%s (%s) prints the line its page's marker names", app.mainClass(), app.module())
                .contains(app.printed());
        System.out.printf("Ran %s (%s) in %d s%n", app.mainClass(), app.module(),
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    }

    private static List<Fragment> fragments() throws IOException {
        List<Fragment> fragments = new ArrayList<>();
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            List<Path> pages = Stream.concat(Stream.of(ROOT.resolve("README.md")),
                    docs.filter(path -> path.toString().endsWith(".md")).sorted()).toList();
            for (Path page : pages) {
                String text = Files.readString(page);
                Matcher block = XML_BLOCK.matcher(text);
                while (block.find()) {
                    String xml = block.group(1);
                    if (!(xml.contains("<dependency>") || xml.contains("<parent>") || xml.contains("<dependencyManagement>"))) {
                        continue;
                    }
                    String before = text.substring(0, block.start());
                    String[] lines = before.split("\n", -1);
                    String marker = lines.length >= 2 ? lines[lines.length - 2].strip() : "";
                    fragments.add(new Fragment(page, xml, marker));
                }
            }
        }
        return fragments;
    }

    private static List<App> apps(List<Fragment> fragments) {
        List<App> apps = new ArrayList<>();
        for (Fragment fragment : fragments) {
            Matcher app = APP.matcher(fragment.marker());
            if (app.matches()) {
                List<String> with = java.util.Arrays.stream(app.group(2).split(" with ")).map(String::strip)
                        .filter(name -> !name.isEmpty()).toList();
                apps.add(new App(fragment.page(), fragment.xml(), app.group(1), with, app.group(3), app.group(4)));
            }
        }
        return apps;
    }

    /** A local repository laid out with this build's jars and POMs, as an install would have left them. */
    private static Path freshRepository() throws IOException {
        Path repository = WORK.resolve("repository");
        copyPom(ROOT.resolve("pom.xml"), repository, "tool-boundary-parent");
        copyPom(ROOT.resolve("boundary-bom/pom.xml"), repository, "boundary-bom");
        for (String module : JARS) {
            Path jar = ROOT.resolve(module).resolve("target").resolve(module + "-" + VERSION + ".jar");
            assertThat(jar).as("%s's jar: build through the reactor (./mvnw -B -pl docs-tests -am verify)", module)
                    .exists();
            Path folder = copyPom(ROOT.resolve(module).resolve("pom.xml"), repository, module);
            Files.copy(jar, folder.resolve(module + "-" + VERSION + ".jar"));
        }
        return repository;
    }

    /** Copies the POM an install would have left: the flattened one, its CI-friendly version resolved. */
    private static Path copyPom(Path pom, Path repository, String artifactId) throws IOException {
        Path flattened = pom.resolveSibling("target").resolve(".flattened-pom.xml");
        assertThat(flattened).as("%s's flattened POM: build through the reactor", artifactId).exists();
        Path folder = repository.resolve("io/toolboundary").resolve(artifactId).resolve(VERSION);
        Files.createDirectories(folder);
        Files.copy(flattened, folder.resolve(artifactId + "-" + VERSION + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        return folder;
    }

    /** Third-party artifacts: this build's local repository first, Maven Central second; no snapshots from either. */
    private static Path settings() throws IOException {
        String local = System.getProperty("toolboundary.docs.thirdPartyRepository",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString());
        String url = Path.of(local).toUri().toString();
        String repositories = Stream.of(Map.entry("build-local", url),
                        Map.entry("central", "https://repo.maven.apache.org/maven2"))
                .map(entry -> "<id>" + entry.getKey() + "</id><url>" + entry.getValue() + "</url>"
                        + "<snapshots><enabled>false</enabled></snapshots>")
                .collect(Collectors.joining("\n"));
        String settings = """
                <settings>
                  <profiles>
                    <profile>
                      <id>docs-tests</id>
                      <repositories>%s</repositories>
                      <pluginRepositories>%s</pluginRepositories>
                    </profile>
                  </profiles>
                  <activeProfiles>
                    <activeProfile>docs-tests</activeProfile>
                  </activeProfiles>
                </settings>
                """.formatted(wrap(repositories, "repository"), wrap(repositories, "pluginRepository"));
        Path file = WORK.resolve("settings.xml");
        Files.writeString(file, settings);
        return file;
    }

    private static String wrap(String entries, String element) {
        return entries.lines().map(entry -> "<" + element + ">" + entry + "</" + element + ">")
                .collect(Collectors.joining());
    }

    /** One project per application (the fragment in a minimal project, the page's source file) and their aggregator. */
    private static Path projects(List<App> apps) throws IOException {
        Path aggregator = WORK.resolve("apps");
        StringBuilder modules = new StringBuilder();
        for (int i = 0; i < apps.size(); i++) {
            App app = apps.get(i);
            String name = projectName(i, app);
            Path project = aggregator.resolve(name);
            String pom = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <project xmlns="http://maven.apache.org/POM/4.0.0">
                    <modelVersion>4.0.0</modelVersion>
                    %s
                    <groupId>com.example</groupId>
                    <artifactId>%s</artifactId>
                    <version>1.0</version>
                    <properties>
                      <maven.compiler.release>17</maven.compiler.release>
                      <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                    </properties>
                    </project>
                    """.formatted(app.xml(), name);
            Files.createDirectories(project);
            Files.writeString(project.resolve("pom.xml"), pom);
            copySource(app.source(), project, app.mainClass());
            for (String companion : app.companions()) {
                copySource(app.source(companion), project, companion);
            }
            if (app.mainClass().equals("com.example.mcp.McpTriageHarness")) {
                copySource(ROOT.resolve("boundary-mcp/src/test/java/io/toolboundary/mcp/McpTestServer.java"), project,
                        "io.toolboundary.mcp.McpTestServer");
            }
            modules.append("<module>").append(name).append("</module>");
        }
        Files.writeString(aggregator.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>com.example</groupId>
                  <artifactId>documented-apps</artifactId>
                  <version>1.0</version>
                  <packaging>pom</packaging>
                  <modules>%s</modules>
                </project>
                """.formatted(modules), StandardCharsets.UTF_8);
        return aggregator;
    }

    private static void copySource(Path source, Path project, String className) throws IOException {
        Path target = project.resolve("src/main/java").resolve(className.replace('.', '/') + ".java");
        Files.createDirectories(target.getParent());
        Files.copy(source, target);
    }

    private static String projectName(int index, App app) {
        return "app-" + (index + 1) + "-" + app.module();
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException failure) {
                    throw new UncheckedIOException(failure);
                }
            });
        }
    }
}
