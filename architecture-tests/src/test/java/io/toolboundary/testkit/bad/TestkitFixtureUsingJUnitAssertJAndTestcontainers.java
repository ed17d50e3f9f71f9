package io.toolboundary.testkit.bad;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.CanonicalInvocationStore;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;
import org.junit.jupiter.api.Assertions;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/** Follows the testkit rule: the application, the domain, Vavr, JUnit, AssertJ and Testcontainers. */
public final class TestkitFixtureUsingJUnitAssertJAndTestcontainers {

    private TestkitFixtureUsingJUnitAssertJAndTestcontainers() {
    }

    static GenericContainer<?> redis() {
        return new GenericContainer<>(DockerImageName.parse("redis:7-alpine"));
    }

    static void checkRunId(String id) {
        Either<?, RunId> runId = RunId.of(id);
        assertThat(runId.isRight()).isTrue();
        Assertions.assertEquals(id, runId.get().value());
    }

    static boolean isStore(Object candidate) {
        return candidate instanceof CanonicalInvocationStore;
    }
}
