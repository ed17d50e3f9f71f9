package io.toolboundary.testkit.example;

import io.toolboundary.application.Projector;
import io.toolboundary.testkit.ProjectorContract;

public class MySqlRowsProjectorTest extends ProjectorContract {
    @Override protected Projector projector() { return new MySqlRowsProjector(); }
    @Override protected String rawWithEvidence() { return "id\tcustomer\tstatus\n42\talice\tPAID\n"; }
    @Override protected String rawWithoutEvidence() { return "id\tcustomer\tstatus\n"; }
    @Override protected String largeRaw() { return "id\tcustomer\tstatus\n" + "42\talice\tPAID\n".repeat(5_000); }
}
