package io.toolboundary.springai;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The rules of architecture-tests that this line's own classes must also keep (architecture-tests sees the
 * Spring Boot 3.5 line's, which has the same packages), and the one rule of this line: Spring Boot 4's
 * Jackson 3 is the application's, never the library's. Each rule is seen to catch a class that breaks it.
 */
class SpringLineArchitectureTest {

    static final ArchRule NO_JACKSON_3 = noClasses().that().resideInAPackage("io.toolboundary.springai..")
            .should().dependOnClassesThat().resideInAPackage("tools.jackson..")
            .because("on Spring Boot 4, Jackson 3 is the application's: the boundary's JSON is its own Jackson 2");

    static final ArchRule REDISSON_ONLY_IN_AUTOCONFIGURE = noClasses().that().resideInAPackage("io.toolboundary.springai..")
            .and().resideOutsideOfPackage("io.toolboundary.springai.autoconfigure..")
            .should().dependOnClassesThat().resideInAPackage("org.redisson..")
            .because("only the auto-configuration chooses and builds a store");

    /** This module's main classes: the shared ones compiled for this line, and its own. */
    private static final JavaClasses MAIN = new ClassFileImporter().importPath(Path.of("target", "classes"));

    @Test
    void thisLinesClassesUseNoJackson3AndNameRedissonOnlyInTheAutoConfiguration() {
        assertThat(MAIN.contain(ToolResultJson.class)).isTrue();
        assertThat(MAIN.contain("io.toolboundary.springai.autoconfigure.SpringAiToolSettings")).isTrue();
        NO_JACKSON_3.check(MAIN);
        REDISSON_ONLY_IN_AUTOCONFIGURE.check(MAIN);
    }

    @Test
    void theRulesCatchClassesThatBreakThem() {
        JavaClasses bad = new ClassFileImporter().importClasses(UsesJackson3.class, NamesRedisson.class);

        EvaluationResult jackson = NO_JACKSON_3.evaluate(bad);
        EvaluationResult redisson = REDISSON_ONLY_IN_AUTOCONFIGURE.evaluate(bad);

        assertThat(jackson.hasViolation()).isTrue();
        assertThat(jackson.getFailureReport().getDetails()).allMatch(line -> line.contains("UsesJackson3"));
        assertThat(redisson.hasViolation()).isTrue();
        assertThat(redisson.getFailureReport().getDetails()).allMatch(line -> line.contains("NamesRedisson"));
    }

    /** Breaks the Jackson 3 rule. */
    static final class UsesJackson3 {
        String write(Object value) {
            return tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(value);
        }
    }

    /** Breaks the Redisson rule. */
    static final class NamesRedisson {
        boolean shutDown(org.redisson.api.RedissonClient client) {
            return client.isShutdown();
        }
    }
}
