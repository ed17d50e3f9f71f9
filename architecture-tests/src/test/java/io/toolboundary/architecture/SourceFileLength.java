package io.toolboundary.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The size rule of the library code: no main source file ({@code src/main/java/**.java}) of a published
 * module is over {@value #MAX_LINES} lines, so that each file holds one concept a reader finds by its name.
 *
 * <p>The modules are those the root pom lists, its profiles' included; a module is published unless its own pom
 * sets {@code maven.deploy.skip} to {@code true}, the mark the root pom gives every unpublished module
 * (the benchmarks, the demo, the CLI, the Redis test support and these tests).
 */
final class SourceFileLength {

    /** The most lines a main source file of a published module may have. */
    static final int MAX_LINES = 400;

    private SourceFileLength() {
    }

    /**
     * Fails when a main source file of a published module under {@code root} is over {@value #MAX_LINES}
     * lines, or when there is no main source file at all (a rule that matches nothing proves nothing).
     */
    static void check(Path root) {
        SortedMap<String, Integer> lines = lineCounts(root);
        if (lines.isEmpty()) {
            throw new AssertionError("no main source file found in the published modules " + publishedModules(root)
                    + " under " + root + ": the rule would pass on anything");
        }
        List<String> failures = new ArrayList<>();
        lines.forEach((file, count) -> {
            if (count > MAX_LINES) {
                failures.add(file + " has " + count + " lines, over the limit of " + MAX_LINES);
            }
        });
        if (!failures.isEmpty()) {
            throw new AssertionError("main source files of published modules must not be over " + MAX_LINES
                    + " lines, because a reader should find each concept in a file of its own name:\n  "
                    + String.join("\n  ", failures));
        }
    }

    /** The published modules of the project under {@code root}, in the root pom's order. */
    static List<String> publishedModules(Path root) {
        List<String> published = new ArrayList<>();
        for (String module : modules(pom(root.resolve("pom.xml")))) {
            List<String> deploySkip = childTexts(pom(root.resolve(module).resolve("pom.xml")), "properties",
                    "maven.deploy.skip");
            if (!deploySkip.contains("true")) {
                published.add(module);
            }
        }
        return published;
    }

    /** Each main source file of a published module, as a path from {@code root} with {@code /}, and its lines. */
    static SortedMap<String, Integer> lineCounts(Path root) {
        SortedMap<String, Integer> lines = new TreeMap<>();
        for (String module : publishedModules(root)) {
            Path sources = root.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(sources)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(sources)) {
                files.filter(file -> Files.isRegularFile(file) && file.getFileName().toString().endsWith(".java"))
                        .forEach(file -> lines.put(fromRoot(root, file), lineCount(file)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return lines;
    }

    private static String fromRoot(Path root, Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }

    private static int lineCount(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8).size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Element pom(Path file) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            return factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    /** The modules of a pom, its own and its profiles', each once, in the pom's order. */
    private static Set<String> modules(Element project) {
        Set<String> modules = new LinkedHashSet<>();
        NodeList elements = project.getElementsByTagName("module");
        for (int i = 0; i < elements.getLength(); i++) {
            if (elements.item(i).getParentNode().getNodeName().equals("modules")) {
                modules.add(elements.item(i).getTextContent().trim());
            }
        }
        return modules;
    }

    /** The texts of the {@code <leaf>} children of the project's own {@code <parent>} child (not a profile's). */
    private static List<String> childTexts(Element project, String parent, String leaf) {
        List<String> texts = new ArrayList<>();
        for (Node group = project.getFirstChild(); group != null; group = group.getNextSibling()) {
            if (group.getNodeName().equals(parent)) {
                for (Node child = group.getFirstChild(); child != null; child = child.getNextSibling()) {
                    if (child.getNodeName().equals(leaf)) {
                        texts.add(child.getTextContent().trim());
                    }
                }
            }
        }
        return texts;
    }
}
