package com.example.harness;

import io.toolboundary.application.Projector;
import io.toolboundary.testkit.ProjectorContract;

public class LogSearchProjectorTest extends ProjectorContract {

    @Override
    protected Projector projector() {
        return new LogSearchProjector();
    }

    @Override
    protected String rawWithEvidence() {
        return "2026-12-07T10:00:01Z payments ERROR timeout calling bank-gw";
    }

    @Override
    protected String rawWithoutEvidence() {
        return "2026-12-07T10:00:02Z payments INFO retry 1 of 3";
    }

    @Override
    protected String largeRaw() {
        return "2026-12-07T10:00:02Z payments INFO retry\n".repeat(20_000);
    }
}
