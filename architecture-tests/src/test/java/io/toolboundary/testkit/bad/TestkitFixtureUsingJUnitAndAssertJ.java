package io.toolboundary.testkit.bad;

import static org.assertj.core.api.Assertions.assertThat;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;
import org.junit.jupiter.api.Assertions;

/** Follows the testkit rule: the application, the domain, Vavr, JUnit and AssertJ. */
public final class TestkitFixtureUsingJUnitAndAssertJ {

    private TestkitFixtureUsingJUnitAndAssertJ() {
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
