package io.toolboundary.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.architecture.bad.api.NewPublicType;
import io.toolboundary.domain.CanonicalRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The public types of boundary-domain and boundary-application are a decision, not an accident: each is
 * listed in {@code public-api.txt} as {@code api} (what a harness and a projector team use), {@code spi}
 * (what a store author implements) or {@code internal} (public only for the other module of the two, in a
 * package their module descriptors do not export to everyone). A public type added or removed fails here
 * until the list says so; the API and the SPI stay small.
 */
class PublicApiTest {

    static final int MAX_API_TYPES = 30;
    static final int MAX_SPI_TYPES = 20;
    static final String[] PACKAGES = {"io.toolboundary.domain", "io.toolboundary.application"};

    @Test
    void everyPublicTypeIsListedWithItsKind() {
        Map<String, String> listed = baseline();

        assertThat(differences(publicTypes(new ClassFileImporter()
                .withImportOption(new ImportOption.DoNotIncludeTests()).importPackages(PACKAGES)), listed)).isEmpty();
    }

    @Test
    void theApiAndTheSpiStaySmall() {
        Map<String, Long> counts = baseline().values().stream()
                .collect(Collectors.groupingBy(kind -> kind, Collectors.counting()));

        assertThat(counts.get("api")).isLessThanOrEqualTo(MAX_API_TYPES);
        assertThat(counts.get("spi")).isLessThanOrEqualTo(MAX_SPI_TYPES);
    }

    @Test
    void eachKindIsWhatTheModuleDescriptorsExport() {
        Set<String> exported = new TreeSet<>();
        Set<String> qualified = new TreeSet<>();
        for (Class<?> anchor : List.of(CanonicalRecord.class, ToolBoundary.class)) {
            for (ModuleDescriptor.Exports export : descriptorOf(anchor).exports()) {
                (export.isQualified() ? qualified : exported).add(export.source());
            }
        }

        baseline().forEach((type, kind) -> {
            String pkg = type.substring(0, type.lastIndexOf('.'));
            String expected = !exported.contains(pkg) ? "internal" : pkg.endsWith(".spi") ? "spi" : "api";
            assertThat(kind).as("kind of %s (exported: %s, qualified: %s)", type, exported, qualified)
                    .isEqualTo(expected);
        });
    }

    @Test
    void aNewPublicTypeFailsTheCheck() {
        Set<String> found = publicTypes(new ClassFileImporter().importPackages("io.toolboundary.architecture.bad.api"));

        assertThat(found).containsExactly(NewPublicType.class.getName(), NewPublicType.Nested.class.getName());
        assertThat(differences(found, baseline())).containsExactly(
                "new public type io.toolboundary.architecture.bad.api.NewPublicType: list it in public-api.txt"
                        + " as api, spi or internal, or make it package-private",
                "new public type io.toolboundary.architecture.bad.api.NewPublicType$Nested: list it in"
                        + " public-api.txt as api, spi or internal, or make it package-private");
    }

    /** Public top-level and nested types (every enclosing type public too) of the packages and their subpackages. */
    static Set<String> publicTypes(JavaClasses classes) {
        return classes.stream()
                .filter(type -> !type.isAnonymousClass() && !type.isLocalClass() && effectivelyPublic(type))
                .map(JavaClass::getName)
                .filter(name -> !name.endsWith(".package-info") && !name.equals("module-info"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static boolean effectivelyPublic(JavaClass type) {
        for (JavaClass at = type; at != null; at = at.getEnclosingClass().orElse(null)) {
            if (!at.getModifiers().contains(JavaModifier.PUBLIC)) {
                return false;
            }
        }
        return true;
    }

    static List<String> differences(Set<String> found, Map<String, String> listed) {
        List<String> added = found.stream().filter(type -> !listed.containsKey(type))
                .map(type -> "new public type " + type + ": list it in public-api.txt as api, spi or internal,"
                        + " or make it package-private")
                .toList();
        boolean allPackages = found.stream().anyMatch(type -> type.startsWith("io.toolboundary.domain."));
        List<String> gone = allPackages ? listed.keySet().stream().filter(type -> !found.contains(type))
                .map(type -> "listed type " + type + " is not public any more: take it off public-api.txt")
                .toList() : List.of();
        return java.util.stream.Stream.concat(added.stream(), gone.stream()).toList();
    }

    /** The listing: {@code kind fully.qualified.Name} per line; {@code #} starts a comment. */
    static Map<String, String> baseline() {
        try (InputStream in = Objects.requireNonNull(PublicApiTest.class.getResourceAsStream("/public-api.txt"),
                "public-api.txt is missing")) {
            Map<String, String> listed = new TreeMap<>();
            new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .forEach(line -> {
                        String[] parts = line.split("\\s+");
                        listed.put(parts[1], parts[0]);
                    });
            return listed;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ModuleDescriptor descriptorOf(Class<?> anchor) {
        try {
            Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(location)) {
                try (InputStream in = Files.newInputStream(location.resolve("module-info.class"))) {
                    return ModuleDescriptor.read(in);
                }
            }
            try (JarFile jar = new JarFile(location.toFile());
                    InputStream in = jar.getInputStream(jar.getEntry("module-info.class"))) {
                return ModuleDescriptor.read(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
