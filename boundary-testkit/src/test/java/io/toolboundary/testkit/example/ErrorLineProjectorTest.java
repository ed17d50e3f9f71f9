package io.toolboundary.testkit.example;

import io.toolboundary.application.Projector;
import io.toolboundary.testkit.ProjectorContract;

/** The example projector keeps the projector contract; it lives in its own package, as a team's would. */
class ErrorLineProjectorTest extends ProjectorContract {

    @Override
    protected Projector projector() {
        return new ErrorLineProjector();
    }

    @Override
    protected String rawWithEvidence() {
        return "10:00:01 INFO request ok\n10:00:02 ERROR timeout calling payments\n";
    }

    @Override
    protected String rawWithoutEvidence() {
        return "10:00:01 INFO request ok\n10:00:02 INFO request ok\n";
    }

    @Override
    protected String largeRaw() {
        return "10:00:01 ERROR timeout calling payments after 30000 ms\n".repeat(5_000);
    }
}
