package io.toolboundary.tck.bad;

import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.testkit.Fixtures;
import org.assertj.core.api.Assertions;

/** Follows the store TCK rule: the testkit, the application, JUnit and AssertJ. */
public final class StoreSuiteUsingTheTestkit {

    private StoreSuiteUsingTheTestkit() {
    }

    static void checkStore(CanonicalInvocationStore store) {
        Assertions.assertThat(store).isNotNull();
        Assertions.assertThat(Fixtures.anyRunContext().active()).isTrue();
    }
}
